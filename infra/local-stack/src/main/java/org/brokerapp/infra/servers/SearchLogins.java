package org.brokerapp.infra.servers;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * The logins of a stack's Elasticsearch nodes ({@link PasswordFiles} in {@code <work-dir>/search-credentials}):
 * {@value #BROKER} for the brokers, {@value #ADMIN} for the stack's own probes, tests and operators. A
 * node knows each by the SHA-256 of its password (the {@code login} module of {@code infra/servers/elasticsearch}),
 * never the password itself.
 */
public final class SearchLogins {

    public static final String DIRECTORY = "search-credentials";
    public static final String BROKER = "broker";
    public static final String ADMIN = "admin";
    private static final String WHAT = "Elasticsearch login";

    private final PasswordFiles files;

    private SearchLogins(PasswordFiles files) {
        this.files = files;
    }

    /** Reads the logins under {@code workDir}; generates them if any is missing. */
    public static SearchLogins loadOrCreate(Path workDir) {
        return new SearchLogins(PasswordFiles.loadOrCreate(workDir.resolve(DIRECTORY), List.of(BROKER, ADMIN), WHAT));
    }

    public String password(String name) {
        return files.of(name, WHAT);
    }

    /** The {@code Authorization} header value of {@code name}'s login: HTTP Basic. */
    public String authorization(String name) {
        return "Basic " + Base64.getEncoder().encodeToString((name + ":" + password(name)).getBytes(StandardCharsets.UTF_8));
    }

    /** The node's {@code brokerapp.login.users}: each name with the SHA-256 of its password. */
    List<String> nodeSetting() {
        return files.passwords().entrySet().stream().map(e -> e.getKey() + ":" + sha256Hex(e.getValue())).toList();
    }

    private static String sha256Hex(String password) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
