package io.tributary.clickhouse.body;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The bytes of a request body as they were written: segments, each used up to its length. Never
 * modified once made; {@link #release} gives pooled segments back when no one reads them again.
 */
public final class Body {

    private final List<byte[]> segments;
    private final int[] lengths;
    private final long length;
    private final SegmentPool pool;
    private boolean released;

    Body(List<byte[]> segments, int[] lengths, SegmentPool pool) {
        this.segments = segments;
        this.lengths = lengths;
        long n = 0;
        for (int l : lengths) {
            n += l;
        }
        this.length = n;
        this.pool = pool;
    }

    /** A body of one array, all of it. */
    public static Body of(byte[] bytes) {
        return new Body(List.of(bytes), new int[] {bytes.length}, null);
    }

    public long length() {
        return length;
    }

    /** The body for {@link java.net.http.HttpClient}, of known length (sent with Content-Length). */
    public HttpRequest.BodyPublisher publisher() {
        if (segments.size() == 1) {
            return HttpRequest.BodyPublishers.ofByteArray(segments.get(0), 0, lengths[0]);
        }
        HttpRequest.BodyPublisher[] parts = new HttpRequest.BodyPublisher[segments.size()];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = HttpRequest.BodyPublishers.ofByteArray(segments.get(i), 0, lengths[i]);
        }
        return HttpRequest.BodyPublishers.concat(parts);
    }

    /** Reads the body from its start. */
    public InputStream inputStream() {
        List<InputStream> in = new ArrayList<>(segments.size());
        for (int i = 0; i < segments.size(); i++) {
            in.add(new java.io.ByteArrayInputStream(segments.get(i), 0, lengths[i]));
        }
        return new SequenceInputStream(Collections.enumeration(in));
    }

    /** The body in one array (a copy, unless it is one array already). */
    public byte[] toByteArray() {
        if (segments.size() == 1 && lengths[0] == segments.get(0).length) {
            return segments.get(0);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 8, length));
        for (int i = 0; i < segments.size(); i++) {
            out.write(segments.get(i), 0, lengths[i]);
        }
        return out.toByteArray();
    }

    /**
     * Gives pooled segments back; the body must not be read after. Idempotent; a body of no pool
     * (one read from a checkpoint, one made by {@link #of}) keeps its arrays.
     */
    public synchronized void release() {
        if (released || pool == null) {
            return;
        }
        released = true;
        for (byte[] s : segments) {
            pool.give(s);
        }
    }
}
