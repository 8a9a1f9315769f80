package org.brokerapp.regions;

/**
 * A Cassandra role and its password, for nodes that take only logins ({@code PasswordAuthenticator}:
 * Terraform's, and the local stack's with TLS on). The password is never printed.
 */
public record CqlLogin(String role, String password) {

    public CqlLogin {
        if (role == null || role.isBlank() || password == null || password.isEmpty()) {
            throw new IllegalArgumentException("a CQL login needs a role and a password");
        }
    }

    @Override
    public String toString() {
        return "CqlLogin[" + role + "]";
    }
}
