package org.brokerapp.loadtest.check;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.IntFunction;

import org.brokerapp.client.BrokerClient;
import org.brokerapp.loadtest.workload.PlannedOrder;
import tools.jackson.databind.JsonNode;

/**
 * The seam audit: every customer's account as their owner holds it in memory against what the
 * ledger folds to ({@code GET /admin/accounts/{id}} on the customer's home region, as the operator).
 * The correctness check reads the ledger only; a fill or cancel booked by one side and not the
 * other (a forged event, a lost report) shows here. A difference is read again after the correctness
 * check's growing pauses ({@link CorrectnessCheck#PAUSES}, 43 s in all): the owner may be ahead of its
 * own DC's replicas, having heard of a fill decided in another region before Cassandra replicated its
 * row (after a region's cut heals, the hints take tens of seconds; a region-cut drill found an owner
 * that had booked a SELL fill its DC's ledger showed only later). Only what still differs counts.
 */
public final class SeamAudit {

    private final BrokerClient client;
    private final IntFunction<String> homeOf;

    /** {@code homeOf}: the home region of customer {@code load-n}. */
    public SeamAudit(BrokerClient client, IntFunction<String> homeOf) {
        this.client = client;
        this.homeOf = homeOf;
    }

    /** One line per customer whose owner and ledger still differ (or could not be compared). */
    public List<String> run(Collection<Integer> customers) throws InterruptedException {
        List<String> problems = new ArrayList<>();
        for (int customer : customers) {
            String problem = null;
            for (int attempt = 0; attempt <= CorrectnessCheck.PAUSES.size(); attempt++) {
                // after the first, each attempt on a new connection: with several instances behind a region's front, the owner answers
                problem = auditOnce(customer, attempt > 0);
                if (problem == null || attempt == CorrectnessCheck.PAUSES.size()) {
                    break;
                }
                Thread.sleep(CorrectnessCheck.PAUSES.get(attempt).toMillis());
            }
            if (problem != null) {
                problems.add(problem);
            }
        }
        return problems;
    }

    private String auditOnce(int customer, boolean newConnection) throws InterruptedException {
        String id = PlannedOrder.customerId(customer);
        String region = homeOf.apply(customer);
        try {
            BrokerClient.Answer answer = client.getAsOperator(region, "/admin/accounts/" + id, newConnection);
            if (answer.status() != 200) {
                return id + ": seam audit in " + region + " answered HTTP " + answer.status() + " " + BrokerClient.problemTitle(answer.body());
            }
            JsonNode audit = BrokerClient.parse(answer.body());
            return audit.path("agrees").asBoolean(false) ? null
                    : id + ": its owner holds " + audit.path("owner") + ", the ledger folds to " + audit.path("ledger");
        } catch (IOException | RuntimeException e) {
            return id + ": seam audit in " + region + " failed: " + e.getMessage();
        }
    }
}
