package org.brokerapp.broker.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.client.BrokerSession.Reply;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The REST API's OpenAPI description, as a client generator fetches it from a running broker. */
@BrokersTest
class OpenApiIT {

    private final TestSession anonymous;

    OpenApiIT(Brokers brokers) {
        this.anonymous = brokers.client("us-east-1", null, null);
    }

    @Test
    void theDescriptionIsTheCustomerAndOperatorApiAndNothingElse() {
        long started = System.nanoTime();
        Reply description = anonymous.get("/v3/api-docs");
        System.out.printf("OpenApiIT: /v3/api-docs answered %d (%,d bytes) in %.1f s%n", description.status(), description.raw().length(),
                (System.nanoTime() - started) / 1e9);

        assertThat(description.status()).as(description.raw()).isEqualTo(200);
        assertThat(description.contentType()).startsWith("application/json");
        assertThat(description.body().path("paths").propertyNames())
                .contains("/api/token", "/api/orders", "/api/orders/{orderId}", "/api/holdings", "/api/transactions", "/api/prices/{symbol}",
                        "/admin/exchanges")
                .allMatch(path -> path.startsWith("/api/") || path.startsWith("/admin/"), "only /api/ and /admin/ (no ops page, error page or peer calls)");
        // the ops page's redirect once pulled Spring's application context into the schemas: a third of the first build's 3.2 s of CPU
        assertThat(description.body().path("components").path("schemas").propertyNames())
                .contains("PlaceOrderRequest", "OrderView", "Problem")
                .doesNotContain("ApplicationContext", "ServletContext", "RedirectView");
        // every member ProblemDetailsAdvice may set, described for the clients generated from it
        assertThat(description.body().path("components").path("schemas").path("Problem").path("properties").propertyNames())
                .contains("type", "title", "status", "detail", "instance", "errorId", "region");
    }

    @Test
    void eachOperationNamesTheCredentialItTakes() {
        JsonNode paths = anonymous.get("/v3/api-docs").body().path("paths");

        Map<String, String> schemes = Map.of("/api/token", "basic", "/api/orders", "bearer", "/api/holdings", "bearer", "/admin/exchanges", "basic");
        schemes.forEach((path, scheme) -> paths.path(path).properties().forEach(operation ->
                assertThat(operation.getValue().path("security").toString()).as(operation.getKey() + " " + path).contains("\"" + scheme + "\"")));
        JsonNode defined = anonymous.get("/v3/api-docs").body().path("components").path("securitySchemes");
        assertThat(defined.path("bearer").path("scheme").asString()).isEqualTo("bearer");
        assertThat(defined.path("basic").path("scheme").asString()).isEqualTo("basic");
    }

    @Test
    void everyOperationAnswersItsErrorsAsProblems() {
        JsonNode paths = anonymous.get("/v3/api-docs").body().path("paths");

        paths.properties().forEach(path -> path.getValue().properties().forEach(operation ->
                assertThat(operation.getValue().path("responses").path("4XX").path("content").has("application/problem+json"))
                        .as(operation.getKey() + " " + path.getKey()).isTrue()));
    }

    @Test
    void aBodyOnTheGetIsIgnored() {
        Reply description = anonymous.send("GET", "/v3/api-docs", "{\"a\":".repeat(531) + "1" + "}".repeat(531), null);

        assertThat(description.status()).as(description.raw()).isEqualTo(200);
    }
}
