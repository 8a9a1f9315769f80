package org.brokerapp.broker.peer;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The signed form of an internal call: the headers it carries and the exact bytes that are signed.
 * Method, path (with query), calling region, the region it is for, customer, time, a nonce and a
 * SHA-256 of the body, one per line: change any of them and the signature no longer verifies. The
 * destination binds a call to the region it was made for (no other region takes it); the nonce
 * makes each call once only ({@link PeerVerifier} refuses one it has seen).
 */
final class PeerSignature {

    static final String REGION = "X-Peer-Region";
    static final String CUSTOMER = "X-Peer-Customer";
    static final String TIME = "X-Peer-Time";
    static final String SIGNATURE = "X-Peer-Signature";
    static final String NONCE = "X-Peer-Nonce";
    /** On an answer: the answering region's signature over the call's nonce, the status and the body ({@link #answerBytes}). */
    static final String ANSWER_SIGNATURE = "X-Peer-Answer-Signature";

    private PeerSignature() {
    }

    /** The signed form of an answer: bound to the region answering, the call it answers (its nonce), its status and body. */
    static byte[] answerBytes(String region, String nonce, int status, byte[] body) {
        return signedBytes("ANSWER", "", region, "", "", status, nonce, body);
    }

    static byte[] signedBytes(String method, String pathAndQuery, String region, String destination, String customerId, long epochMillis,
                              String nonce, byte[] body) {
        try {
            String bodyHash = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(body));
            return String.join("\n", method, pathAndQuery, region, destination, customerId, Long.toString(epochMillis), nonce, bodyHash)
                    .getBytes(StandardCharsets.UTF_8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
