package org.brokerapp.regions;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The project's version as the build wrote it: what {@code --version} prints on every command line. */
public final class BuildVersion {

    private static final String VERSION = read();

    private BuildVersion() {
    }

    public static String version() {
        return VERSION;
    }

    /** {@code <command> <version>}: the line a command answers {@code --version} with. */
    public static String line(String command) {
        return command + " " + VERSION;
    }

    private static String read() {
        try (InputStream in = BuildVersion.class.getResourceAsStream("build.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
