package org.brokerapp.broker.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.market.LastPrices;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.peer.PeerKeysProperties;
import org.brokerapp.broker.peer.PeerSigner;
import org.brokerapp.broker.security.SecurityProperties;
import org.brokerapp.broker.security.Tokens;
import org.brokerapp.broker.session.ExchangeSessions;
import org.brokerapp.broker.session.ShippedCalendars;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.regions.SymbolUniverse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

/**
 * The security chain and the error table in front of the order API, in a web slice: the real
 * filter chain, token decoder and problem answers over a stand-in order service. Each answer is
 * checked for its status, its RFC 9457 body and its challenge, without servers, in {@code ./mvnw
 * test}; the same answers from a running broker are in {@code OrderMatchingIT} and {@code BadInputIT}.
 */
@WebMvcTest(properties = "broker.kafka.password=not-used-in-a-web-slice", useDefaultFilters = false,
        includeFilters = @ComponentScan.Filter(type = FilterType.REGEX, pattern = {
                "org\\.brokerapp\\.broker\\.order\\.OrderController",
                "org\\.brokerapp\\.broker\\.order\\.OrderRequests",
                "org\\.brokerapp\\.broker\\.security\\.(SecurityConfiguration|Tokens|PasswordChecks)",
                "org\\.brokerapp\\.broker\\.peer\\.PeerVerifier",
                "org\\.brokerapp\\.broker\\.system\\.RegionsConfiguration",
                "org\\.brokerapp\\.broker\\.web\\..*"}))
// a region's settings and the local profile's demo secrets (the broker refuses to start on built-in ones anywhere else, SecretsCheck)
@ActiveProfiles("us-east-1")
class ApiSecuritySliceTests {

    private static final String OPERATOR_PASSWORD = "operator-pw";

    @Autowired
    MockMvc mvc;

    @Autowired
    JwtEncoder encoder;

    @MockitoBean
    OrderService orders;

    @MockitoBean
    LastPrices lastPrices;

    @MockitoBean
    PeerSigner answers;

    @TestConfiguration
    @EnableWebSecurity // the slice brings no security auto-configuration of its own: the broker's chains build on this
    @EnableConfigurationProperties({SecurityProperties.class, BrokerProperties.class, PeerKeysProperties.class})
    static class Collaborators {

        @Bean
        MeterRegistry registry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        BrokerMetrics metrics() {
            return mock(BrokerMetrics.class);
        }

        @Bean
        SymbolUniverse symbols() {
            return SymbolUniverse.loadDefault();
        }

        @Bean
        ExchangeSessions sessions() {
            return ShippedCalendars.sessions();
        }

    }

    @Test
    void anOrderWithoutATokenIsA401ProblemThatNamesTheWayToOne() throws Exception {
        MvcResult answer = send(post("/api/orders"));

        assertThat(answer.getResponse().getStatus()).isEqualTo(401);
        assertThat(answer.getResponse().getContentType()).startsWith("application/problem+json");
        assertThat(answer.getResponse().getHeader("WWW-Authenticate")).isEqualTo("Bearer");
        assertThat(body(answer)).contains("\"status\":401", "POST /api/token");
        verifyNoInteractions(orders);
    }

    @Test
    void aCustomersPasswordOnTheOrderApiIsRefusedAndCostsNoPasswordCheck() throws Exception {
        MvcResult answer = send(post("/api/orders").header("Authorization", basic("alice", "alice-pw")));

        assertThat(answer.getResponse().getStatus()).isEqualTo(401);
        verifyNoInteractions(orders);
    }

    @Test
    void aForgedTokenIsRefused() throws Exception {
        String token = token("alice");
        String forged = token.substring(0, token.lastIndexOf('.') + 1) + "AAAA";

        assertThat(send(get("/api/holdings").header("Authorization", "Bearer " + forged)).getResponse().getStatus()).isEqualTo(401);
        verifyNoInteractions(orders);
    }

