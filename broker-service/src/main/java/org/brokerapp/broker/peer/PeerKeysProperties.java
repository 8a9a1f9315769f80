package org.brokerapp.broker.peer;

import java.time.Duration;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The keys brokers sign their calls to each other with ({@link PeerSigner}, {@link PeerVerifier}).
 * Each region has its own Ed25519 key pair: its private key signs what it sends, every region knows
 * every region's public key. A leaked key lets its holder speak for its own region only: a batch of
 * events must name its signer's region, and a region reports only what it decides (relay.EventAuthority;
 * {@code EventSeamsIT}); a call is good once and only in the region it was signed for, and an answer
 * counts only if the region called signed it ({@code PeerSignaturesTests}).
 *
 * @param privateKey      base64 PKCS#8 of this region's private key (required outside the local profile; secret,
 *                        per region)
 * @param localPrivateKeys the local profile's private keys by region, so that one config file serves the local
 *                        stack's every region; ignored when {@code privateKey} is set
 * @param publicKeys      base64 X.509 of every region's public key, by region (not secret; the same in every region)
 * @param maxSkew         a signed call older or newer than this by the receiver's clock is refused (covers clock skew
 *                        and the WAN; a replay within it is harmless: every internal call is idempotent)
 */
@ConfigurationProperties("broker.peers")
public record PeerKeysProperties(String privateKey, @DefaultValue Map<String, String> localPrivateKeys,
                                 @DefaultValue Map<String, String> publicKeys, @DefaultValue("30s") Duration maxSkew) {
}
