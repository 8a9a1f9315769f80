package org.brokerapp.loadtest.deployment;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import org.brokerapp.regions.CqlLogin;

/**
 * Where the floor's bare writes go in one region: contact points of its DC, the DC's name, over TLS
 * what to trust, and the login where the nodes take only authenticated clients (Terraform's, the
 * local stack's with TLS on).
 */
public record CqlEndpoint(List<InetSocketAddress> contactPoints, String localDatacenter, Optional<SSLContext> tls, Optional<CqlLogin> login) {

    public CqlEndpoint(List<InetSocketAddress> contactPoints, String localDatacenter) {
        this(contactPoints, localDatacenter, Optional.empty(), Optional.empty());
    }

    public CqlEndpoint(List<InetSocketAddress> contactPoints, String localDatacenter, Optional<SSLContext> tls) {
        this(contactPoints, localDatacenter, tls, Optional.empty());
    }

    public CqlEndpoint {
        contactPoints = List.copyOf(contactPoints);
        if (contactPoints.isEmpty() || localDatacenter == null || localDatacenter.isBlank()) {
            throw new IllegalArgumentException("a CQL endpoint needs a contact point and a local DC");
        }
    }

    public CqlEndpoint withTls(SSLContext context) {
        return new CqlEndpoint(contactPoints, localDatacenter, Optional.of(context), login);
    }

    public CqlEndpoint withLogin(CqlLogin credentials) {
        return new CqlEndpoint(contactPoints, localDatacenter, tls, Optional.of(credentials));
    }

    /** A new driver session pinned to the DC; the caller closes it. */
    public CqlSession openSession() {
        CqlSessionBuilder builder = CqlSession.builder().addContactPoints(contactPoints).withLocalDatacenter(localDatacenter);
        tls.ifPresent(builder::withSslContext);
        login.ifPresent(l -> builder.withAuthCredentials(l.role(), l.password()));
        return builder.build();
    }

    @Override
    public String toString() {
        return contactPoints.stream().map(a -> a.getHostString() + ":" + a.getPort()).toList() + " DC " + localDatacenter
                + (tls.isPresent() ? " over TLS" : "") + login.map(l -> " as " + l.role()).orElse("");
    }
}
