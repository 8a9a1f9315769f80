package org.brokerapp.broker.peer;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.brokerapp.regions.RegionsModel;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Verifies a signed internal call ({@link PeerSigner}): the calling region must be a region of the
 * regions model with a configured public key (this region's own, for a hop between two of its
 * instances); the signature must cover this
 * exact method, path, customer, time and body; the time must be within {@code max-skew}. The one
 * verifier of every broker-to-broker call, applied to all of {@code /internal/**} by
 * {@link PeerAuthenticationFilter}.
 */
@Component
public class PeerVerifier {

    /** Why a call was refused; the message is one line. */
    public static final class Refused extends Exception {
        Refused(String reason) {
            super(reason);
        }
    }

    private final String region;
    private final Map<String, PublicKey> keys;
    private final Duration maxSkew;
    private final Clock clock;

    @Autowired
    public PeerVerifier(org.brokerapp.broker.system.BrokerProperties broker, PeerKeysProperties properties, RegionsModel regions) {
        this(broker.region(), properties.publicKeys().entrySet().stream()
                .filter(e -> regions.names().contains(e.getKey()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)), properties.maxSkew(), Clock.systemUTC());
    }

    PeerVerifier(String region, Map<String, String> base64PublicKeys, Duration maxSkew, Clock clock) {
        this.region = region;
        this.keys = base64PublicKeys.entrySet().stream().collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> publicKey(e.getValue())));
        this.maxSkew = maxSkew;
        this.clock = clock;
    }

    /** The verified call, or {@link Refused} saying why not. {@code headers} reads a request header by name (null if absent). */
    public PeerCall verify(String method, String pathAndQuery, Function<String, String> headers, byte[] body) throws Refused {
        String caller = headers.apply(PeerSignature.REGION);
        String customer = headers.apply(PeerSignature.CUSTOMER);
        String time = headers.apply(PeerSignature.TIME);
        String signed = headers.apply(PeerSignature.SIGNATURE);
        if (caller == null || customer == null || time == null || signed == null) {
            throw new Refused("an internal call must be signed by a region's broker (" + PeerSignature.REGION + ", " + PeerSignature.CUSTOMER + ", "
                    + PeerSignature.TIME + ", " + PeerSignature.SIGNATURE + ")");
        }
        PublicKey key = keys.get(caller);
        if (key == null) {
            throw new Refused("no region's broker is called '" + org.brokerapp.broker.system.Excerpt.of(caller) + "'");
        }
        long millis;
        try {
            millis = Long.parseLong(time);
        } catch (NumberFormatException e) {
            throw new Refused(PeerSignature.TIME + " is not a time");
        }
        if (Math.abs(clock.millis() - millis) > maxSkew.toMillis()) {
            throw new Refused("the call was signed more than " + maxSkew.toSeconds() + " s from now");
        }
        try {
            Signature signature = Signature.getInstance(PeerSignature.ALGORITHM);
            signature.initVerify(key);
            signature.update(PeerSignature.signedBytes(method, pathAndQuery, caller, customer, millis, body));
            if (!signature.verify(Base64.getDecoder().decode(signed))) {
                throw new Refused("the signature is not " + caller + "'s over this call");
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new Refused("the signature is not " + caller + "'s over this call");
        }
        return new PeerCall(caller, customer);
    }

    static PublicKey publicKey(String base64) {
        try {
            return KeyFactory.getInstance(PeerSignature.ALGORITHM).generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("broker.peers public key is not a base64 X.509 Ed25519 key", e);
        }
    }
}
