package org.brokerapp.broker.peer;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The signed form of an internal call: the headers it carries and the exact bytes that are signed.
 * Method, path (with query), calling region, customer, time and a SHA-256 of the body, one per
 * line: change any of them and the signature no longer verifies.
 */
final class PeerSignature {

    static final String REGION = "X-Peer-Region";
    static final String CUSTOMER = "X-Peer-Customer";
    static final String TIME = "X-Peer-Time";
    static final String SIGNATURE = "X-Peer-Signature";

    private PeerSignature() {
    }

    static byte[] signedBytes(String method, String pathAndQuery, String region, String customerId, long epochMillis, byte[] body) {
        try {
            String bodyHash = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(body));
            return String.join("\n", method, pathAndQuery, region, customerId, Long.toString(epochMillis), bodyHash).getBytes(StandardCharsets.UTF_8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
