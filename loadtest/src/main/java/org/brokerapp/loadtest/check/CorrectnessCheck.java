package org.brokerapp.loadtest.check;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.brokerapp.client.BrokerClient;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.loadtest.workload.AcceptedOrder;
import org.brokerapp.loadtest.workload.AcceptedOrders;
import org.brokerapp.loadtest.workload.PlannedOrder;

/**
 * Runs {@link LedgerAudit} for every customer who placed an accepted order, reading orders,
 * transactions and holdings through one region's broker, then the {@link SeamAudit} of the same
 * customers (each owner's accounts in memory against the ledger). A customer whose audit fails is read
 * again after growing pauses ({@link #PAUSES}): a replica in that DC may be behind a write made in
 * another region, by a moment, or, after a region's cut heals, by the hints Cassandra replays once
 * gossip sees the region again (tens of seconds; a region-cut drill whose heal ended its window
 * found two Sydney orders missing in Virginia 24-30 s after the heal). Only what still fails counts.
 */
public final class CorrectnessCheck {

    static final int MAX_PROBLEMS_KEPT = 25;
    /** The pauses before each new read of a customer whose audit failed: 43 s in all, beyond a heal's hint replay. */
    static final List<Duration> PAUSES = List.of(Duration.ofSeconds(3), Duration.ofSeconds(10), Duration.ofSeconds(30));

    private final BrokerClient client;
    private final String readRegion;
    private final BigDecimal openingCash;
    private final Progress progress;

    private final SeamAudit seams;

    public CorrectnessCheck(BrokerClient client, String readRegion, BigDecimal openingCash, SeamAudit seams, Progress progress) {
        this.client = client;
        this.readRegion = readRegion;
        this.openingCash = openingCash;
        this.seams = seams;
        this.progress = progress;
    }

    public CheckResult run(AcceptedOrders accepted) throws InterruptedException {
        Map<Integer, List<AcceptedOrder>> byCustomer = accepted.byCustomer();
        progress.step("correctness check: " + accepted.size() + " accepted orders of " + byCustomer.size() + " customers, read in " + readRegion);
        List<String> problems = new ArrayList<>();
        int problemCount = 0;
        long filled = 0;
        long open = 0;
        long cancelled = 0;
        long expired = 0;
        long stillOpen = 0;
        for (Map.Entry<Integer, List<AcceptedOrder>> customer : byCustomer.entrySet()) {
            LedgerAudit.Findings findings = null;
            for (int attempt = 0; attempt <= PAUSES.size(); attempt++) {
                findings = auditOnce(customer.getKey(), customer.getValue());
                if (findings.problems().isEmpty() || attempt == PAUSES.size()) {
                    break;
                }
                Thread.sleep(PAUSES.get(attempt).toMillis());
            }
            filled += findings.filled();
            open += findings.open();
            cancelled += findings.cancelled();
            expired += findings.expired();
            stillOpen += findings.marketableStillOpen();
            problemCount += findings.problems().size();
            findings.problems().stream().limit(Math.max(0, MAX_PROBLEMS_KEPT - problems.size())).forEach(problems::add);
        }
        progress.step("seam audit: each owner's accounts against the ledger, " + byCustomer.size() + " customers");
        List<String> seamProblems = seams.run(byCustomer.keySet());
        problemCount += seamProblems.size();
        seamProblems.stream().limit(Math.max(0, MAX_PROBLEMS_KEPT - problems.size())).forEach(problems::add);
        return new CheckResult(problemCount == 0, byCustomer.size(), accepted.size(), filled, open, cancelled, expired, stillOpen, problems, problemCount);
    }

    private LedgerAudit.Findings auditOnce(int customer, List<AcceptedOrder> accepted) throws InterruptedException {
        String id = PlannedOrder.customerId(customer);
        String password = PlannedOrder.password(customer);
        try {
            List<ApiOrder> orders = ApiOrder.listOf(client.getAll(readRegion, id, password, "/api/orders?size=500"));
            List<ApiOrder> transactions = ApiOrder.listOf(client.getAll(readRegion, id, password, "/api/transactions?size=500"));
            ApiHoldings holdings = ApiHoldings.of(client.get(readRegion, id, password, "/api/holdings"));
            return LedgerAudit.audit(id, accepted, orders, transactions, holdings, openingCash);
        } catch (IOException | RuntimeException e) {
            return new LedgerAudit.Findings(List.of(id + ": could not read the ledger: " + e.getMessage()), accepted.size(), 0, 0, 0, 0, 0);
        }
    }
}
