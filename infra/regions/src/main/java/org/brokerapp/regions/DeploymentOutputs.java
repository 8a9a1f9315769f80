package org.brokerapp.regions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where a deployment's servers answer, per region, in the shape of {@code terraform output -json}
 * of {@code terraform/examples/multi-region} (output {@code regions}). Terraform writes it for AWS;
 * the local stack writes the same file ({@value #LOCAL_STACK_FILE} in its work directory) when it is
 * up; {@code loadtest --target-terraform FILE} reads either.
 *
 * <pre>{"regions": {"sensitive": false, "type": [...], "value": {"us-east-1": {"broker_url": "https://...",
 *   "kafka_bootstrap": "10.64.192.20:9092", "kafka_ca_cert_pem": "-----BEGIN CERTIFICATE-----...",
 *   "cql_contact_points": ["10.64.192.10:9042"], "cql_ca_cert_pem": "-----BEGIN CERTIFICATE-----...", "datacenter": "us-east-1"}}}}</pre>
 *
 * {@code "kafka_ca_cert_pem"}, when present, is the CA the region's Kafka certificate chains to: clients then log
 * in over TLS ({@code SASL_SSL}) trusting it (Terraform's Kafka always; the local stack's with {@code --tls}).
 * {@code "cql_ca_cert_pem"}, when present, is the CA its Cassandra nodes' certificates chain to: CQL is then TLS only.
 * The local stack adds {@code "kafka_credentials"}: the directory of its Kafka password files
 * ({@code <principal>.password}), as its Kafka takes only clients that log in.
 */
public record DeploymentOutputs(Map<String, RegionEndpoints> regions) {

    public static final String LOCAL_STACK_FILE = "terraform-outputs.json";
    static final String OUTPUT = "regions";

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /**
     * One region's endpoints: its broker's base URL, Kafka bootstrap, CQL contact points (host:port),
     * Cassandra DC, when its Kafka takes only clients that log in the directory of the password files, and
     * when its Kafka listens with TLS the CA to trust (PEM).
     */
    public record RegionEndpoints(String brokerUrl, String kafkaBootstrap, List<String> cqlContactPoints, String datacenter,
                                  Optional<String> kafkaCredentials, Optional<String> kafkaCaCertPem, Optional<String> cqlCaCertPem) {

        public RegionEndpoints {
            cqlContactPoints = List.copyOf(cqlContactPoints);
            kafkaCredentials = kafkaCredentials.filter(dir -> !dir.isBlank());
            kafkaCaCertPem = kafkaCaCertPem.filter(pem -> !pem.isBlank());
            cqlCaCertPem = cqlCaCertPem.filter(pem -> !pem.isBlank());
            if (brokerUrl == null || brokerUrl.isBlank() || kafkaBootstrap == null || kafkaBootstrap.isBlank()
                    || datacenter == null || datacenter.isBlank() || cqlContactPoints.isEmpty()) {
                throw new IllegalArgumentException("every region needs broker_url, kafka_bootstrap, cql_contact_points and datacenter");
            }
        }

        /** What a client of this region's Kafka trusts: its CA, when it listens with TLS. */
        public Optional<KafkaTrust> kafkaTrust() {
            return kafkaCaCertPem.map(KafkaTrust.PemCertificates::new);
        }

        /** What a CQL client of this region trusts: its nodes' CA, when they take CQL over TLS only. */
        public Optional<CaCertificates> cqlTrust() {
            return cqlCaCertPem.map(CaCertificates::new);
        }
    }

    public DeploymentOutputs {
        regions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(regions));
        if (regions.isEmpty()) {
            throw new IllegalArgumentException("no regions");
        }
    }

    /**
     * Reads a {@code terraform output -json} file (or the local stack's), taking output
     * {@code regions}; every mistake is an {@link IllegalArgumentException} with a one-line message.
     */
    public static DeploymentOutputs read(Path file) {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException(file + " does not exist or is not readable");
        }
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (JacksonException e) {
            throw new IllegalArgumentException(file + " is not JSON: " + e.getOriginalMessage());
        }
        JsonNode value = root.path(OUTPUT).path("value");
        if (!value.isObject()) {
            throw new IllegalArgumentException(file + " has no output '" + OUTPUT + "' (write it with terraform -chdir=terraform/examples/multi-region output -json)");
        }
        Map<String, RegionEndpoints> regions = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> region : value.properties()) {
            JsonNode r = region.getValue();
            List<String> cql = new ArrayList<>();
            r.path("cql_contact_points").forEach(point -> cql.add(point.asString()));
            try {
                regions.put(region.getKey(), new RegionEndpoints(text(r, "broker_url"), text(r, "kafka_bootstrap"), cql, text(r, "datacenter"),
                        Optional.ofNullable(text(r, "kafka_credentials")), Optional.ofNullable(text(r, "kafka_ca_cert_pem")),
                        Optional.ofNullable(text(r, "cql_ca_cert_pem"))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": region " + region.getKey() + ": " + e.getMessage());
            }
        }
        try {
            return new DeploymentOutputs(regions);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage());
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isString() ? value.asString() : null;
    }

    /** Writes the file as {@code terraform output -json} would: sensitive flag, type and value. */
    public void write(Path file) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode output = root.putObject(OUTPUT);
        output.put("sensitive", false);
        ArrayNode type = output.putArray("type");
        type.add("map");
        ArrayNode object = type.addArray();
        object.add("object");
        ObjectNode fields = object.addObject();
        fields.put("broker_url", "string");
        fields.putArray("cql_contact_points").add("list").add("string");
        fields.put("datacenter", "string");
        fields.put("kafka_bootstrap", "string");
        if (regions.values().stream().anyMatch(r -> r.kafkaCredentials().isPresent())) {
            fields.put("kafka_credentials", "string");
        }
        if (regions.values().stream().anyMatch(r -> r.kafkaCaCertPem().isPresent())) {
            fields.put("kafka_ca_cert_pem", "string");
        }
        if (regions.values().stream().anyMatch(r -> r.cqlCaCertPem().isPresent())) {
            fields.put("cql_ca_cert_pem", "string");
        }
        ObjectNode value = output.putObject("value");
        regions.forEach((name, r) -> {
            ObjectNode region = value.putObject(name);
            region.put("broker_url", r.brokerUrl());
            ArrayNode cql = region.putArray("cql_contact_points");
            r.cqlContactPoints().forEach(cql::add);
            region.put("datacenter", r.datacenter());
            region.put("kafka_bootstrap", r.kafkaBootstrap());
            r.kafkaCredentials().ifPresent(dir -> region.put("kafka_credentials", dir));
            r.kafkaCaCertPem().ifPresent(pem -> region.put("kafka_ca_cert_pem", pem));
            r.cqlCaCertPem().ifPresent(pem -> region.put("cql_ca_cert_pem", pem));
        });
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
