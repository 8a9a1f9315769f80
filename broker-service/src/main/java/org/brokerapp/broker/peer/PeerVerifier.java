package org.brokerapp.broker.peer;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.util.PublicKeyFactory;
import org.brokerapp.regions.RegionsModel;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Verifies a signed internal call ({@link PeerSigner}): the calling region must be a region of the
 * regions model with a configured public key (this region's own, for a hop between two of its
 * instances); the signature must cover this exact method, path, this region as the destination,
 * customer, time, nonce and body; the time must be within {@code max-skew}; and the nonce must not
 * have been seen here within twice that (a replayed call is refused). The one
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
    private final Map<String, Ed25519PublicKeyParameters> keys;
    private final Duration maxSkew;
    private final Clock clock;
    /** Nonces of verified calls, in two generations of {@code max-skew} each: a call older than that is refused by its time. */
    private Set<String> recentNonces = ConcurrentHashMap.newKeySet();
    private Set<String> olderNonces = ConcurrentHashMap.newKeySet();
    private long generationStartMillis;

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
        this.generationStartMillis = clock.millis();
    }

    /** The verified call, or {@link Refused} saying why not. {@code headers} reads a request header by name (null if absent). */
    public PeerCall verify(String method, String pathAndQuery, Function<String, String> headers, byte[] body) throws Refused {
        String caller = headers.apply(PeerSignature.REGION);
        String customer = headers.apply(PeerSignature.CUSTOMER);
        String time = headers.apply(PeerSignature.TIME);
        String signed = headers.apply(PeerSignature.SIGNATURE);
        String nonce = headers.apply(PeerSignature.NONCE);
        if (caller == null || customer == null || time == null || signed == null || nonce == null) {
            throw new Refused("an internal call must be signed by a region's broker (" + PeerSignature.REGION + ", " + PeerSignature.CUSTOMER + ", "
                    + PeerSignature.TIME + ", " + PeerSignature.NONCE + ", " + PeerSignature.SIGNATURE + ")");
        }
        Ed25519PublicKeyParameters key = keys.get(caller);
        if (key == null) {
            throw new Refused("no region's broker is called '" + org.brokerapp.broker.web.Excerpt.of(caller) + "'");
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
        if (!verifies(key, PeerSignature.signedBytes(method, pathAndQuery, caller, region, customer, millis, nonce, body), signed)) {
            throw new Refused("the signature is not " + caller + "'s over this call to " + region);
        }
        if (!firstUseOf(nonce)) {
            throw new Refused("this call was taken before (" + PeerSignature.NONCE + " seen): a signed call is good once");
        }
        return new PeerCall(caller, customer);
    }

    /** Records a verified call's nonce; false if it was seen within the last two generations. */
    private synchronized boolean firstUseOf(String nonce) {
        long now = clock.millis();
        if (now - generationStartMillis >= maxSkew.toMillis()) {
            olderNonces = now - generationStartMillis >= 2 * maxSkew.toMillis() ? ConcurrentHashMap.newKeySet() : recentNonces;
            recentNonces = ConcurrentHashMap.newKeySet();
            generationStartMillis = now;
        }
        return !olderNonces.contains(nonce) && recentNonces.add(nonce);
    }

    /**
     * Whether an answer is {@code region}'s to the call of {@code nonce}: its signature covers that
     * region, the nonce, the status and the body. A caller acts on no other answer.
     */
    public boolean answeredBy(String region, String nonce, int status, byte[] body, String signature) {
        Ed25519PublicKeyParameters key = keys.get(region);
        return key != null && signature != null && verifies(key, PeerSignature.answerBytes(region, nonce, status, body), signature);
    }

    private static boolean verifies(Ed25519PublicKeyParameters key, byte[] signedBytes, String base64Signature) {
        byte[] signature;
        try {
            signature = Base64.getDecoder().decode(base64Signature);
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
        Ed25519Signer verifier = new Ed25519Signer();
        verifier.init(false, key);
        verifier.update(signedBytes, 0, signedBytes.length);
        return verifier.verifySignature(signature);
    }

    static Ed25519PublicKeyParameters publicKey(String base64) {
        try {
            if (PublicKeyFactory.createKey(Base64.getDecoder().decode(base64)) instanceof Ed25519PublicKeyParameters key) {
                return key;
            }
        } catch (IOException | RuntimeException e) {
            // not a key at all: the same answer as a key of another kind
        }
        throw new IllegalStateException("broker.peers public key is not a base64 X.509 Ed25519 key");
    }
}
