package org.brokerapp.infra.stack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.servers.CassandraNode;
import org.brokerapp.infra.servers.ElasticsearchNode;
import org.brokerapp.infra.servers.KafkaBroker;

/** Checks, before anything starts, that every address and port the stack will bind is free. */
public final class Preflight {

    private Preflight() {
    }

    public static void requirePortsFree(StackLayout layout) {
        AddressPlan plan = layout.settings().addresses();
        List<InetSocketAddress> needed = new ArrayList<>();
        for (CassandraNode node : layout.cassandra()) {
            needed.add(new InetSocketAddress(node.address(), AddressPlan.CQL_PORT));
            needed.add(new InetSocketAddress(node.address(), AddressPlan.STORAGE_PORT));
            needed.add(new InetSocketAddress("127.0.0.1", node.jmxPort()));
            if (!node.wanAddress().equals(node.address())) {
                needed.add(new InetSocketAddress(node.wanAddress(), AddressPlan.STORAGE_PORT));
            }
        }
        for (KafkaBroker broker : layout.kafka()) {
            needed.add(new InetSocketAddress(broker.address(), AddressPlan.KAFKA_PORT));
            needed.add(new InetSocketAddress(broker.address(), AddressPlan.KAFKA_CONTROLLER_PORT));
        }
        if (layout.settings().search()) {
            needed.addAll(elasticsearchPorts(layout));
        }
        if (layout.settings().wanEmulation()) {
            needed.add(new InetSocketAddress(plan.wanControlAddress(), plan.wanControlPort()));
        }
        if (layout.settings().metrics()) {
            needed.add(new InetSocketAddress(plan.wanControlAddress(), plan.prometheusPort()));
            needed.add(new InetSocketAddress(plan.wanControlAddress(), plan.wanExporterPort()));
            layout.cassandra().forEach(n -> needed.add(new InetSocketAddress(n.address(), AddressPlan.JMX_EXPORTER_PORT)));
            layout.kafka().forEach(k -> needed.add(new InetSocketAddress(k.address(), AddressPlan.JMX_EXPORTER_PORT)));
        }
        for (InetSocketAddress address : needed) {
            requireFree(address, plan.instance());
        }
    }

    static List<InetSocketAddress> elasticsearchPorts(StackLayout layout) {
        List<InetSocketAddress> needed = new ArrayList<>();
        for (ElasticsearchNode node : layout.elasticsearch()) {
            needed.add(new InetSocketAddress(node.address(), AddressPlan.ELASTICSEARCH_HTTP_PORT));
            needed.add(new InetSocketAddress(node.address(), AddressPlan.ELASTICSEARCH_TRANSPORT_PORT));
        }
        return needed;
    }

    /** The stack in containers ({@code ContainerStack}) binds only the ports it publishes on this machine. */
    public static void requirePublishedPortsFree(StackLayout layout) {
        for (CassandraNode node : layout.cassandra()) {
            requireFree(new InetSocketAddress(node.address(), AddressPlan.CQL_PORT), layout.settings().instance());
            requireFree(new InetSocketAddress("127.0.0.1", node.jmxPort()), layout.settings().instance());
        }
        for (KafkaBroker broker : layout.kafka()) {
            requireFree(new InetSocketAddress(broker.address(), AddressPlan.KAFKA_PORT), layout.settings().instance());
        }
    }

    public static void requireFree(InetSocketAddress address, int instance) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(address);
        } catch (IOException e) {
            throw new StackException("port " + address.getHostString() + ":" + address.getPort() + " is taken (" + e.getMessage()
                    + "): is a stack of instance " + instance + " already up? Stop it with 'infra/bin/stack down' or pick another --instance");
        }
    }
}
