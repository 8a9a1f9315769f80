package org.brokerapp.broker.peer;

import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.util.PrivateKeyFactory;
import org.brokerapp.broker.system.BrokerProperties;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Signs a call this broker makes to another region's {@code /internal/**}: every internal call
 * goes through {@link #sign}, so the receiving broker knows which region sent it and for which
 * customer ({@link PeerVerifier}). The one signer of every broker-to-broker call.
 * <p>
 * Ed25519 (RFC 8032) by Bouncy Castle rather than the JDK's provider: the same keys and signatures,
 * at a tenth of the CPU (docs/benchmarks/log/2026-11-24-cross-region-market.md), on every routed order's path.
 */
@Component
public class PeerSigner {

    private final String region;
    private final Ed25519PrivateKeyParameters key;
    private final Clock clock;

    @Autowired
    public PeerSigner(BrokerProperties broker, PeerKeysProperties keys) {
        this(broker.region(), keys.privateKey() != null ? keys.privateKey() : keys.localPrivateKeys().get(broker.region()), Clock.systemUTC());
    }

    PeerSigner(String region, String base64PrivateKey, Clock clock) {
        this.region = region;
        this.key = base64PrivateKey == null ? null : privateKey(base64PrivateKey);
        this.clock = clock;
    }

    /**
     * The headers that sign a POST of {@code body} to {@code uri}, a broker of region {@code destination}, as this region
     * acting for {@code customerId}: good once, and only there.
     *
     * @throws IllegalStateException if this region has no private key ({@code broker.peers.private-key})
     */
    public Map<String, String> headers(URI uri, String destination, byte[] body, String customerId) {
        if (key == null) {
            throw new IllegalStateException("this broker has no signing key (broker.peers.private-key) for region " + region);
        }
        long now = clock.millis();
        String pathAndQuery = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        Ed25519Signer signature = new Ed25519Signer();
        signature.init(true, key);
        String nonce = UUID.randomUUID().toString();
        byte[] signed = PeerSignature.signedBytes("POST", pathAndQuery, region, destination, customerId, now, nonce, body);
        signature.update(signed, 0, signed.length);
        return Map.of(PeerSignature.REGION, region,
                PeerSignature.CUSTOMER, customerId,
                PeerSignature.TIME, Long.toString(now),
                PeerSignature.NONCE, nonce,
                PeerSignature.SIGNATURE, Base64.getEncoder().encodeToString(signature.generateSignature()));
    }

    /** The signature of this region's answer to the call of {@code nonce}: status and body, base64 (a header's value). */
    String signAnswer(String nonce, int status, byte[] body) {
        if (key == null) {
            throw new IllegalStateException("this broker has no signing key (broker.peers.private-key) for region " + region);
        }
        Ed25519Signer signature = new Ed25519Signer();
        signature.init(true, key);
        byte[] signed = PeerSignature.answerBytes(region, nonce, status, body);
        signature.update(signed, 0, signed.length);
        return Base64.getEncoder().encodeToString(signature.generateSignature());
    }

    static Ed25519PrivateKeyParameters privateKey(String base64) {
        try {
            if (PrivateKeyFactory.createKey(Base64.getDecoder().decode(base64)) instanceof Ed25519PrivateKeyParameters key) {
                return key;
            }
        } catch (IOException | RuntimeException e) {
            // not a key at all: the same answer as a key of another kind
        }
        throw new IllegalStateException("broker.peers private key is not a base64 PKCS#8 Ed25519 key");
    }
}
