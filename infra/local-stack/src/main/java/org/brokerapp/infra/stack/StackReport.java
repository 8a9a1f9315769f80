package org.brokerapp.infra.stack;

import java.nio.file.Path;
import java.util.Optional;

import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.ServerProcess;
import org.brokerapp.infra.servers.CassandraNode;
import org.brokerapp.infra.servers.CqlRoles;
import org.brokerapp.infra.servers.ElasticsearchNode;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.servers.KafkaBroker;
import org.brokerapp.infra.servers.SearchLogins;

/** What runs where, as printed when the stack is ready. */
final class StackReport {

    private StackReport() {
    }

    static String describe(LocalStack stack) {
        StackLayout layout = stack.layout();
        StackSettings settings = layout.settings();
        Path cwd = Path.of("").toAbsolutePath();
        StringBuilder out = new StringBuilder();
        out.append(String.format("Local stack ready in %.1f s: %d regions, %d Cassandra nodes, %d Kafka brokers, %s, total RSS %s%n",
                stack.timeToReady().toMillis() / 1000.0, settings.regions().regions().size(), layout.cassandra().size(),
                layout.kafka().size(), stack.searchRunning() ? layout.elasticsearch().size() + " Elasticsearch nodes" : "no search (--no-search)",
                megabytes(stack.totalRssBytes())));
        out.append(String.format("Work directory: %s (instance %d)%n", settings.workDir(), settings.addresses().instance()));
        out.append(String.format("Servers: %s%n", stack.servers()));
        out.append(String.format("%-16s %-13s %-17s %-17s %-6s %-8s %-8s %s%n", "REGION/DC", "SERVER", "ADDRESS", "WAN FACE", "JMX", "PID", "RSS", "LOG"));
        for (CassandraNode node : layout.cassandra()) {
            Optional<ServerProcess> process = processNamed(stack, node.name());
            out.append(String.format("%-16s %-13s %-17s %-17s %-6d %-8s %-8s %s%n", node.region().datacenter(), "cassandra-" + node.node(),
                    node.address() + ":" + AddressPlan.CQL_PORT, node.wanAddress() + ":" + AddressPlan.STORAGE_PORT, node.jmxPort(),
                    process.map(p -> Long.toString(p.pid())).orElse("-"), process.map(StackReport::rss).orElse("-"), relative(cwd, node.systemLog())));
        }
        for (KafkaBroker broker : layout.kafka()) {
            Optional<ServerProcess> process = processNamed(stack, broker.name());
            out.append(String.format("%-16s %-13s %-17s %-17s %-6s %-8s %-8s %s%n", broker.region().name(), "kafka", broker.bootstrapServers(), "-", "-",
                    process.map(p -> Long.toString(p.pid())).orElse("-"), process.map(StackReport::rss).orElse("-"), relative(cwd, broker.serverLog())));
        }
        for (ElasticsearchNode node : layout.elasticsearch()) {
            Optional<ServerProcess> process = processNamed(stack, node.name());
            if (process.isPresent()) {
                out.append(String.format("%-16s %-13s %-17s %-17s %-6s %-8s %-8s %s%n", node.region().name(), "elasticsearch",
                        node.address() + ":" + AddressPlan.ELASTICSEARCH_HTTP_PORT, "-", "-", process.get().pid(), rss(process.get()),
                        relative(cwd, node.serverLog())));
            }
        }
        if (stack.wanEmulated()) {
            AddressPlan plan = settings.addresses();
            stack.processes().stream().filter(p -> p.name().startsWith("wan")).findFirst().ifPresent(p ->
                    out.append(String.format("%-16s %-13s %-17s %-17s %-6s %-8d %-8s %s%n", "-", "wan-emulator", plan.wanControlAddress() + ":" + plan.wanControlPort(),
                            "-", "-", p.pid(), rss(p), relative(cwd, p.console()))));
            for (String region : settings.regions().names()) {
                out.append(String.format("WAN: traffic into %s is delayed %d ms%n", region, layout.oneWayLatencyInto(region).toMillis()));
            }
            for (String region : settings.regions().names()) {
                out.append(String.format("Brokers: %s listens on %s, reached from other regions at %s%n", region, stack.brokerAddress(region),
                        stack.brokerUrlFromOtherRegions(region)));
            }
            out.append("Cut a region off: infra/bin/stack cut <region>; heal it: infra/bin/stack heal <region>\n");
        } else {
            out.append("WAN emulation is OFF: cross-region traffic runs at loopback speed and regions cannot be cut\n");
        }
        out.append(String.format("Kafka: clients log in with SCRAM-SHA-512 (" + (stack.tls().isPresent() ? "SASL_SSL" : "SASL_PLAINTEXT")
                + ") and may do only what KafkaAccess grants;"
                + " passwords in %s/<principal>.password (%s, %s, %s)%n", relative(cwd, stack.kafkaCredentialsDir()), KafkaAccess.ADMIN,
                KafkaAccess.FEED, String.join(", ", settings.regions().names().stream().map(KafkaAccess::broker).toList())));
        if (stack.searchRunning()) {
            out.append(String.format("Elasticsearch: every request logs in (HTTP Basic), as %s or %s; passwords in %s/<name>.password%n",
                    SearchLogins.ADMIN, SearchLogins.BROKER, relative(cwd, settings.workDir().resolve(SearchLogins.DIRECTORY))));
        }
        stack.tls().ifPresentOrElse(
                tls -> out.append(String.format("TLS: on for CQL (clients and internode, no plaintext), Kafka's clients and the brokers (HTTPS); trust the stack's CA %s "
                        + "(PKCS12 truststore %s, password in %s)%n", relative(cwd, tls.caCertificate()), relative(cwd, tls.truststore()),
                        relative(cwd, tls.dir().resolve("store-password")))),
                () -> out.append("TLS: off (stack up --tls switches it on)\n"));
        stack.cqlPasswordFile(CqlRoles.STACK).ifPresent(file -> out.append(String.format(
                "CQL: logins only; roles %s (superuser) and %s (CREATE ON ALL KEYSPACES), passwords in %s/<role>.password%n",
                CqlRoles.STACK, CqlRoles.BROKER, relative(cwd, file.getParent()))));
        if (stack.tls().isPresent()) {
            for (String region : settings.regions().names()) {
                out.append(String.format("TLS: a broker of %s started by hand adds --spring.config.import=file:%s%n", region, stack.brokerTlsFile(region)));
            }
        }
        out.append(String.format("Endpoints as terraform output -json (loadtest --target-terraform): %s%n",
                relative(cwd, settings.workDir().resolve(org.brokerapp.regions.DeploymentOutputs.LOCAL_STACK_FILE))));
        stack.prometheusUrl().ifPresentOrElse(
                url -> out.append("Metrics: Prometheus at ").append(url).append(" (rules and alerts: ").append(url).append("/alerts); each broker's live ops page at http://<broker>/ops\n"),
                () -> out.append("Metrics: off (--no-metrics, or prometheus not installed)\n"));
        out.append("Stop: Ctrl-C here, or infra/bin/stack down\n");
        return out.toString();
    }

    private static Optional<ServerProcess> processNamed(LocalStack stack, String name) {
        return stack.processes().stream().filter(p -> p.name().equals(name)).findFirst();
    }

    private static String rss(ServerProcess p) {
        return p.rssBytes().map(StackReport::megabytes).orElse("-");
    }

    static String megabytes(long bytes) {
        return (bytes / (1024 * 1024)) + " MB";
    }

    private static String relative(Path cwd, Path file) {
        return file.startsWith(cwd) ? cwd.relativize(file).toString() : file.toString();
    }
}
