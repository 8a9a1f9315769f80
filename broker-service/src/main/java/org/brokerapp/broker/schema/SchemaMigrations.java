package org.brokerapp.broker.schema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * Applies the versioned CQL migrations ({@code db/cql/V<n>__<description>.cql}) at start-up,
 * in order, each once. Safe when several regions start at once: every statement is
 * {@code IF NOT EXISTS}, every table gets a fixed id derived from its name (two concurrent
 * creations agree instead of splitting the schema), and the driver waits for schema agreement
 * after each statement.
 */
public final class SchemaMigrations {

    private static final Logger log = LoggerFactory.getLogger(SchemaMigrations.class);
    private static final Pattern FILE = Pattern.compile("V(\\d+)__(.+)\\.cql");
    private static final Pattern TABLE_ID = Pattern.compile("\\$\\{id:([a-z_]+)}");
    private static final Duration DDL_TIMEOUT = Duration.ofSeconds(60);
    /** Logged once every migration is applied and agreed on. */
    public static final String IN_PLACE = "schema in place";

    private final CqlSession session;
    private final String keyspace;
    private final String replication;
    private final String appliedBy;

    public SchemaMigrations(CqlSession session, String keyspace, String replication, String appliedBy) {
        this.session = session;
        this.keyspace = keyspace;
        this.replication = replication;
        this.appliedBy = appliedBy;
    }

    /** Applies every migration not yet recorded; returns the versions applied now. */
    public List<Integer> migrate() {
        ddl("CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = " + replication);
        ddl("CREATE TABLE IF NOT EXISTS " + keyspace + ".schema_migrations (version int PRIMARY KEY, description text, "
                + "applied_at timestamp, applied_by text) WITH ID = " + tableId("schema_migrations"));
        Set<Integer> applied = appliedVersions();
        List<Integer> appliedNow = new ArrayList<>();
        for (Migration migration : migrations()) {
            if (applied.contains(migration.version())) {
                continue;
            }
            log.info("applying schema migration V{} ({})", migration.version(), migration.description());
            migration.statements().forEach(this::ddl);
            session.execute(SimpleStatement.newInstance("INSERT INTO " + keyspace + ".schema_migrations (version, description, applied_at, applied_by) "
                            + "VALUES (?, ?, ?, ?)", migration.version(), migration.description(), Instant.now(), appliedBy)
                    .setConsistencyLevel(ConsistencyLevel.LOCAL_QUORUM));
            appliedNow.add(migration.version());
        }
        // launchers start a region's other brokers on this line rather than on the first broker's readiness
        log.info("{}: keyspace {} at V{}", IN_PLACE, keyspace, migrations().get(migrations().size() - 1).version());
        return appliedNow;
    }

    /**
     * When another region created the table a moment ago, this region's coordinator may not know it
     * yet (a CREATE ... IF NOT EXISTS that found it changes nothing, so nothing waited for it): retry.
     */
    private Set<Integer> appliedVersions() {
        long deadline = System.nanoTime() + DDL_TIMEOUT.toNanos();
        while (true) {
            try {
                return session.execute(SimpleStatement.newInstance("SELECT version FROM " + keyspace + ".schema_migrations")
                                .setConsistencyLevel(ConsistencyLevel.LOCAL_QUORUM))
                        .all().stream().map(r -> r.getInt("version")).collect(Collectors.toSet());
            } catch (InvalidQueryException notYetKnownHere) {
                if (System.nanoTime() > deadline) {
                    throw notYetKnownHere;
                }
                log.info("schema_migrations not known to this coordinator yet: {}", notYetKnownHere.getMessage());
                awaitAgreement("schema_migrations");
            }
        }
    }

    private void ddl(String cql) {
        session.execute(SimpleStatement.newInstance(cql).setTimeout(DDL_TIMEOUT));
        awaitAgreement(cql.lines().findFirst().orElse(cql));
    }

    /** Schema agreement is a point-in-time check: ask until every node has the same version. */
    private void awaitAgreement(String after) {
        long deadline = System.nanoTime() + DDL_TIMEOUT.toNanos();
        while (!session.checkSchemaAgreement()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no schema agreement within " + DDL_TIMEOUT + " after: " + after);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for schema agreement", e);
            }
        }
    }

    List<Migration> migrations() {
        try {
            Resource[] files = new PathMatchingResourcePatternResolver(getClass().getClassLoader()).getResources("classpath*:db/cql/V*__*.cql");
            List<Migration> migrations = new ArrayList<>();
            for (Resource file : files) {
                Matcher name = FILE.matcher(file.getFilename());
                if (!name.matches()) {
                    throw new IllegalStateException("migration file not named V<n>__<description>.cql: " + file.getFilename());
                }
                String text = file.getContentAsString(StandardCharsets.UTF_8);
                migrations.add(new Migration(Integer.parseInt(name.group(1)), name.group(2).replace('_', ' '), statements(text)));
            }
            migrations.sort(Comparator.comparingInt(Migration::version));
            return migrations;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CQL migrations", e);
        }
    }

    List<String> statements(String text) {
        String withoutComments = text.lines().filter(l -> !l.strip().startsWith("--")).collect(Collectors.joining("\n"));
        String filled = withoutComments.replace("${keyspace}", keyspace);
        Matcher ids = TABLE_ID.matcher(filled);
        filled = ids.replaceAll(m -> tableId(m.group(1)).toString());
        return Arrays.stream(filled.split(";\\s*(\\n|$)")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /** The same table always gets the same id, in every region and on every start. */
    UUID tableId(String table) {
        return UUID.nameUUIDFromBytes((keyspace + "." + table).getBytes(StandardCharsets.UTF_8));
    }

    record Migration(int version, String description, List<String> statements) {
    }
}
