package org.brokerapp.broker.ops;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.swagger.v3.oas.annotations.Hidden;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.regions.RegionsModel;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.view.RedirectView;

/**
 * The live ops page for people without Grafana: a static page ({@code static/ops/}) that charts
 * every region from Prometheus with uPlot, and this controller, which tells the page what it
 * cannot learn from Prometheus: where Prometheus is, the regions, their configured round trips and
 * the targets to draw. It also publishes the configured round trips as
 * {@code broker_wan_rtt_seconds{region, peer}}, so alert rules compare routed latency to them.
 * Not part of the REST API, so not in its OpenAPI description.
 */
@Hidden
@RestController
class OpsController {

    private final OpsProperties ops;
    private final BrokerProperties broker;
    private final RegionsModel regions;

    OpsController(OpsProperties ops, BrokerProperties broker, RegionsModel regions, MeterRegistry registry) {
        this.ops = ops;
        this.broker = broker;
        this.regions = regions;
        for (String peer : regions.names()) {
            if (!peer.equals(broker.region())) {
                Gauge.builder("broker.wan.rtt", () -> regions.roundTrip(broker.region(), peer).toNanos() / 1e9)
                        .description("configured round trip to a peer region (regions model)").baseUnit("seconds")
                        .tag("region", broker.region()).tag("peer", peer).register(registry);
            }
        }
    }

    @GetMapping({"/ops", "/ops/"})
    RedirectView page() {
        return new RedirectView("/ops/index.html", true);
    }

    /** What the page needs besides Prometheus. */
    @GetMapping("/ops/config")
    Map<String, Object> config() {
        Map<String, Object> rtt = new LinkedHashMap<>();
        for (String a : regions.names()) {
            for (String b : regions.names()) {
                if (!a.equals(b)) {
                    rtt.put(a + ">" + b, regions.roundTrip(a, b).toMillis() / 1000.0);
                }
            }
        }
        List<Map<String, Object>> regionList = regions.regions().stream()
                .<Map<String, Object>>map(r -> Map.of("name", r.name(), "datacenter", r.datacenter(), "exchanges", r.exchanges()))
                .toList();
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("servedBy", broker.region());
        config.put("prometheusUrl", ops.prometheusUrl());
        config.put("regions", regionList);
        config.put("rttSeconds", rtt);
        config.put("tickToFillSlaSeconds", ops.tickToFillSla().toNanos() / 1e9);
        config.put("crossRegionBudget", ops.crossRegionBudget());
        return config;
    }
}
