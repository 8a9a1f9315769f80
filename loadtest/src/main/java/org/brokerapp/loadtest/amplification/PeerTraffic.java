package org.brokerapp.loadtest.amplification;

/** Internode messages and bytes sent to one peer (or summed over several). */
public record PeerTraffic(long messages, long bytes) {

    public static final PeerTraffic NONE = new PeerTraffic(0, 0);

    public PeerTraffic plus(PeerTraffic other) {
        return new PeerTraffic(messages + other.messages, bytes + other.bytes);
    }

    public PeerTraffic minus(PeerTraffic earlier) {
        return new PeerTraffic(messages - earlier.messages, bytes - earlier.bytes);
    }
}
