package org.brokerapp.broker.support;

import org.brokerapp.infra.junit.LocalStackExtension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** Starts the brokers once per test run, after the stack, and closes them before it. */
public final class BrokersExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(BrokersExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Brokers.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        var stack = LocalStackExtension.stack(context);
        return context.getRoot().getStore(NAMESPACE).computeIfAbsent(Brokers.class, k -> Brokers.start(stack), Brokers.class);
    }
}
