package org.brokerapp.loadtest.probe;

import java.util.List;

/**
 * A free-form table of the results, rendered as is by every report: e.g. the per-DC write
 * amplification table (one row per DC, label -> values under {@code columns}).
 *
 * @param columns the value columns' headings (the label column is headed by {@code labelHeading})
 */
public record ResultTable(String title, String labelHeading, List<String> columns, List<Row> rows, String note) {

    public record Row(String label, List<String> values) {
        public Row {
            values = List.copyOf(values);
        }
    }

    public ResultTable {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
        for (Row row : rows) {
            if (row.values().size() != columns.size()) {
                throw new IllegalArgumentException("row '" + row.label() + "' has " + row.values().size() + " values for "
                        + columns.size() + " columns");
            }
        }
    }
}
