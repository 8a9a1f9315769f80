package org.brokerapp.infra.servers;

import java.nio.file.Path;
import java.util.List;

import org.brokerapp.regions.CqlLogin;

/**
 * The Cassandra roles of a stack running TLS, whose nodes take only logins
 * ({@code PasswordAuthenticator}) and check permissions ({@code CassandraAuthorizer}), as
 * Terraform's do. Their passwords are {@link PasswordFiles} in {@code <work-dir>/cql-credentials}.
 * <ul>
 *   <li>{@value #STACK}: a superuser, for the stack's own sessions (its probes, the harness's floor, tests);</li>
 *   <li>{@value #BROKER}: what the Terraform README grants the brokers and no more: a login and
 *       {@code CREATE} on all keyspaces (the broker's migrations create the keyspace, and its creator
 *       gets every permission on it).</li>
 * </ul>
 * Cassandra's default superuser {@code cassandra} (password {@code cassandra}) creates them once and
 * then loses its login ({@code CassandraAuth}).
 */
public final class CqlRoles {

    public static final String DIRECTORY = "cql-credentials";
    public static final String STACK = "stack";
    public static final String BROKER = "broker";
    private static final String WHAT = "CQL role";

    private final PasswordFiles files;

    private CqlRoles(PasswordFiles files) {
        this.files = files;
    }

    /** Reads the roles' passwords under {@code workDir}; generates them all if any is missing. */
    public static CqlRoles loadOrCreate(Path workDir) {
        return new CqlRoles(PasswordFiles.loadOrCreate(workDir.resolve(DIRECTORY), List.of(STACK, BROKER), WHAT));
    }

    public CqlLogin login(String role) {
        return new CqlLogin(role, files.of(role, WHAT));
    }

    /** The file holding {@code role}'s password (for {@code --cql-login ROLE=FILE}). */
    public Path passwordFile(String role) {
        return files.file(role, WHAT);
    }
}
