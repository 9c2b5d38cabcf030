package io.tributary.services;

/**
 * A failure the user can act on: its message is printed as is after {@code tributary: error:}, so it
 * names the setting, file or service at fault and never holds a secret.
 */
public final class ServiceException extends RuntimeException {

    public ServiceException(String message) {
        super(message);
    }

    public ServiceException(String message, Throwable cause) {
        super(message, cause);
    }
}
