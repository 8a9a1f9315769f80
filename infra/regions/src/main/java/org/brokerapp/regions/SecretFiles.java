package org.brokerapp.regions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How secrets reach a process from disk rather than a command line: a password is the first line
 * of its file, CA certificates are PEM blocks. One reading and one check for every client.
 */
public final class SecretFiles {

    static final String PEM_BEGIN = "-----BEGIN CERTIFICATE-----";

    private SecretFiles() {
    }

    /** A password file's first line, stripped; {@code what} names the file in the one-line error. */
    public static String firstLine(Path file, String what) {
        try {
            return Files.readString(file).lines().findFirst().orElse("").strip();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + what + " " + file + ": " + e.getMessage());
        }
    }

    /** {@code pem} stripped, if it holds at least one certificate block; {@code whose} starts the error otherwise. */
    static String pemCertificates(String pem, String whose) {
        if (pem == null || !pem.contains(PEM_BEGIN)) {
            throw new IllegalArgumentException(whose + " must be PEM certificates (" + PEM_BEGIN + "), got none");
        }
        return pem.strip();
    }

    /** How many certificate blocks {@code pem} holds, for a {@code toString} that never shows them. */
    static long certificateCount(String pem) {
        return pem.lines().filter(PEM_BEGIN::equals).count();
    }
}
