package org.brokerapp.infra.stack;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.auth.AuthenticationException;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.servers.CqlRoles;
import org.brokerapp.regions.CqlLogin;

/**
 * Logins and permissions on a TLS stack's Cassandra, set up as an operator sets up a new cluster:
 * {@code system_auth} replicated in every DC, the stack's {@link CqlRoles} created by the default
 * superuser, which then loses its login ({@code cassandra}/{@code cassandra} is known to everyone).
 */
public final class CassandraAuth {

    private static final CqlLogin DEFAULT_SUPERUSER = new CqlLogin("cassandra", "cassandra");
    private static final Duration DEFAULT_SUPERUSER_WAIT = Duration.ofSeconds(90);
    private static final int MAX_AUTH_REPLICAS = 3;

    private CassandraAuth() {
    }

    /**
     * Creates the roles unless the stack's role already logs in (a stack started again on its data).
     *
     * @param connect a session to a region's DC as a login
     */
    static void setUp(StackLayout layout, CqlRoles roles, Function<CqlLogin, CqlSession> connect, Progress progress) {
        CqlLogin stack = roles.login(CqlRoles.STACK);
        if (logsIn(connect, stack)) {
            progress.step("CQL logins on: the stack's roles exist (passwords in " + roles.passwordFile(CqlRoles.STACK).getParent() + ")");
            return;
        }
        try (CqlSession superuser = defaultSuperuser(connect, roles)) {
            superuser.execute("ALTER KEYSPACE system_auth WITH replication = " + replication(layout));
            // the default superuser's row was written with the keyspace's old replication: a read at ALL repairs it onto its new replicas
            superuser.execute(SimpleStatement.newInstance("SELECT role FROM system_auth.roles").setConsistencyLevel(ConsistencyLevel.ALL));
            superuser.execute("CREATE ROLE IF NOT EXISTS " + CqlRoles.STACK + " WITH SUPERUSER = true AND LOGIN = true AND PASSWORD = '"
                    + stack.password() + "'");
            superuser.execute("CREATE ROLE IF NOT EXISTS " + CqlRoles.BROKER + " WITH LOGIN = true AND PASSWORD = '"
                    + roles.login(CqlRoles.BROKER).password() + "'");
            superuser.execute("GRANT CREATE ON ALL KEYSPACES TO " + CqlRoles.BROKER);
        }
        // a superuser may not take its own status away: the stack's role does it
        try (CqlSession session = connect.apply(stack)) {
            session.execute("ALTER ROLE " + DEFAULT_SUPERUSER.role() + " WITH SUPERUSER = false AND LOGIN = false");
        }
        progress.step("CQL logins on: roles " + CqlRoles.STACK + " (superuser) and " + CqlRoles.BROKER + " (CREATE ON ALL KEYSPACES), passwords in "
                + roles.passwordFile(CqlRoles.STACK).getParent() + "; the default superuser cannot log in");
    }

    /** The default superuser's session, once a node has made it (at once with {@link #NO_SUPERUSER_DELAY}, but after its start). */
    private static CqlSession defaultSuperuser(Function<CqlLogin, CqlSession> connect, CqlRoles roles) {
        long deadline = System.nanoTime() + DEFAULT_SUPERUSER_WAIT.toNanos();
        while (true) {
            Optional<CqlSession> session = tryConnect(connect, DEFAULT_SUPERUSER);
            if (session.isPresent()) {
                return session.get();
            }
            if (System.nanoTime() > deadline) {
                throw new StackException("CQL takes neither the stack's role nor the default superuser within " + DEFAULT_SUPERUSER_WAIT.toSeconds()
                        + " s: its data holds other passwords than " + roles.passwordFile(CqlRoles.STACK).getParent() + " (start with --clean)");
            }
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StackException("interrupted while waiting for the default superuser's login");
            }
        }
    }

    /** {@code system_auth} in every DC, on up to three of its nodes: a login needs a local quorum of them. */
    public static String replication(StackLayout layout) {
        Map<String, Long> nodesPerDc = layout.cassandra().stream()
                .collect(Collectors.groupingBy(n -> n.region().datacenter(), LinkedHashMap::new, Collectors.counting()));
        return nodesPerDc.entrySet().stream().map(e -> "'" + e.getKey() + "': " + Math.min(e.getValue(), MAX_AUTH_REPLICAS))
                .collect(Collectors.joining(", ", "{'class': 'NetworkTopologyStrategy', ", "}"));
    }

    private static boolean logsIn(Function<CqlLogin, CqlSession> connect, CqlLogin login) {
        Optional<CqlSession> session = tryConnect(connect, login);
        session.ifPresent(CqlSession::close);
        return session.isPresent();
    }

    private static Optional<CqlSession> tryConnect(Function<CqlLogin, CqlSession> connect, CqlLogin login) {
        try {
            return Optional.of(connect.apply(login));
        } catch (AuthenticationException | AllNodesFailedException refused) {
            return Optional.empty();
        }
    }
}
