package org.brokerapp.infra.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The {@code java} executable the servers run on. Cassandra 5.0 runs on Java 17 only here (newer
 * runtimes fail on its security manager), so the launcher looks for a 17 even when it runs on
 * another version itself.
 */
public final class ServerJava {

    static final int REQUIRED_FEATURE = 17;
    static final String HOME_ENV = "JAVA17_HOME";

    private ServerJava() {
    }

    public static Path find() {
        if (Runtime.version().feature() == REQUIRED_FEATURE) {
            Optional<String> self = ProcessHandle.current().info().command();
            if (self.isPresent()) {
                return Path.of(self.get());
            }
        }
        String home = System.getenv(HOME_ENV);
        if (home != null && Files.isExecutable(Path.of(home, "bin", "java"))) {
            return Path.of(home, "bin", "java");
        }
        try (Stream<Path> jvms = Files.list(Path.of("/usr/lib/jvm"))) {
            return jvms.filter(p -> p.getFileName().toString().matches(".*(-|jdk)17.*|.*java-17.*"))
                    .map(p -> p.resolve("bin/java"))
                    .filter(Files::isExecutable)
                    .min(Comparator.naturalOrder())
                    .orElseThrow(ServerJava::missing);
        } catch (IOException e) {
            throw missing();
        }
    }

    private static StackException missing() {
        return new StackException("Cassandra 5.0 needs a Java 17 runtime and none was found: install openjdk-17-jre-headless or set " + HOME_ENV);
    }
}
