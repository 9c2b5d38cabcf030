package io.tributary.clickhouse.body;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.clickhouse.ClickHouseClient;
import io.tributary.clickhouse.body.Body;
import io.tributary.clickhouse.body.BodyWriter;
import io.tributary.clickhouse.body.Compression;
import io.tributary.clickhouse.body.SegmentPool;
import io.tributary.rowbinary.RowBinaryWriter;
import io.tributary.testing.RealServices;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * The request bodies the sink writes, as the real ClickHouse reads them: several blocks and
 * segments, compressible rows and rows LZ4 stores as they are, each compression.
 */
class CompressedBodiesITCase {

    @ParameterizedTest
    @EnumSource(Compression.class)
    void clickHouseReadsEveryRowOfABodyOfManyBlocks(Compression c) throws Exception {
        ClickHouseClient ch = RealServices.clickHouse();
        String t = "`default`." + RealServices.uniqueName("bodies_" + c.name().toLowerCase());
        ch.execute("CREATE TABLE " + t + " (n UInt32, s String) ENGINE = MergeTree ORDER BY n");
        SplittableRandom r = new SplittableRandom(11);
        BodyWriter w = c.open(new SegmentPool(2));
        RowBinaryWriter row = new RowBinaryWriter(1 << 16);
        long bytes = 0;
        long crcSum = 0;
        int rows = 0;
        CRC32 crc = new CRC32();
        while (bytes < 5L * SegmentPool.BLOCK) {
            row.reset();
            byte[] s = new byte[r.nextInt(40_000)];
            if (rows % 3 == 0) {
                r.nextBytes(s); // incompressible: LZ4 keeps such a block as it is
            } else {
                for (int i = 0; i < s.length; i++) {
                    s[i] = (byte) ('a' + i % 7);
                }
            }
            row.writeUInt32(rows);
            row.writeString(s);
            w.write(row.buffer(), 0, row.size());
            crc.reset();
            crc.update(s);
            crcSum += crc.getValue();
            bytes += row.size();
            rows++;
        }
        Body body = w.finish();
        ch.insert("INSERT INTO " + t + " FORMAT RowBinary", Map.of(), body, c);
        assertThat(ch.query("SELECT count(), sum(n), sum(CRC32(s)) FROM " + t + " FORMAT TSV"))
                .isEqualTo(rows + "\t" + ((long) rows * (rows - 1) / 2) + "\t" + crcSum + "\n");
        ch.execute("DROP TABLE " + t);
    }
}
