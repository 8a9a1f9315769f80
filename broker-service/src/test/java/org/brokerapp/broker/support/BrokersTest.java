package org.brokerapp.broker.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.brokerapp.infra.junit.LocalStackTest;
import org.junit.jupiter.api.extension.ExtendWith;

/** A test against both regional brokers running on the real local stack; a {@link Brokers} parameter receives them. */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@LocalStackTest
@ExtendWith(BrokersExtension.class)
public @interface BrokersTest {
}
