package io.tributary.clickhouse;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;

/**
 * Request-body compression for ClickHouse's HTTP interface, announced with {@code
 * Content-Encoding}. ClickHouse decompresses {@code lz4} (LZ4 frame format) and {@code zstd}
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

    /** The chunks, concatenated and compressed into one immutable body. */
    public byte[] compress(List<byte[]> chunks, long totalBytes) {
        ByteArrayOutputStream bos =
                new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 8, this == NONE ? totalBytes : totalBytes / 4 + 1024));
        try (OutputStream out = wrap(bos)) {
            for (byte[] c : chunks) {
                out.write(c);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("compressing a batch with " + this, e);
        }
        return bos.toByteArray();
    }

    /** The inverse of {@link #compress}: the concatenated chunks, {@code rawBytes} long. */
    public byte[] decompress(byte[] body, int rawBytes) {
        if (this == NONE) {
            return body;
        }
        try (InputStream in = this == LZ4
                ? new LZ4FrameInputStream(new ByteArrayInputStream(body))
                : new ZstdInputStream(new ByteArrayInputStream(body))) {
            byte[] raw = in.readNBytes(rawBytes);
            if (raw.length != rawBytes || in.read() != -1) {
                throw new IOException("expected " + rawBytes + " bytes");
            }
            return raw;
        } catch (IOException e) {
            throw new UncheckedIOException("decompressing a batch with " + this, e);
        }
    }

    private OutputStream wrap(OutputStream out) throws IOException {
        switch (this) {
            case LZ4:
                return new LZ4FrameOutputStream(out, LZ4FrameOutputStream.BLOCKSIZE.SIZE_4MB);
            case ZSTD:
                // Level 1: ClickHouse's own default for ZSTD; the server re-compresses on merge.
                return new ZstdOutputStream(out, 1);
            default:
                return out;
        }
    }
}
