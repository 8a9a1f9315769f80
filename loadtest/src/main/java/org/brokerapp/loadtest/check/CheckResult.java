package org.brokerapp.loadtest.check;

import java.util.List;

/**
 * The correctness check after a run.
 *
 * @param passed              no problem found
 * @param customers           customers audited
 * @param accepted            orders the brokers accepted during the run
 * @param filled              FILLED orders of those customers (all their history)
 * @param expired             DAY and GTD orders of those customers their decider expired
 * @param marketableStillOpen marketable LIMIT/STOP orders of this run not filled by the end of the drain (a backlog, not an error)
 * @param problems            the first problems found, one line each
 * @param problemCount        all problems found
 */
public record CheckResult(boolean passed, int customers, long accepted, long filled, long open, long cancelled, long expired, long marketableStillOpen,
                          List<String> problems, int problemCount) {

    public static CheckResult skipped(String why) {
        return new CheckResult(false, 0, 0, 0, 0, 0, 0, 0, List.of("not run: " + why), 1);
    }
}
