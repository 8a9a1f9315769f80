package org.brokerapp.broker.security;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Shows {@link SecretsCheck}'s reason as the start-up failure's description, without a stack trace. */
public class MissingSecretsAnalyzer extends AbstractFailureAnalyzer<SecretsCheck.MissingSecrets> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SecretsCheck.MissingSecrets cause) {
        return new FailureAnalysis(cause.getMessage(), "start with --spring.profiles.active=local on a laptop, or give the secrets", cause);
    }
}
