package org.brokerapp.broker.matching;

class ScanningTriggerIndexTests extends TriggerIndexContractTests {

    @Override
    protected TriggerIndex newIndex() {
        return new ScanningTriggerIndex();
    }
}
