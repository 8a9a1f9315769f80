package org.brokerapp.k8s;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Kubernetes resource quantities as the checks compare them: CPU in millicores, memory in MiB. */
final class Quantities {

    private static final Pattern MEMORY = Pattern.compile("(\\d+)(Ki|Mi|Gi|K|M|G)?");

    private Quantities() {
    }

    /** "1" is 1000, "250m" is 250, "1.5" is 1500. */
    static long millicores(String cpu) {
        if (cpu.endsWith("m")) {
            return Long.parseLong(cpu.substring(0, cpu.length() - 1));
        }
        return Math.round(Double.parseDouble(cpu) * 1000);
    }

    /** "2Gi" is 2048, "512Mi" is 512; decimal units rounded up to whole MiB. */
    static long mebibytes(String memory) {
        Matcher m = MEMORY.matcher(memory);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a memory quantity this check reads: " + memory);
        }
        double bytes = Long.parseLong(m.group(1)) * switch (m.group(2) == null ? "" : m.group(2)) {
            case "Ki" -> 1024d;
            case "Mi" -> 1024d * 1024;
            case "Gi" -> 1024d * 1024 * 1024;
            case "K" -> 1e3;
            case "M" -> 1e6;
            case "G" -> 1e9;
            default -> 1d;
        };
        return (long) Math.ceil(bytes / (1024 * 1024));
    }
}
