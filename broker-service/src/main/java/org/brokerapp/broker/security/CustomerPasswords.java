package org.brokerapp.broker.security;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.brokerapp.broker.system.BrokerProperties;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Component;

/**
 * The customers' passwords, only ever held hashed (BCrypt). A configured password is either a hash
 * ({@code {bcrypt}$2a$...}) or, in the {@code local} profile only ({@link SecretsCheck}), a demo
 * password in plain text that is hashed the first time it is needed and the plain text dropped.
 * Customer ids are not secrets here (they name accounts in every event and log): an unknown one is
 * refused without spending a hash on it.
 */
@Component
class CustomerPasswords {

    private final Map<String, String> configured;
    private final Map<String, String> hashes = new ConcurrentHashMap<>();

    @org.springframework.beans.factory.annotation.Autowired
    CustomerPasswords(BrokerProperties properties) {
        this(properties.allAccounts().stream()
                .collect(Collectors.toMap(BrokerProperties.SeedAccount::customerId, BrokerProperties.SeedAccount::password, (a, b) -> b)));
    }

    /** Passwords by customer id, each plain or {@code {bcrypt}...}. */
    CustomerPasswords(Map<String, String> passwords) {
        this.configured = new ConcurrentHashMap<>(passwords);
    }

    /** The customer's password hash; empty for a customer this broker does not know (refused without a hash). */
    Optional<String> hashOf(String customerId, PasswordEncoder encoder) {
        return Optional.ofNullable(hashes.computeIfAbsent(customerId, hashOf(encoder)));
    }

    boolean matches(String customerId, String password, PasswordEncoder encoder) {
        return hashOf(customerId, encoder).map(hash -> encoder.matches(password, hash)).orElse(false);
    }

    private Function<String, String> hashOf(PasswordEncoder encoder) {
        return id -> {
            String given = configured.remove(id);
            if (given == null) {
                return null;
            }
            return given.startsWith("{bcrypt}") ? given : encoder.encode(given);
        };
    }
}
