package org.brokerapp.broker.peer;

import java.net.URI;
import java.net.http.HttpRequest;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.util.Base64;

import org.brokerapp.broker.system.BrokerProperties;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Signs a call this broker makes to another region's {@code /internal/**}: every internal call
 * goes through {@link #sign}, so the receiving broker knows which region sent it and for which
 * customer ({@link PeerVerifier}). The one signer of every broker-to-broker call.
 */
@Component
public class PeerSigner {

    private final String region;
    private final PrivateKey key;
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
     * A POST of {@code body} to {@code uri}, signed as this region acting for {@code customerId}.
     *
     * @throws IllegalStateException if this region has no private key ({@code broker.peers.private-key})
     */
    public HttpRequest.Builder post(URI uri, byte[] body, String customerId) {
        if (key == null) {
            throw new IllegalStateException("this broker has no signing key (broker.peers.private-key) for region " + region);
        }
        long now = clock.millis();
        String pathAndQuery = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        try {
            Signature signature = Signature.getInstance(PeerSignature.ALGORITHM);
            signature.initSign(key);
            signature.update(PeerSignature.signedBytes("POST", pathAndQuery, region, customerId, now, body));
            return HttpRequest.newBuilder(uri)
                    .header(PeerSignature.REGION, region)
                    .header(PeerSignature.CUSTOMER, customerId)
                    .header(PeerSignature.TIME, Long.toString(now))
                    .header(PeerSignature.SIGNATURE, Base64.getEncoder().encodeToString(signature.sign()))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static PrivateKey privateKey(String base64) {
        try {
            return KeyFactory.getInstance(PeerSignature.ALGORITHM).generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("broker.peers private key is not a base64 PKCS#8 Ed25519 key", e);
        }
    }
}
