package org.brokerapp.broker.security;

import java.util.function.Predicate;

import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * The characters Spring Security's {@link StrictHttpFirewall} accepts in header names, header
 * values and parameter names, checked by a loop instead of its regular expressions: assigned code
 * points that are no control characters (a tab allowed in a value). The rules are the firewall's
 * own; the firewall checks each header every time a filter reads it, a dozen times a request, and
 * under the demo's load its expressions took 3-10 % of the request threads' CPU
 * (docs/benchmarks/log/2026-11-28-firewall-loop.md).
 */
final class HeaderCharacters {

    /** A header or parameter name: {@code [\p{IsAssigned}&&[^\p{IsControl}]]*}. */
    static final Predicate<String> NAME = s -> allAllowed(s, false);

    /** A header value: {@code [\p{IsAssigned}&&[[^\p{IsControl}]||\t]]*}. */
    static final Predicate<String> VALUE = s -> allAllowed(s, true);

    private HeaderCharacters() {
    }

    /** The firewall with these checks in place of its expressions; every other rule as it comes. */
    static StrictHttpFirewall firewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setAllowedHeaderNames(NAME);
        firewall.setAllowedHeaderValues(VALUE);
        firewall.setAllowedParameterNames(NAME);
        return firewall;
    }

    private static boolean allAllowed(String s, boolean tabAllowed) {
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            // printable ASCII, every character of a usual header, first
            boolean allowed = (c >= 0x20 && c < 0x7f) || (Character.isDefined(c) && !Character.isISOControl(c)) || (tabAllowed && c == '\t');
            if (!allowed) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }
}
