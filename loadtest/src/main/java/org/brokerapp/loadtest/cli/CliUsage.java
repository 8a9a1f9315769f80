package org.brokerapp.loadtest.cli;

import org.brokerapp.loadtest.workload.Preset;

/** The usage of {@code loadtest/bin/loadtest}, as {@code --help} prints it. */
final class CliUsage {

    private CliUsage() {
    }

    static final String TEXT = """
            usage: loadtest/bin/loadtest [--preset demo|smoke|prototype|small|medium] [options]

            Loads the brokers open-model (every operation at its intended time, latency from that time), times a bare
            LOCAL_QUORUM write beside them, checks every ledger afterwards and writes summary.md, results.json and
            report.html. With no target options it starts the local stack (instance 5) and a broker per region, and
            stops them at the end (also on Ctrl-C).

            presets (every value below can be overridden):
              demo       %s
              smoke      %s
              prototype  %s
              small      %s
              medium     %s   (default: small)

            target:
              --instance N            local stack instance to start (default 5; tests use 1)
              --work-dir DIR          its work directory (default loadtest/target/stack-<instance>, wiped first)
              --nodes-per-dc N        its Cassandra nodes per DC, 1 to 3 (default: the regions model's; RF = min(3, N))
              --brokers-per-region N  broker instances per region, 1 to 4 (default 1); more than one run behind the region's
                                      one address (a TCP front, as a load balancer), sharing its symbols and customers
              --tls                   the stack with TLS on CQL, Kafka and the brokers' HTTP; the harness's own clients
                                      (orders, floor writes, ticks, scrapes) then trust the stack's CA
              --broker-jar FILE       broker-service jar (default broker-service/target/broker-service-0.1.0-SNAPSHOT.jar)
              --broker-arg ARG        extra argument for every broker started, e.g. --broker-arg --broker.matching.open-order-shards=16
              --broker REGION=URL     an existing deployment instead: a region's broker (repeat per region) ...
              --kafka REGION=HOST:PORT  ... its Kafka bootstrap for ticks (repeat per region) ...
              --cql REGION=HOST:PORT[+HOST:PORT]/DC  ... and where the floor writes go (optional; no floor without)
              --cql-login ROLE=FILE   with --cql or --target-terraform: the floor logs in to Cassandra as ROLE, its password
                                      the first line of FILE (Terraform's nodes take only logins, over TLS)
              --target-terraform FILE  an existing deployment from `terraform output -json` of terraform/examples/multi-region
                                (or the local stack's <work-dir>/terraform-outputs.json): every region's broker, Kafka and CQL
              --regions FILE          the regions model (default infra/regions.yaml)

            load:
              --orders N              orders per second, all regions (0: ticks only)
              --ticks N               ticks per second, all regions, split by symbol count
              --mix LIMIT=a,STOP=b,MARKET=c   weights of the order types
              --market SHARE          shortcut: MARKET share 0..1, LIMIT and STOP keep their proportion
              --buy-share SHARE       share of BUY orders (SELLs sell shares bought in a priming phase)
              --marketable SHARE      share of LIMIT/STOP orders the next tick fills (the rest rest far away)
              --cross-region SHARE    share of orders placed outside the symbol's home region
              --symbols REGION=N,...  symbols traded per region
              --customers N           load customers load-1..N (brokers are started with as many)
              --ramp-up S  --warm-up S  --duration S  --drain S   seconds (or 90s, 2m)
              --floor-rate N          bare LOCAL_QUORUM writes per second (default: the preset's, scaled with --orders)
              --no-floor              no floor writes
              --prime-shares N        shares of each traded symbol bought per customer before SELLs (default 1000)
              --seed N                random seed of orders and ticks

            SLA search (steps the load up until p99 ticker-to-fill breaks the SLA; orders, ticks and floor scale together):
              --sla-search            run the search instead of one load level
              --sla-ms MS             the SLA (default 10)
              --sla-start N           first step's orders/s (default --orders)
              --sla-step N            added per step (default: the start rate)  |  --sla-factor F  multiply per step
              --sla-max-steps N       at most this many steps (default 8)

            drill (local target; loadtest/bin/drill NAME runs the demo preset with one):
              --drill broker-kill|kafka-kill|cassandra-kill|disk-full|commitlog-full|region-cut|clock-skew
                                      inject the failure during the measured window:
                                      kill -9 a region's broker, its Kafka or one of its Cassandra nodes (not a seed;
                                      needs --nodes-per-dc 3) and start it again, fill that node's data or commit log disk
                                      (root: a tmpfs is mounted for it), cut a region off the WAN and heal it, or step a region's broker
                                      clock 2 s ahead for the rest of the run (needs libfaketime: apt-get install faketime)
              --drill-region REGION   where (default: the first region of the model)
              --drill-at S            how far into the window it starts (default: a third of --duration)
              --drill-length S        how long the cut lasts, the killed server stays down or the disk stays full
                                      (default 60s cut, 0s down, 30s full)

            output:
              --results DIR           results directory (default loadtest/target/results/<timestamp>)
              --progress-every S      a progress line every S seconds (default 5)
              --opening-cash N        each load customer's opening cash, for the check (default 10000000.00)
              --no-check              skip the correctness check
              --idle-baseline S       local target: measure CPU and Cassandra counters at rest for S seconds before the load, once
                                      the servers' CPU rate over 30-s steps stops falling, below 90 %% of the cores (at least S, at
                                      most 10 min), and report per-order figures with that rate subtracted (default 30; 0: none)
            """.formatted(Preset.DEMO.description(), Preset.SMOKE.description(), Preset.PROTOTYPE.description(), Preset.SMALL.description(), Preset.MEDIUM.description());
}
