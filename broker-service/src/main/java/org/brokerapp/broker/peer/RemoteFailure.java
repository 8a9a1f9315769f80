package org.brokerapp.broker.peer;

/** The home region answered, but not with an execution or a refusal of the order: it failed, so the call counts as failed. */
public class RemoteFailure extends RuntimeException {

    public RemoteFailure(String message) {
        super(message);
    }
}
