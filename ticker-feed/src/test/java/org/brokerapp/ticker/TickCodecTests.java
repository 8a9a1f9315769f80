package org.brokerapp.ticker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class TickCodecTests {

    static List<Tick> ticks() {
        return List.of(
                new Tick("AAPL", "NASDAQ", new BigDecimal("187.44"), 100, 42, Instant.parse("2025-11-22T08:26:40.123456Z")),
                new Tick("BRK.B", "NYSE", new BigDecimal("480.10"), 1, 1, Instant.parse("2025-11-21T14:30:00Z")),
                new Tick("LTR", "ASX", new BigDecimal("1.995"), 5000, Long.MAX_VALUE, Instant.parse("2025-11-23T23:00:00.000001Z")),
                new Tick("SGR", "ASX", new BigDecimal("0.087"), 250_000, 7, Instant.EPOCH),
                new Tick("PENNY", "NYSE", new BigDecimal("0.0001"), Long.MAX_VALUE, 3, Instant.parse("2099-12-31T23:59:59.999999Z")),
                new Tick("BIG", "NYSE", new BigDecimal("12345678901234.1234"), 10, 9, Instant.parse("2025-11-21T14:30:00Z")));
    }

    @ParameterizedTest
    @MethodSource("ticks")
    void everyTickReadsBackEqualToWhatWasWritten(Tick tick) {
        assertThat(TickCodec.decode(TickCodec.encode(tick))).isEqualTo(tick);
    }

    @Test
    void aTickIsWrittenAsTheDocumentedCompactJson() {
        Tick tick = new Tick("AAPL", "NASDAQ", new BigDecimal("187.44"), 100, 42, Instant.parse("2025-11-22T08:26:40.123456Z"));

        assertThat(new String(TickCodec.encode(tick), StandardCharsets.US_ASCII))
                .isEqualTo("{\"v\":1,\"symbol\":\"AAPL\",\"exchange\":\"NASDAQ\",\"price\":\"187.44\",\"size\":100,\"seq\":42,\"ts\":1763800000123456}");
    }

    @Test
    void thePriceKeepsItsScale() {
        Tick tick = TickCodec.decode(json("{'v':1,'symbol':'KO','exchange':'NYSE','price':'70.10','size':5,'seq':1,'ts':0}"));

        assertThat(tick.price()).isEqualTo(new BigDecimal("70.10")).isNotEqualTo(new BigDecimal("70.1"));
    }

    @Test
    void fieldsMayComeInAnyOrderWithWhitespaceAndUnknownFieldsAreIgnored() {
        Tick tick = TickCodec.decode(json("""
                { 'ts' : 1763800000123456, 'venue': {'mic': ['XNAS']}, 'seq': 42, 'size': 100,
                  'price': '187.44', 'exchange': 'NASDAQ', 'symbol': 'AAPL', 'v': 1, 'note': null }
                """));

        assertThat(tick).isEqualTo(ticks().get(0));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            garbage bytes                  | \u0000\u00ff\u0013binary                                                                | not JSON
            text, not JSON                 | AAPL 187.44                                                                             | not JSON
            truncated                      | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'187.44','size':100,'seq'            | not JSON
            an array                       | [1,2,3]                                                                                 | not a JSON object
            a number                       | 42                                                                                      | not a JSON object
            empty object                   | {}                                                                                      | missing field 'v'
            version 2                      | {'v':2,'symbol':'AAPL','exchange':'NASDAQ','price':'187.44','size':100,'seq':1,'ts':0}  | unsupported version "2"
            version 0 with bad price       | {'v':0,'symbol':'AAPL','exchange':'NASDAQ','price':187.44,'size':100,'seq':1,'ts':0}    | unsupported version "0"
            version as a string            | {'v':'1','symbol':'AAPL','exchange':'NASDAQ','price':'187.44','size':100,'seq':1,'ts':0}| field 'v' must be the number 1
            version 1.0                    | {'v':1.0,'symbol':'AAPL','exchange':'NASDAQ','price':'187.44','size':100,'seq':1,'ts':0}| field 'v' must be the number 1
            no version                     | {'symbol':'AAPL','exchange':'NASDAQ','price':'187.44','size':100,'seq':1,'ts':0}        | missing field 'v'
            no symbol                      | {'v':1,'exchange':'NASDAQ','price':'187.44','size':100,'seq':1,'ts':0}                  | missing field 'symbol'
            no exchange                    | {'v':1,'symbol':'AAPL','price':'187.44','size':100,'seq':1,'ts':0}                      | missing field 'exchange'
            no price                       | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','size':100,'seq':1,'ts':0}                   | missing field 'price'
            no size                        | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'187.44','seq':1,'ts':0}             | missing field 'size'
            no seq                         | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'187.44','size':100,'ts':0}          | missing field 'seq'
            no ts                          | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'187.44','size':100,'seq':1}         | missing field 'ts'
            price as a JSON number         | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':187.44,'size':100,'seq':1,'ts':0}    | field 'price' must be a string
            zero price                     | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'0.00','size':100,'seq':1,'ts':0}    | price must be > 0
            negative price                 | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'-1.00','size':100,'seq':1,'ts':0}   | price must be a decimal string
            price with an exponent         | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'1E+2','size':100,'seq':1,'ts':0}    | price must be a decimal string
            price with leading zeros       | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'0187.44','size':100,'seq':1,'ts':0} | price must be a decimal string
            price NaN                      | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'NaN','size':100,'seq':1,'ts':0}     | price must be a decimal string
            price with a trailing point    | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'187.','size':100,'seq':1,'ts':0}    | price must be a decimal string
            size zero                      | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'187.44','size':0,'seq':1,'ts':0}    | size must be > 0
            size as a fraction             | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'187.44','size':1.5,'seq':1,'ts':0}  | field 'size' must be a whole number
            size beyond 64 bits            | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'187.44','size':99999999999999999999,'seq':1,'ts':0} | field 'size' must be a whole number
            sequence zero                  | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'187.44','size':100,'seq':0,'ts':0}  | sequence must be >= 1
            ts as a string                 | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'187.44','size':100,'seq':1,'ts':'0'}| field 'ts' must be a whole number
            ts before 1970                 | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'187.44','size':100,'seq':1,'ts':-1} | event time must be between 1970
            symbol lower case              | {'v':1,'symbol':'aapl','exchange':'NASDAQ','price':'187.44','size':100,'seq':1,'ts':0}  | symbol must be A-Z
            symbol as an object            | {'v':1,'symbol':{'a':1},'exchange':'NASDAQ','price':'187.44','size':100,'seq':1,'ts':0} | field 'symbol' must be a string, was an object
            duplicate field                | {'v':1,'symbol':'AAPL','symbol':'MSFT','exchange':'NASDAQ','price':'1','size':1,'seq':1,'ts':0} | not JSON: Duplicate Object property
            two objects                    | {'v':1,'symbol':'AAPL','exchange':'NASDAQ','price':'187.44','size':100,'seq':1,'ts':0}{} | content after the tick object
            """)
    void anythingButAValidV1TickIsRefusedInOneLine(String what, String value, String expected) {
        assertThatThrownBy(() -> TickCodec.decode(json(value)))
                .as(what)
                .isInstanceOf(MalformedTickException.class)
                .hasMessageStartingWith("malformed tick: ")
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n", "\r"));
    }

    @Test
    void nullEmptyAndOversizedValuesAreRefused() {
        assertThatThrownBy(() -> TickCodec.decode(null)).isInstanceOf(MalformedTickException.class).hasMessageContaining("null");
        assertThatThrownBy(() -> TickCodec.decode(new byte[0])).isInstanceOf(MalformedTickException.class).hasMessageContaining("empty");
        byte[] huge = ("{\"pad\":\"" + "x".repeat(TickCodec.MAX_BYTES) + "\"}").getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> TickCodec.decode(huge)).isInstanceOf(MalformedTickException.class).hasMessageContaining("more than the 4096 a tick may have");
    }

    @ParameterizedTest
    @CsvSource({"0, true", "7, true", "187.44, true", "0.005, true", "1.0, true", "'', false", "-1, false", "+1, false",
            "01, false", "1., false", ".5, false", "1e3, false", "1.2.3, false", "' 1', false", "Infinity, false"})
    void onlyPlainDecimalsAreTakenAsPrices(String text, boolean plain) {
        assertThat(TickCodec.isPlainDecimal(text)).isEqualTo(plain);
    }

    /** JSON written with single quotes for readability. */
    private static byte[] json(String text) {
        return text.replace('\'', '"').getBytes(StandardCharsets.ISO_8859_1);
    }
}
