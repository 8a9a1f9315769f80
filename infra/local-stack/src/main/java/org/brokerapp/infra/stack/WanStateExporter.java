package org.brokerapp.infra.stack;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.wan.WanEmulator;

/**
 * The WAN emulator's state in Prometheus's text format, for Prometheus to scrape: whether the WAN
 * is emulated, which regions are cut off ({@code infra/bin/stack cut}) and the latency into each.
 * Toxiproxy's own metrics count bytes only, not whether a proxy is enabled, so the stack serves
 * this itself; it lives in the launcher's JVM (a {@code --detach}ed stack has none).
 */
final class WanStateExporter implements AutoCloseable {

    private final HttpServer server;

    private WanStateExporter(HttpServer server) {
        this.server = server;
    }

    static WanStateExporter start(StackLayout layout, WanEmulator wan) {
        AddressPlan plan = layout.settings().addresses();
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(plan.wanControlAddress(), plan.wanExporterPort()), 0);
            server.setExecutor(Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "wan-state-exporter");
                t.setDaemon(true);
                return t;
            }));
            server.createContext("/metrics", exchange -> {
                try (exchange) {
                    String body;
                    try {
                        body = render(layout, wan);
                    } catch (RuntimeException e) {
                        // the emulator does not answer: no sample rather than a wrong one (Prometheus marks the scrape failed)
                        exchange.sendResponseHeaders(503, -1);
                        return;
                    }
                    answer(exchange, body);
                }
            });
            server.start();
            return new WanStateExporter(server);
        } catch (IOException e) {
            throw new StackException("cannot serve the WAN state on " + plan.wanControlAddress() + ":" + plan.wanExporterPort() + ": " + e.getMessage(), e);
        }
    }

    static String render(StackLayout layout, WanEmulator wan) {
        List<String> regions = layout.settings().regions().names();
        Set<String> cut = wan.emulating() ? wan.cutRegions() : Set.of();
        StringBuilder out = new StringBuilder();
        out.append("# HELP wan_emulated Whether the local stack emulates the WAN between regions.\n# TYPE wan_emulated gauge\n");
        out.append("wan_emulated ").append(wan.emulating() ? 1 : 0).append('\n');
        out.append("# HELP wan_region_connected 1 while the region reaches the other regions, 0 while it is cut off.\n# TYPE wan_region_connected gauge\n");
        for (String region : regions) {
            out.append("wan_region_connected{region=\"").append(region).append("\"} ").append(cut.contains(region) ? 0 : 1).append('\n');
        }
        out.append("# HELP wan_one_way_latency_seconds Emulated latency of traffic into the region from the others.\n# TYPE wan_one_way_latency_seconds gauge\n");
        for (String region : regions) {
            double seconds = wan.emulating() ? layout.oneWayLatencyInto(region).toMillis() / 1000.0 : 0;
            out.append("wan_one_way_latency_seconds{region=\"").append(region).append("\"} ").append(seconds).append('\n');
        }
        return out.toString();
    }

    private static void answer(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
