package org.brokerapp.infra.elasticsearch.login;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The names allowed in and the SHA-256 of each one's password. The passwords are long and random
 * (the local stack generates them), so an unsalted hash suffices: there is nothing to guess.
 */
final class Logins {

    private final Map<String, byte[]> sha256ByName;

    private Logins(Map<String, byte[]> sha256ByName) {
        this.sha256ByName = Map.copyOf(sha256ByName);
    }

    /** From {@code name:sha256hex} entries; refuses a node with none (it would let nobody in, silently). */
    static Logins parse(List<String> entries) {
        Map<String, byte[]> logins = new HashMap<>();
        for (String entry : entries) {
            int colon = entry.indexOf(':');
            if (colon < 1) {
                throw new IllegalArgumentException("brokerapp.login.users: an entry is not name:sha256-of-password");
            }
            logins.put(entry.substring(0, colon), HexFormat.of().parseHex(entry.substring(colon + 1)));
        }
        if (logins.isEmpty()) {
            throw new IllegalArgumentException("http.type " + LoginPlugin.TRANSPORT + " needs brokerapp.login.users");
        }
        return new Logins(logins);
    }

    /** Whether an {@code Authorization} header is a Basic login of a known name with its password. */
    boolean admit(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return false;
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
        int colon = decoded.indexOf(':');
        if (colon < 1) {
            return false;
        }
        byte[] expected = sha256ByName.get(decoded.substring(0, colon));
        return expected != null && MessageDigest.isEqual(expected, sha256(decoded.substring(colon + 1)));
    }

    static byte[] sha256(String password) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
