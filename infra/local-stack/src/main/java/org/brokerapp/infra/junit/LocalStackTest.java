package org.brokerapp.infra.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against the real local stack. The stack starts once per test JVM, is shared
 * by every class so annotated, and stops when the test run ends; a {@code LocalStack} parameter
 * of a constructor, test or lifecycle method receives it.
 *
 * <p>System properties: {@code stack.instance} (default 1, so tests never collide with a stack
 * started for a demo), {@code stack.work-dir} (default {@code target/local-stack}, wiped first),
 * {@code stack.nodes-per-dc}, {@code stack.wan} ({@code false} to run without WAN emulation),
 * {@code stack.cassandra} ({@code false}: a Kafka per region only, for modules that need no database),
 * {@code stack.search} (default {@code false}: no Elasticsearch node; a test of search calls
 * {@code LocalStack#startSearch} and the nodes start then, once for the whole run),
 * {@code stack.metrics} ({@code true}: Prometheus over the stack, as {@code stack up} runs it; off by default in tests),
 * {@code stack.tls} ({@code true}: CQL over TLS only, clients and internode, as {@code stack up --tls}; the brokers the
 * tests start then serve HTTPS; off by default; not with {@code stack.containers}),
 * {@code stack.containers} ({@code true}, set by the {@code docker} Maven profile: the servers run in containers
 * through Testcontainers, at the same addresses, without WAN emulation; see {@code ContainerStack}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(LocalStackExtension.class)
public @interface LocalStackTest {
}
