package org.brokerapp.loadtest.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.brokerapp.loadtest.check.CheckResult;
import org.brokerapp.loadtest.probe.ResultTable;

/**
 * Everything a run produced, rendered by {@link MarkdownReport}, {@link JsonReport} and {@link HtmlReport}.
 *
 * @param load               the load as configured, name -> value, for people
 * @param window             the measured window (for an SLA search: the highest passing step's, else the first step's)
 * @param sla                the SLA search, or null for a single run
 * @param writeAmplification per-DC write amplification (rows DC -> values), or null until something measures it:
 *                           fill it with {@link #withWriteAmplification}
 * @param tables             any further tables to report
 */
public record RunResult(String title, String preset, String startedAt, String command, String target, String machine,
                        Map<String, String> load, WindowResult window, CheckResult check, SlaResult sla,
                        ResultTable writeAmplification, List<ResultTable> tables, List<String> notes) {

    public RunResult {
        tables = List.copyOf(tables);
        notes = List.copyOf(notes);
    }

    /** The same result with the per-DC write amplification table set. */
    public RunResult withWriteAmplification(ResultTable table) {
        return new RunResult(title, preset, startedAt, command, target, machine, load, window, check, sla, table, tables, notes);
    }

    public RunResult withTable(ResultTable table) {
        List<ResultTable> more = new ArrayList<>(tables);
        more.add(table);
        return new RunResult(title, preset, startedAt, command, target, machine, load, window, check, sla, writeAmplification, more, notes);
    }

    public RunResult withCheck(CheckResult result) {
        return new RunResult(title, preset, startedAt, command, target, machine, load, window, result, sla, writeAmplification, tables, notes);
    }
}
