package org.brokerapp.loadtest.amplification;

import java.util.Map;

/**
 * What one DC's nodes did over a measured interval.
 *
 * @param datacenter        the DC
 * @param nodes             its Cassandra nodes
 * @param replicationFactor the keyspace's RF in this DC (from the regions model)
 * @param plainMutations    plain partition updates coordinated by this DC's nodes (the clients' writes sent here)
 * @param casMutations      conditional writes (LWT) coordinated here
 * @param replicaWrites     partition updates applied on this DC's replicas, whoever coordinated them
 * @param replicaWritesByTable the same, per table
 * @param paxosWrites       Paxos state rows written on this DC's nodes
 * @param crossDcOut        internode traffic this DC's nodes sent to other DCs
 * @param crossDcIn         internode traffic other DCs' nodes sent to this DC
 * @param cpuSeconds        CPU time of this DC's Cassandra JVMs, summed
 * @param crossDcMetered    whether every link between this DC's nodes and other DCs' nodes was metered (else the traffic is a lower bound)
 */
public record DcAmplification(String datacenter, int nodes, int replicationFactor, long plainMutations, long casMutations,
                              long replicaWrites, Map<String, Long> replicaWritesByTable, long paxosWrites,
                              PeerTraffic crossDcOut, PeerTraffic crossDcIn, double cpuSeconds, boolean crossDcMetered) {

    public DcAmplification {
        replicaWritesByTable = Map.copyOf(replicaWritesByTable);
    }

    public long clientMutations() {
        return plainMutations + casMutations;
    }
}
