package org.brokerapp.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.wan.NoWanEmulation;
import org.brokerapp.infra.wan.WanEmulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The WAN state Prometheus scrapes from the stack launcher (with a real WAN it is checked by OpsLiveIT' cut). */
class WanStateExporterTests {

    @Test
    void withoutEmulationEveryRegionIsConnectedAtZeroLatency(@TempDir Path dir) throws Exception {
        StackLayout layout = StackLayout.of(StackSettings.defaults(dir, 9).withWanEmulation(false));
        WanEmulator wan = new NoWanEmulation("test");

        try (WanStateExporter exporter = WanStateExporter.start(layout, wan)) {
            AddressPlan plan = layout.settings().addresses();
            HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://" + plan.wanControlAddress() + ":" + plan.wanExporterPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/plain; version=0.0.4"));
            assertThat(scrape.body()).contains("wan_emulated 0", "wan_region_connected{region=\"us-east-1\"} 1",
                    "wan_region_connected{region=\"ap-southeast-2\"} 1", "wan_one_way_latency_seconds{region=\"ap-southeast-2\"} 0.0",
                    "# TYPE wan_region_connected gauge");
        }
    }
}
