package io.tributary.nativeformat;

/** Where an encoded block goes: a request body, a buffer. */
@FunctionalInterface
public interface ByteSink {
    void write(byte[] b, int off, int len);
}
