package org.brokerapp.regions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.brokerapp.regions.SymbolUniverse.UnknownSymbolException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SymbolUniverseTests {

    private static final SymbolUniverse UNIVERSE = SymbolUniverse.loadDefault();
    private static final RegionsModel REGIONS = RegionsFile.loadDefault();

    @Test
    void thePackagedUniverseListsHundredsOfSymbolsOnTheThreeExchanges() {
        assertThat(UNIVERSE.size()).isGreaterThanOrEqualTo(500);
        assertThat(UNIVERSE.exchanges()).containsExactlyInAnyOrder("NYSE", "NASDAQ", "ASX");
        assertThat(UNIVERSE.get("AAPL")).extracting(Listing::exchange, Listing::name).containsExactly("NASDAQ", "Apple Inc");
        assertThat(UNIVERSE.get("BRK.B").exchange()).isEqualTo("NYSE");
    }

    @Test
    void thePackagedDefaultIsTheRepositoryFile() {
        assertThat(SymbolUniverse.load(Path.of("../symbols.csv")).listings()).isEqualTo(UNIVERSE.listings());
    }

    @Test
    void pricesAreInCentsInTheUsAndAtMostTenthsOfACentOnTheAsx() {
        assertThat(UNIVERSE.listings()).allSatisfy(l ->
                assertThat(l.price().scale()).as(l.symbol()).isLessThanOrEqualTo(l.exchange().equals("ASX") ? 3 : 2));
    }

    @Test
    void everyExchangeHasItsHomeInTheDefaultRegions() {
        assertThatCode(() -> UNIVERSE.requireHomes(REGIONS)).doesNotThrowAnyException();
    }

    @Test
    void northVirginiaIsHomeOfTheNyseAndNasdaqListings() {
        List<Listing> homed = UNIVERSE.homedIn(REGIONS.region("us-east-1"));

        assertThat(homed).extracting(Listing::exchange).containsOnly("NYSE", "NASDAQ");
        assertThat(homed).extracting(Listing::symbol).contains("AAPL", "MSFT", "JPM", "BRK.B").doesNotContain("BHP");
        assertThat(homed).isEqualTo(UNIVERSE.onExchanges(List.of("NYSE", "NASDAQ")));
    }

    @Test
    void sydneyIsHomeOfTheAsxListings() {
        List<Listing> homed = UNIVERSE.homedIn(REGIONS.region("ap-southeast-2"));

        assertThat(homed).extracting(Listing::exchange).containsOnly("ASX");
        assertThat(homed).extracting(Listing::symbol).contains("BHP", "CBA", "CSL").doesNotContain("AAPL");
    }

    @Test
    void theRegionsTogetherAreHomeOfEverySymbolOnce() {
        int homed = REGIONS.regions().stream().mapToInt(r -> UNIVERSE.homedIn(r).size()).sum();

        assertThat(homed).isEqualTo(UNIVERSE.size());
    }

    @Test
    void anExchangeWithoutAHomeRegionIsRefused() {
        SymbolUniverse universe = parse("""
                symbol,exchange,name,price,volatility
                AAPL,NASDAQ,Apple Inc,230.00,0.26
                VOD,LSE,Vodafone Group plc,0.72,0.25
                """);

        assertThatThrownBy(() -> universe.requireHomes(REGIONS))
                .isInstanceOf(InvalidRegionsException.class)
                .hasMessageContaining("test.csv lists exchanges with no home region: [LSE]");
    }

    @Test
    void anUnknownSymbolIsNamed() {
        assertThat(UNIVERSE.find("ZZZZ")).isEmpty();
        assertThatThrownBy(() -> UNIVERSE.get("ZZZZ"))
                .isInstanceOf(UnknownSymbolException.class)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown symbol 'ZZZZ'");
    }

    @Test
    void aQuotedNameMayHoldCommasAndQuotes() {
        SymbolUniverse universe = parse("""
                # comments and blank lines are skipped

                symbol,exchange,name,price,volatility
                AAPL,NASDAQ,"Apple, Inc.",230.00,0.26
                BHP,ASX,"BHP ""Big Australian"" Group",42.50,"0.24"
                """);

        assertThat(universe.get("AAPL").name()).isEqualTo("Apple, Inc.");
        assertThat(universe.get("AAPL").price()).isEqualTo(new BigDecimal("230.00"));
        assertThat(universe.get("BHP").name()).isEqualTo("BHP \"Big Australian\" Group");
        assertThat(universe.get("BHP").volatility()).isEqualTo(0.24);
        assertThat(universe.listings()).extracting(Listing::symbol).containsExactly("AAPL", "BHP");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            XYZ,NYSE,Xyz Corp,-3,0.30                    | price must be > 0, was -3
            XYZ,NYSE,Xyz Corp,0.00,0.30                  | price must be > 0, was 0.00
            XYZ,NYSE,Xyz Corp,12.5O,0.30                 | price is not a decimal number: '12.5O'
            XYZ,NYSE,Xyz Corp,,0.30                      | price is not a decimal number: ''
            XYZ,NYSE,Xyz Corp,10.00,0                    | volatility must be > 0 and < 5, was 0.0
            XYZ,NYSE,Xyz Corp,10.00,5                    | volatility must be > 0 and < 5, was 5.0
            XYZ,NYSE,Xyz Corp,10.00,NaN                  | volatility is not a decimal number: 'NaN'
            xyz,NYSE,Xyz Corp,10.00,0.30                 | symbol must be upper-case letters, digits, '.' or '-', was 'xyz'
            XY Z,NYSE,Xyz Corp,10.00,0.30                | symbol must be
            ,NYSE,Xyz Corp,10.00,0.30                    | symbol must be
            XYZ,,Xyz Corp,10.00,0.30                     | exchange is missing
            XYZ,NYSE,,10.00,0.30                         | name is missing
            XYZ,NYSE,Xyz Corp,10.00                      | expected 5 fields (symbol,exchange,name,price,volatility), found 4
            XYZ,NYSE,Xyz, Corp,10.00,0.30                | expected 5 fields
            AAPL,NASDAQ,Apple Inc again,1.00,0.30        | duplicate symbol AAPL, first on line 3
            XYZ,NYSE,"Xyz Corp,10.00,0.30                | unterminated quoted field 3
            XYZ,NYSE,"Xyz" Corp,10.00,0.30               | text after a closing quote in field 3
            XYZ,NYSE,Xyz "The" Corp,10.00,0.30           | a quote inside unquoted field 3
            """)
    void aBadRowIsRefusedWithItsLineNumber(String row, String expected) {
        String csv = "# a comment\n" + SymbolUniverse.HEADER + "\nAAPL,NASDAQ,Apple Inc,230.00,0.26\n" + row + "\n";

        assertThatThrownBy(() -> parse(csv))
                .isInstanceOf(InvalidRegionsException.class)
                .hasMessageStartingWith("test.csv line 4: ")
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            `# only a comment\\n`                                 | test.csv has no header line
            `symbol,exchange,name,price,volatility\\n`             | test.csv lists no symbols
            `# comment\\nsymbol,exchange,name,price\\n`            | test.csv line 2: the header must be 'symbol,exchange,name,price,volatility', was 'symbol,exchange,name,price'
            `AAPL,NASDAQ,Apple Inc,230.00,0.26\\n`                 | test.csv line 1: the header must be
            """)
    void aFileWithoutHeaderOrListingsIsRefused(String csv, String expected) {
        assertThatThrownBy(() -> parse(csv.replace("\\n", "\n")))
                .isInstanceOf(InvalidRegionsException.class)
                .hasMessageContaining(expected);
    }

    @Test
    void aMissingFileIsNamed() {
        assertThatThrownBy(() -> SymbolUniverse.load(Path.of("no/such/symbols.csv")))
                .isInstanceOf(InvalidRegionsException.class)
                .hasMessageContaining("no/such/symbols.csv");
    }

    private static SymbolUniverse parse(String csv) {
        return SymbolUniverse.load(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)), "test.csv");
    }
}
