package org.brokerapp.broker.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.brokerapp.client.BrokerSession.Reply;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every way a request can be wrong, answered with a 4xx problem+json that says what, never a 5xx. */
@BrokersTest
class BadInputIT {

    private static final String VALID = "\"clientOrderId\":\"%s\",\"symbol\":\"JPM\",\"side\":\"BUY\",\"type\":\"LIMIT\"";

    private final TestSession alice;

    BadInputIT(Brokers brokers) {
        this.alice = brokers.client("us-east-1", "alice", "alice-pw");
    }

    @ParameterizedTest(name = "[{index}] {0} -> {3}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            malformed JSON                | POST | `{"symbol":`                                                          | 400 | malformed JSON
            empty body                    | POST | ``                                                                   | 400 | body
            a JSON array                  | POST | `[]`                                                                 | 400 | wrong type
            trailing garbage              | POST | `{VALID,"quantity":1,"limitPrice":1.00} x`                            | 400 | malformed JSON
            missing clientOrderId         | POST | `{"symbol":"JPM","side":"BUY","type":"LIMIT","quantity":1,"limitPrice":1}` | 400 | clientOrderId is required
            empty clientOrderId           | POST | `{"clientOrderId":"","symbol":"JPM","side":"BUY","type":"LIMIT","quantity":1,"limitPrice":1}` | 400 | clientOrderId must be
            clientOrderId with a space    | POST | `{"clientOrderId":"a b","symbol":"JPM","side":"BUY","type":"LIMIT","quantity":1,"limitPrice":1}` | 400 | clientOrderId must be
            clientOrderId too long        | POST | `{"clientOrderId":"LONG","symbol":"JPM","side":"BUY","type":"LIMIT","quantity":1,"limitPrice":1}` | 400 | clientOrderId must be
            missing symbol                | POST | `{"clientOrderId":"ID","side":"BUY","type":"LIMIT","quantity":1,"limitPrice":1}` | 400 | symbol is required
            unknown symbol                | POST | `{"clientOrderId":"ID","symbol":"ZZZZQ","side":"BUY","type":"LIMIT","quantity":1,"limitPrice":1}` | 400 | unknown symbol 'ZZZZQ'
            lower-case symbol             | POST | `{"clientOrderId":"ID","symbol":"jpm","side":"BUY","type":"LIMIT","quantity":1,"limitPrice":1}` | 400 | unknown symbol
            symbol as a number            | POST | `{"clientOrderId":"ID","symbol":42,"side":"BUY","type":"LIMIT","quantity":1,"limitPrice":1}` | 400 | unknown symbol
            missing side                  | POST | `{"clientOrderId":"ID","symbol":"JPM","type":"LIMIT","quantity":1,"limitPrice":1}` | 400 | side is required
            unknown side                  | POST | `{VALID,"side":"HOLD","quantity":1,"limitPrice":1}`                   | 400 | side has an invalid value
            missing type                  | POST | `{"clientOrderId":"ID","symbol":"JPM","side":"BUY","quantity":1,"limitPrice":1}` | 400 | type is required
            unknown type                  | POST | `{VALID,"type":"ICEBERG","quantity":1,"limitPrice":1}`                | 400 | type has an invalid value
            missing quantity              | POST | `{VALID,"limitPrice":1}`                                             | 400 | quantity is required
            zero quantity                 | POST | `{VALID,"quantity":0,"limitPrice":1}`                                 | 400 | quantity must be > 0
            negative quantity             | POST | `{VALID,"quantity":-5,"limitPrice":1}`                                | 400 | quantity must be > 0
            fractional quantity           | POST | `{VALID,"quantity":1.5,"limitPrice":1}`                               | 400 | whole number
            NaN quantity                  | POST | `{VALID,"quantity":"NaN","limitPrice":1}`                             | 400 | quantity
            NaN literal quantity          | POST | `{VALID,"quantity":NaN,"limitPrice":1}`                               | 400 | malformed JSON
            infinite quantity             | POST | `{VALID,"quantity":"Infinity","limitPrice":1}`                        | 400 | quantity
            quantity as a word            | POST | `{VALID,"quantity":"ten","limitPrice":1}`                             | 400 | quantity
            quantity as a boolean         | POST | `{VALID,"quantity":true,"limitPrice":1}`                              | 400 | quantity
            quantity as a string (#55)    | POST | `{VALID,"quantity":"10","limitPrice":1}`                              | 400 | quantity has the wrong type
            an unknown field (#55)        | POST | `{VALID,"quantity":1,"limitPrice":1,"extendedHours":true}`            | 400 | unknown field 'extendedHours'
            IOC on a LIMIT order (#57)    | POST | `{VALID,"quantity":1,"limitPrice":1,"timeInForce":"IOC"}`             | 400 | timeInForce IOC is taken on MARKET orders only
            an unknown time in force      | POST | `{VALID,"quantity":1,"limitPrice":1,"timeInForce":"GTX"}`             | 400 | timeInForce
            GTD without expireAt (#57)    | POST | `{VALID,"quantity":1,"limitPrice":1,"timeInForce":"GTD"}`             | 400 | expireAt is required
            expireAt not a time (#57)     | POST | `{VALID,"quantity":1,"limitPrice":1,"timeInForce":"GTD","expireAt":"soon"}` | 400 | expireAt is not a time
            huge quantity                 | POST | `{VALID,"quantity":1e20,"limitPrice":1}`                              | 400 | at most
            LIMIT without limitPrice      | POST | `{VALID,"quantity":1}`                                               | 400 | limitPrice is required
            zero limitPrice               | POST | `{VALID,"quantity":1,"limitPrice":0}`                                 | 400 | limitPrice must be > 0
            negative limitPrice           | POST | `{VALID,"quantity":1,"limitPrice":-1}`                                | 400 | limitPrice must be > 0
            NaN limitPrice                | POST | `{VALID,"quantity":1,"limitPrice":"NaN"}`                             | 400 | limitPrice
            infinite limitPrice           | POST | `{VALID,"quantity":1,"limitPrice":"-Infinity"}`                       | 400 | limitPrice
            five-decimal limitPrice       | POST | `{VALID,"quantity":1,"limitPrice":1.00001}`                           | 400 | at most 4 decimals
            limitPrice as an object       | POST | `{VALID,"quantity":1,"limitPrice":{}}`                                | 400 | limitPrice
            STOP with a limitPrice        | POST | `{"clientOrderId":"ID","symbol":"JPM","side":"BUY","type":"STOP","quantity":1,"limitPrice":1}` | 400 | stopPrice is required
            LIMIT with both prices        | POST | `{VALID,"quantity":1,"limitPrice":1,"stopPrice":2}`                   | 400 | not stopPrice
            MARKET with a price           | POST | `{"clientOrderId":"ID","symbol":"JPM","side":"BUY","type":"MARKET","quantity":1,"limitPrice":1}` | 400 | takes no limitPrice
            MARKET with no price yet      | POST | `{"clientOrderId":"ID","symbol":"MAA","side":"BUY","type":"MARKET","quantity":1}` | 422 | needs a recent tick
            not enough cash               | POST | `{VALID,"quantity":100000,"limitPrice":300}`                          | 422 | available cash
            not enough shares             | POST | `{"clientOrderId":"ID","symbol":"GE","side":"SELL","type":"LIMIT","quantity":1,"limitPrice":1}` | 422 | available shares
            oversized body                | POST | `BIG`                                                                | 413 | at most
            oversized chunked body        | POSTCHUNKED | `BIG`                                                         | 413 | at most
            chunked body within the limit | POSTCHUNKED | `{VALID,"quantity":0,"limitPrice":1}`                          | 400 | quantity must be > 0
            tiny exponent limitPrice      | POST | `{VALID,"quantity":1,"limitPrice":1e-50000000}`                       | 400 | limitPrice must have at most 4 decimals
            huge exponent limitPrice      | POST | `{VALID,"quantity":1,"limitPrice":1e+2147483647}`                     | 400 | limitPrice must have at most 4 decimals
            tiny exponent quantity        | POST | `{VALID,"quantity":1e-2147483647,"limitPrice":1}`                     | 400 | whole number
            out of range exponent         | POST | `{VALID,"quantity":1e99999999999,"limitPrice":1}`                     | 400 |
            not JSON                      | POSTTEXT | `quantity=1`                                                     | 415 |
            YAML                          | POSTYAML | `clientOrderId: y-1`                                            | 415 |
            order id not a UUID           | GET  | `/api/orders/not-a-uuid`                                             | 400 | orderId
            unknown order                 | GET  | `/api/orders/RANDOM`                                                 | 404 | no order
            cancel an unknown order       | DELETE | `/api/orders/RANDOM`                                               | 404 | no order
            unknown status filter         | GET  | `/api/orders?status=LOST`                                            | 400 | status
            price of an unknown symbol    | GET  | `/api/prices/ZZZZQ`                                                  | 400 | unknown symbol
            an encoded NUL in the path    | GET  | `/api/prices/%00`                                                    | 400 | refused before it reached the broker
            a long symbol in a path (#55) | GET  | `/api/prices/LONGQ`                                                  | 400 | unknown symbol 'AAAA
            a long search symbol (#55)    | GET  | `/api/trades?symbol=LONGQ`                                           | 400 | symbol must be
            a long search number (#55)    | GET  | `/api/trades?page=LONGQ`                                             | 400 | whole number
            """)
    void isAnsweredWithAProblem(String name, String method, String input, int status, String detailContains) {
        Reply reply = switch (method) {
            case "POST" -> alice.send("POST", "/api/orders", body(input), "application/json");
            case "POSTTEXT" -> alice.send("POST", "/api/orders", input, "text/plain");
            case "POSTYAML" -> alice.send("POST", "/api/orders", input + "\nsymbol: JPM\nside: BUY\ntype: LIMIT\nquantity: 1\nlimitPrice: 1\n", "application/yaml");
            case "POSTCHUNKED" -> alice.sendChunked("POST", "/api/orders", body(input), "application/json");
            case "GET" -> alice.get(input.replace("RANDOM", UUID.randomUUID().toString()).replace("LONGQ", "A".repeat(3_000)));
            case "DELETE" -> alice.delete(input.replace("RANDOM", UUID.randomUUID().toString()));
            default -> throw new IllegalArgumentException(method);
        };

        assertThat(reply.status()).as(name + ": " + reply.raw()).isEqualTo(status);
        assertThat(reply.contentType()).as(name).startsWith("application/problem+json");
        assertThat(reply.body().path("status").asInt()).isEqualTo(status);
        assertThat(reply.text("title")).isNotBlank();
        assertThat(reply.raw()).doesNotContain("Exception", "at org.", "at java.");
        assertThat(reply.raw().length()).as("never more than a short excerpt of the request").isLessThan(600);
        assertThat(reply.header("Retry-After")).as("a 4xx is not retried").isEmpty();
        if (detailContains != null && !detailContains.isBlank()) {
            assertThat(reply.text("detail")).as(name).contains(detailContains);
        }
    }

    private static String body(String input) {
        if (input.equals("BIG")) {
            return "{\"clientOrderId\":\"" + "x".repeat(20_000) + "\"}";
        }
        return input.replace("VALID", VALID.formatted("bad-" + UUID.randomUUID()))
                .replace("\"ID\"", "\"bad-" + UUID.randomUUID() + "\"")
                .replace("\"LONG\"", "\"" + "a".repeat(65) + "\"");
    }
}
