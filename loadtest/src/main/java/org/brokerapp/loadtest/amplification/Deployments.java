package org.brokerapp.loadtest.amplification;

/**
 * The regions files of the 1-, 2- and 3-DC experiment, one Cassandra node per DC (so RF 1 in
 * each). A region must home at least one exchange and every listed exchange needs a home, so the
 * single region homes all three exchanges, and the third region (London) takes NASDAQ from North
 * Virginia. The trades use NYSE symbols, homed in us-east-1 in all three, so each trade is placed
 * and filled in the same region and only replication differs. Every WAN link is 115 ms one way
 * (the latency does not change what is written, and one value keeps toxiproxy's
 * per-destination delay exact).
 */
public final class Deployments {

    public static final String TRADING_REGION = "us-east-1";
    public static final String TRADED_EXCHANGE = "NYSE";

    private Deployments() {
    }

    public static String regionsYaml(int datacenters) {
        String regions = switch (datacenters) {
            case 1 -> """
                      - {name: us-east-1, georegion: North Virginia, datacenter: us-east-1, exchanges: [NYSE, NASDAQ, ASX], cassandra-nodes: 1}
                    """;
            case 2 -> """
                      - {name: us-east-1, georegion: North Virginia, datacenter: us-east-1, exchanges: [NYSE, NASDAQ], cassandra-nodes: 1}
                      - {name: ap-southeast-2, georegion: Sydney, datacenter: ap-southeast-2, exchanges: [ASX], cassandra-nodes: 1}
                    """;
            case 3 -> """
                      - {name: us-east-1, georegion: North Virginia, datacenter: us-east-1, exchanges: [NYSE], cassandra-nodes: 1}
                      - {name: ap-southeast-2, georegion: Sydney, datacenter: ap-southeast-2, exchanges: [ASX], cassandra-nodes: 1}
                      - {name: eu-west-2, georegion: London, datacenter: eu-west-2, exchanges: [NASDAQ], cassandra-nodes: 1}
                    """;
            default -> throw new IllegalArgumentException("the experiment runs 1, 2 or 3 DCs, not " + datacenters);
        };
        return "# write-amplification experiment: " + datacenters + " DC(s), one Cassandra node each\nregions:\n" + regions
                + "wan:\n  default-one-way-latency-ms: 115\n";
    }
}
