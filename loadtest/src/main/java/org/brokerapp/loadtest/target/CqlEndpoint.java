package org.brokerapp.loadtest.target;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;

/** Where the floor's bare writes go in one region: contact points of its DC, the DC's name, and over TLS what to trust. */
public record CqlEndpoint(List<InetSocketAddress> contactPoints, String localDatacenter, Optional<SSLContext> tls) {

    public CqlEndpoint(List<InetSocketAddress> contactPoints, String localDatacenter) {
        this(contactPoints, localDatacenter, Optional.empty());
    }

    public CqlEndpoint {
        contactPoints = List.copyOf(contactPoints);
        if (contactPoints.isEmpty() || localDatacenter == null || localDatacenter.isBlank()) {
            throw new IllegalArgumentException("a CQL endpoint needs a contact point and a local DC");
        }
    }

    /** A new driver session pinned to the DC; the caller closes it. */
    public CqlSession openSession() {
        CqlSessionBuilder builder = CqlSession.builder().addContactPoints(contactPoints).withLocalDatacenter(localDatacenter);
        tls.ifPresent(builder::withSslContext);
        return builder.build();
    }

    @Override
    public String toString() {
        return contactPoints.stream().map(a -> a.getHostString() + ":" + a.getPort()).toList() + " DC " + localDatacenter;
    }
}
