package org.brokerapp.broker.peer;

import java.util.Optional;

/** A broker's answer to a call from another: its status, its body, and when to call again if it said. */
public record PeerResponse(int status, String body, Optional<String> retryAfter) {
}