    @Test
    void theOperatorIsNoCustomer() throws Exception {
        MvcResult answer = send(get("/api/holdings").header("Authorization", basic("operator", OPERATOR_PASSWORD)));

        assertThat(answer.getResponse().getStatus()).isIn(401, 403);
        verifyNoInteractions(orders);
    }

    @Test
    void aCustomersTokenReachesTheirOwnOrdersOnly() throws Exception {
        UUID orderId = UUID.randomUUID();
        when(orders.get(eq("alice"), eq(orderId))).thenThrow(new OrderProblem.NotFound("no order " + orderId));

        MvcResult answer = send(get("/api/orders/" + orderId).header("Authorization", "Bearer " + token("alice")));

        assertThat(answer.getResponse().getStatus()).isEqualTo(404);
        assertThat(answer.getResponse().getContentType()).startsWith("application/problem+json");
        assertThat(body(answer)).contains("\"status\":404", "no order " + orderId).doesNotContain("Exception", "at org.");
    }

    @Test
    void anUnknownFieldIsA400ProblemAndNoOrder() throws Exception {
        MvcResult answer = send(post("/api/orders").header("Authorization", "Bearer " + token("alice"))
                .contentType("application/json")
                .content("{\"clientOrderId\":\"c-1\",\"symbol\":\"IBM\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":1,"
                        + "\"limitPrice\":\"1.00\",\"extendedHours\":true}"));

        assertThat(answer.getResponse().getStatus()).isEqualTo(400);
        assertThat(answer.getResponse().getContentType()).startsWith("application/problem+json");
        verifyNoInteractions(orders);
    }

    @Test
    void aTimeInForceNobodyKnowsIsA400ProblemAndNoOrder() throws Exception {
        MvcResult answer = send(post("/api/orders").header("Authorization", "Bearer " + token("alice"))
                .contentType("application/json")
                .content("{\"clientOrderId\":\"c-1\",\"symbol\":\"IBM\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":1,"
                        + "\"limitPrice\":\"1.00\",\"timeInForce\":\"SOMETIMES\"}"));

        assertThat(answer.getResponse().getStatus()).isEqualTo(400);
        assertThat(answer.getResponse().getContentType()).startsWith("application/problem+json");
        assertThat(body(answer)).contains("timeInForce").doesNotContain("Exception", "at org.");
        verifyNoInteractions(orders);
    }

    @Test
    void theInternalApiIsClosedToCustomersAndStrangers() throws Exception {
        assertThat(send(post("/internal/events")).getResponse().getStatus()).isIn(401, 403);
        assertThat(send(post("/internal/events").header("Authorization", "Bearer " + token("alice"))).getResponse().getStatus()).isIn(401, 403);
    }

    @Test
    void aPathNobodyServesIsDeniedNotDescribed() throws Exception {
        MvcResult answer = send(get("/nothing-here").header("Authorization", "Bearer " + token("alice")));

        assertThat(answer.getResponse().getStatus()).isIn(401, 403);
        assertThat(body(answer)).doesNotContain("Exception", "at org.");
    }

    private MvcResult send(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request).andReturn();
    }

    private static MockHttpServletRequestBuilder get(String path) {
        return MockMvcRequestBuilders.get(path);
    }

    private static MockHttpServletRequestBuilder post(String path) {
        return MockMvcRequestBuilders.post(path);
    }

    private static String body(MvcResult answer) throws Exception {
        return answer.getResponse().getContentAsString(StandardCharsets.UTF_8);
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** A bearer token with the claims POST /api/token gives, signed with the broker's key. */
    private String token(String customer) {
        Instant now = Instant.now();
        JwtClaimsSet claims = JwtClaimsSet.builder().issuer(Tokens.ISSUER).subject(customer).issuedAt(now).expiresAt(now.plusSeconds(600))
                .claim("scope", List.of(Tokens.SCOPE)).build();
        return encoder.encode(JwtEncoderParameters.from(JwsHeader.with(MacAlgorithm.HS256).build(), claims)).getTokenValue();
    }
}
