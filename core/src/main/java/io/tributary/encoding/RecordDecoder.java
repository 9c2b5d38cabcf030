package io.tributary.encoding;

/** One encoding's decoding of records of one signal, for one thread. */
@FunctionalInterface
public interface RecordDecoder {

    /**
     * The record as its signal's OTLP export request in protobuf.
     *
     * @param value the record's value (not to be changed or kept)
     * @param headers the record's headers
     * @return the request's bytes: the whole array is the message; it may be a buffer the next
     *     call reuses, or {@code value} itself
     * @throws Exception when the record is not valid in this encoding: the message is the reason
     *     its dead letter gives, so it names what is wrong, never the record's content at length
     */
    byte[] decode(byte[] value, RecordHeaders headers) throws Exception;
}
