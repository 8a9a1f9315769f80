package org.brokerapp.broker.security;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * No built-in secret outside the {@code local} profile. The demo keys, passwords and accounts live in
 * {@code application-local.yaml} (the local stack's region profiles include it); started without
 * {@code local}, the broker refuses to start, with one line saying which setting is missing or is a
 * local one, unless every secret is given (environment, or a config file of the deployment):
 * {@code broker.security.token-key}, {@code broker.peers.private-key} (this region's signing key),
 * {@code broker.failover.operator-password};
 * seed accounts then need BCrypt hashes ({@code {bcrypt}...}), and generated load customers are refused.
 */
public class SecretsCheck implements EnvironmentPostProcessor {

    /** The values application-local.yaml gives: refused outside the local profile even when set explicitly. */
    static final Map<String, String> LOCAL_VALUES = Map.of(
            "broker.peers.private-key", "",
            "broker.failover.operator-password", "operator-pw",
            "broker.security.token-key", "bG9jYWwtb25seS10b2tlbi1rZXktbm90LWEtc2VjcmV0LTAxMjM0NTY3ODk=");

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (Arrays.asList(environment.getActiveProfiles()).contains("local")) {
            return;
        }
        List<String> problems = new ArrayList<>();
        LOCAL_VALUES.forEach((key, local) -> {
            String value = environment.getProperty(key);
            if (value == null || value.isBlank()) {
                problems.add(key + " is not set");
            } else if (value.equals(local) || isLocalKey(environment, key, value)) {
                problems.add(key + " is the local profile's built-in value");
            }
        });
        if (environment.getProperty("broker.load-customers", Integer.class, 0) > 0) {
            problems.add("broker.load-customers (password load-N-pw) is for the local profile only");
        }
        for (int i = 0; environment.containsProperty("broker.seed-accounts[" + i + "].customer-id"); i++) {
            String password = environment.getProperty("broker.seed-accounts[" + i + "].password", "");
            if (!password.startsWith("{bcrypt}")) {
                problems.add("broker.seed-accounts[" + i + "].password is not a {bcrypt} hash");
            }
        }
        if (!problems.isEmpty()) {
            throw new MissingSecrets("refusing to start without the local profile: " + String.join("; ", problems)
                    + " (secrets are not built in outside --spring.profiles.active=local)");
        }
    }

    private static boolean isLocalKey(ConfigurableEnvironment environment, String key, String value) {
        return key.equals("broker.peers.private-key") && LOCAL_PRIVATE_KEYS.contains(value);
    }

    /** The local profile's region keys (application-local.yaml): refused as a real region's key. */
    static final java.util.Set<String> LOCAL_PRIVATE_KEYS = java.util.Set.of(
            "MC4CAQAwBQYDK2VwBCIEIGeXCW1PXeO8Wm1PXny1X7SWfQDR4U+kG5MaS/a133nB",
            "MC4CAQAwBQYDK2VwBCIEICktj06Bl1H8HY6xw1Sr3d5xao/og4qntkUL29PPoPUO");

    /** The one-line reason, shown by {@link MissingSecretsAnalyzer}. */
    static final class MissingSecrets extends IllegalStateException {
        MissingSecrets(String reason) {
            super(reason);
        }
    }
}
