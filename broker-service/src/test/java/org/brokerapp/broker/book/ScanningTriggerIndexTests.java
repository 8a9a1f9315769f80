package org.brokerapp.broker.book;

class ScanningTriggerIndexTests extends TriggerIndexContractTests {

    @Override
    protected TriggerIndex newIndex() {
        return new ScanningTriggerIndex();
    }
}
