package org.brokerapp.ticker.publish;

/** What the feed says about an exception: its deepest cause's message, one line. */
final class ErrorMessages {

    private ErrorMessages() {
    }

    static String root(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.lines().findFirst().orElse(message);
    }
}
