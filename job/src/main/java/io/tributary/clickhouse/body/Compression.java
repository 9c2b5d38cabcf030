package io.tributary.clickhouse.body;

import com.github.luben.zstd.ZstdInputStream;
import net.jpountz.lz4.LZ4FrameInputStream;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;

/**
 * Request-body compression for ClickHouse's HTTP interface, announced with {@code
 * Content-Encoding}; bodies are written compressed as they grow ({@link BodyWriter}). ClickHouse decompresses {@code lz4} (LZ4 frame format) and {@code zstd}
 * bodies itself; https://clickhouse.com/docs/interfaces/http#compression.
 */
public enum Compression {
    LZ4("lz4"),
    ZSTD("zstd"),
    NONE(null);

    private final String contentEncoding;

    Compression(String contentEncoding) {
        this.contentEncoding = contentEncoding;
    }

    /** The Content-Encoding header value, or null for an uncompressed body. */
    public String contentEncoding() {
        return contentEncoding;
    }

    /** Parses {@code lz4|zstd|none}. */
    public static Compression parse(String s) {
        switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "lz4":
                return LZ4;
            case "zstd":
                return ZSTD;
            case "none":
                return NONE;
            default:
                throw new IllegalArgumentException("must be one of lz4, zstd, none; got '" + s + "'");
        }
    }

    /** A writer of a body compressed this way, in segments of {@code pool}. */
    public BodyWriter open(SegmentPool pool) {
        switch (this) {
            case LZ4:
                return new BodyWriter.Lz4Frame(pool);
            case ZSTD:
                return new BodyWriter.Zstd(pool);
            default:
                return new BodyWriter.Plain(pool);
        }
    }

    /** The chunks, concatenated and compressed into one body (of segments no pool keeps). */
    public Body compress(List<byte[]> chunks) {
        BodyWriter w = open(new SegmentPool(0));
        for (byte[] c : chunks) {
            w.write(c, 0, c.length);
        }
        return w.finish();
    }

    /** The inverse of a writer's {@link BodyWriter#finish}: the bytes written, {@code rawBytes} of them. */
    public byte[] decompress(Body body, int rawBytes) {
        try (InputStream in = this == LZ4 ? new LZ4FrameInputStream(body.inputStream())
                : this == ZSTD ? new ZstdInputStream(body.inputStream()) : body.inputStream()) {
            byte[] raw = in.readNBytes(rawBytes);
            if (raw.length != rawBytes || in.read() != -1) {
                throw new IOException("expected " + rawBytes + " bytes");
            }
            return raw;
        } catch (IOException e) {
            throw new UncheckedIOException("decompressing a batch with " + this, e);
        }
    }
}
