package org.brokerapp.infra.junit;

import java.nio.file.Path;
import java.util.OptionalInt;

import org.brokerapp.infra.containers.ContainerStack;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.infra.stack.StackSettings;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit side of {@link LocalStackTest}. The stack lives in the root context's store: JUnit closes
 * it (stopping every server) when the whole run ends, and the stack's own shutdown hook stops
 * the servers should the JVM end any other way.
 */
public final class LocalStackExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LocalStackExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        stack(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == LocalStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return stack(context);
    }

    /**
     * The shared stack, started on first use: for other extensions that build on it. A stack that
     * failed to start is not tried again for every test class: each fails at once with the first
     * failure's reason.
     */
    public static LocalStack stack(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE).computeIfAbsent(Started.class, key -> Started.attempt(), Started.class).stack();
    }

    /** The outcome of the one attempt to start the stack in this JVM; JUnit closes it (and so the stack) at the end of the run. */
    private record Started(LocalStack started, StackException failure) implements AutoCloseable {

        static Started attempt() {
            try {
                return new Started(start(), null);
            } catch (StackException e) {
                return new Started(null, e);
            }
        }

        LocalStack stack() {
            if (failure != null) {
                throw new StackException("the stack did not start in this test JVM: " + failure.getMessage(), failure);
            }
            return started;
        }

        @Override
        public void close() {
            if (started != null) {
                started.close();
            }
        }
    }

    private static LocalStack start() {
        Path workDir = Path.of(System.getProperty("stack.work-dir", "target/local-stack"));
        int instance = Integer.getInteger("stack.instance", 1);
        String nodes = System.getProperty("stack.nodes-per-dc", "");
        StackSettings settings = StackSettings.defaults(workDir, instance)
                .withNodesPerDc(nodes.isBlank() ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(nodes)))
                .withWanEmulation(Boolean.parseBoolean(System.getProperty("stack.wan", "true")))
                .withSearch(Boolean.parseBoolean(System.getProperty("stack.search", "false")))
                .withMetrics(Boolean.parseBoolean(System.getProperty("stack.metrics", "false")))
                .withTls(Boolean.parseBoolean(System.getProperty("stack.tls", "false")));
        boolean kafkaOnly = !Boolean.parseBoolean(System.getProperty("stack.cassandra", "true"));
        LocalStack stack = Boolean.getBoolean("stack.containers")
                ? ContainerStack.start(kafkaOnly ? settings.kafkaOnly() : settings, new Progress(System.out))
                : LocalStack.start(kafkaOnly ? settings.kafkaOnly() : settings, true,
                        "--work-dir " + settings.workDir() + " --instance " + instance + (kafkaOnly ? " --kafka-only" : "")
                                + (settings.search() ? "" : " --no-search") + (settings.metrics() ? "" : " --no-metrics") + (settings.tls() ? " --tls" : ""),
                        new Progress(System.out));
        System.out.print(stack.describe());
        return stack;
    }
}
