package org.brokerapp.infra.servers;

/**
 * Which of a Cassandra node's directories a disk drill puts on a small filesystem of its own ({@link FillableDisk}).
 * They fail differently: a full data disk stops flushes and compactions ({@code disk_failure_policy}), a full commit
 * log disk stops the writes themselves ({@code commit_failure_policy}).
 */
public enum CassandraDisk {
    /** sstables: a memtable flush meets the full disk. */
    DATA("data", "data disk"),
    /** commit log segments: the next write the node takes meets the full disk. */
    COMMIT_LOG("commitlog", "commit log disk");

    private final String directory;
    private final String description;

    CassandraDisk(String directory, String description) {
        this.directory = directory;
        this.description = description;
    }

    /** The directory under the node's home ({@link CassandraNode#dir}). */
    public String directory() {
        return directory;
    }

    /** As a drill names it, e.g. "commit log disk". */
    public String description() {
        return description;
    }
}
