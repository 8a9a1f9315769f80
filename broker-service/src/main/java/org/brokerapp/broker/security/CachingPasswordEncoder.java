package org.brokerapp.broker.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Remembers the passwords it has verified, so that a client sending the same right password again
 * (Prometheus scraping as the operator every few seconds, a load test asking for tokens) costs one
 * SHA-256 instead of a BCrypt check (~65 ms of CPU here). Only successes are remembered, as a
 * digest of hash and password: a wrong password still costs the full check (and is rate limited),
 * so guessing gets no faster. Bounded: when full, it forgets everything and starts again.
 */
final class CachingPasswordEncoder implements PasswordEncoder {

    private static final int MAX_REMEMBERED = 1024;

    private final PasswordEncoder delegate;
    private final Map<String, Boolean> verified = new ConcurrentHashMap<>();
    private final Runnable checked;

    CachingPasswordEncoder(PasswordEncoder delegate) {
        this(delegate, () -> {
        });
    }

    /** {@code checked} runs before every check that costs the delegate's hash (a metric's count). */
    CachingPasswordEncoder(PasswordEncoder delegate, Runnable checked) {
        this.delegate = delegate;
        this.checked = checked;
    }

    @Override
    public String encode(CharSequence rawPassword) {
        return delegate.encode(rawPassword);
    }

    @Override
    public boolean matches(CharSequence rawPassword, String encodedPassword) {
        if (rawPassword == null || encodedPassword == null) {
            return delegate.matches(rawPassword, encodedPassword);
        }
        String key = digest(encodedPassword, rawPassword);
        if (verified.containsKey(key)) {
            return true;
        }
        checked.run();
        boolean matches = delegate.matches(rawPassword, encodedPassword);
        if (matches) {
            if (verified.size() >= MAX_REMEMBERED) {
                verified.clear();
            }
            verified.put(key, Boolean.TRUE);
        }
        return matches;
    }

    /** Whether this password was verified against this hash before: a check that costs no BCrypt. */
    boolean remembers(CharSequence rawPassword, String encodedPassword) {
        return rawPassword != null && encodedPassword != null && verified.containsKey(digest(encodedPassword, rawPassword));
    }

    @Override
    public boolean upgradeEncoding(String encodedPassword) {
        return delegate.upgradeEncoding(encodedPassword);
    }

    private static String digest(String encoded, CharSequence raw) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(encoded.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(raw.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
