package org.brokerapp.loadtest.target;

import java.net.InetSocketAddress;
import java.util.List;

import com.datastax.oss.driver.api.core.CqlSession;

/** Where the floor's bare writes go in one region: contact points of its DC and the DC's name. */
public record CqlEndpoint(List<InetSocketAddress> contactPoints, String localDatacenter) {

    public CqlEndpoint {
        contactPoints = List.copyOf(contactPoints);
        if (contactPoints.isEmpty() || localDatacenter == null || localDatacenter.isBlank()) {
            throw new IllegalArgumentException("a CQL endpoint needs a contact point and a local DC");
        }
    }

    /** A new driver session pinned to the DC; the caller closes it. */
    public CqlSession openSession() {
        return CqlSession.builder().addContactPoints(contactPoints).withLocalDatacenter(localDatacenter).build();
    }

    @Override
    public String toString() {
        return contactPoints.stream().map(a -> a.getHostString() + ":" + a.getPort()).toList() + " DC " + localDatacenter;
    }
}
