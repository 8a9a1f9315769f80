package org.brokerapp.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.web.firewall.RequestRejectedException;

class HeaderCharactersTests {

    /** The firewall's own expressions (StrictHttpFirewall), which the loop replaces. */
    private static final Pattern FIREWALL_NAME = Pattern.compile("[\\p{IsAssigned}&&[^\\p{IsControl}]]*");
    private static final Pattern FIREWALL_VALUE = Pattern.compile("[\\p{IsAssigned}&&[[^\\p{IsControl}]||\\t]]*");

    @Test
    void agreesWithTheFirewallsExpressionsOnEveryKindOfCharacter() {
        List<String> samples = new ArrayList<>(List.of("", "Bearer eyJhbGciOiJFZERTQSJ9.e30.sig", "application/json; charset=UTF-8", "a\tb",
                "\t", "a\u0000b", "a\u001fb", "a\u007fb", "a\u0085b", "caf\u00e9", "\u2028", "\u0378", "\ud83d\ude00", "\ud83d", "\ude00x",
                "\udb40\udc01", "\udb7f\udfff", "\uffff", "\ufffd"));
        Random random = new Random(11);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder s = new StringBuilder();
            for (int n = random.nextInt(4); n >= 0; n--) {
                int kind = random.nextInt(4);
                s.appendCodePoint(kind == 0 ? random.nextInt(0x100) : kind == 1 ? random.nextInt(0x10000) : kind == 2
                        ? random.nextInt(Character.MAX_CODE_POINT + 1) : 0x20 + random.nextInt(0x5f));
            }
            samples.add(s.toString());
        }
        for (String s : samples) {
            assertThat(HeaderCharacters.NAME.test(s)).as("name %s", s.codePoints().boxed().toList()).isEqualTo(FIREWALL_NAME.matcher(s).matches());
            assertThat(HeaderCharacters.VALUE.test(s)).as("value %s", s.codePoints().boxed().toList()).isEqualTo(FIREWALL_VALUE.matcher(s).matches());
        }
    }

    @Test
    void theFirewallStillRefusesAControlCharacterInAHeaderAndAcceptsAUsualOne() {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/orders");
        request.addHeader("Authorization", "Bearer abc.def.ghi");
        request.addHeader("X-Note", "line\u0085break");
        var firewalled = HeaderCharacters.firewall().getFirewalledRequest(request);

        assertThat(firewalled.getHeader("Authorization")).isEqualTo("Bearer abc.def.ghi");
        assertThatThrownBy(() -> firewalled.getHeader("X-Note")).isInstanceOf(RequestRejectedException.class);
    }
}
