package io.tributary.config;

/** An invalid setting; the message starts with the key. */
public final class ConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
