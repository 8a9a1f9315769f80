package org.brokerapp.loadtest.cli;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.brokerapp.loadtest.deployment.CqlEndpoint;
import org.brokerapp.regions.CaCertificates;
import org.brokerapp.regions.CqlLogin;
import org.brokerapp.regions.DeploymentOutputs;
import org.brokerapp.regions.KafkaTrust;
import org.brokerapp.regions.RegionsModel;

/** Where an existing deployment answers, as the command line names it: {@code --target-terraform FILE}, {@code --cql}. */
final class DeploymentEndpoints {

    private DeploymentEndpoints() {
    }

    /** The endpoints of every region of the model, from a terraform output file; the file and the model must name the same regions. */
    static TargetPlan.Endpoints fromTerraform(Path file, RegionsModel regions, Optional<CqlLogin> login) {
        DeploymentOutputs outputs;
        try {
            outputs = DeploymentOutputs.read(file);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--target-terraform: " + e.getMessage());
        }
        if (!Set.copyOf(regions.names()).equals(outputs.regions().keySet())) {
            throw new UsageException("--target-terraform: " + file + " names regions " + outputs.regions().keySet() + " but the regions model has "
                    + regions.names() + " (use --regions with the file Terraform applied)");
        }
        Map<String, String> brokers = new LinkedHashMap<>();
        Map<String, String> kafka = new LinkedHashMap<>();
        Map<String, CqlEndpoint> cql = new LinkedHashMap<>();
        Map<String, KafkaTrust> kafkaTrust = new LinkedHashMap<>();
        for (String region : regions.names()) {
            DeploymentOutputs.RegionEndpoints r = outputs.regions().get(region);
            if (!r.datacenter().equals(regions.region(region).datacenter())) {
                throw new UsageException("--target-terraform: region " + region + " has DC " + r.datacenter() + " in " + file
                        + " but " + regions.region(region).datacenter() + " in the regions model");
            }
            brokers.put(region, r.brokerUrl());
            kafka.put(region, r.kafkaBootstrap());
            r.kafkaTrust().ifPresent(trust -> kafkaTrust.put(region, trust));
            CqlEndpoint endpoint = cqlEndpoint(String.join("+", r.cqlContactPoints()) + "/" + r.datacenter());
            try {
                endpoint = r.cqlTrust().map(CaCertificates::sslContext).map(endpoint::withTls).orElse(endpoint);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--target-terraform: region " + region + "'s cql_ca_cert_pem: " + e.getMessage());
            }
            cql.put(region, login.map(endpoint::withLogin).orElse(endpoint));
        }
        return new TargetPlan.Endpoints(brokers, kafka, cql,
                outputs.regions().values().stream().flatMap(r -> r.kafkaCredentials().stream()).findFirst().map(Path::of), kafkaTrust);
    }

    static CqlEndpoint cqlEndpoint(String value) {
        int slash = value.lastIndexOf('/');
        if (slash <= 0 || slash == value.length() - 1) {
            throw new UsageException("--cql wants REGION=HOST:PORT[+HOST:PORT]/DC, got '" + value + "'");
        }
        List<InetSocketAddress> points = new ArrayList<>();
        for (String hostPort : value.substring(0, slash).split("\\+")) {
            int colon = hostPort.lastIndexOf(':');
            String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
            int port = colon < 0 ? 9042 : CliOptions.parseInt("cql", hostPort.substring(colon + 1), 1, 65535);
            points.add(new InetSocketAddress(host, port));
        }
        return new CqlEndpoint(points, value.substring(slash + 1));
    }
}
