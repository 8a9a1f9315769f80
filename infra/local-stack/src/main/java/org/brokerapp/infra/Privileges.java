package org.brokerapp.infra;

/** What the stack may do depends on running as root: lower thread priorities, drop capabilities, mount a filesystem. */
final class Privileges {

    static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    private Privileges() {
    }
}
