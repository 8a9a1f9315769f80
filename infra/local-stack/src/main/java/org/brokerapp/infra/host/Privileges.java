package org.brokerapp.infra.host;

/** What the stack may do depends on running as root: lower thread priorities, drop capabilities, mount a filesystem. */
public final class Privileges {

    public static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    private Privileges() {
    }
}
