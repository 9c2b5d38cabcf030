package io.tributary.testing;

import io.tributary.sink.ClickHouseSink;
import io.tributary.sink.SealedBatch;
import io.tributary.tables.EncodedRows;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real ClickHouse sink, whose writer throws on command: a task failure at a moment the test
 * chooses. Works in-process (MiniCluster), where the command counter is shared. Keeps the real
 * sink's shape: with exactly-once delivery it has the real committer too.
 */
public class FailOnCommandSink implements Sink<EncodedRows> {
    private static final long serialVersionUID = 1L;

    /** Failures still to inject; each write that sees a positive value takes one and throws. */
    public static final AtomicInteger FAILURES = new AtomicInteger();

    final ClickHouseSink delegate;

    private FailOnCommandSink(ClickHouseSink delegate) {
        this.delegate = delegate;
    }

    /** The real sink, failing on command. */
    public static Sink<EncodedRows> wrap(ClickHouseSink delegate) {
        return delegate instanceof ClickHouseSink.ExactlyOnce ? new WithCommitter(delegate) : new FailOnCommandSink(delegate);
    }

    /** The exactly-once shape: the real committer and committables. */
    static final class WithCommitter extends FailOnCommandSink implements SupportsCommitter<SealedBatch> {
        private static final long serialVersionUID = 1L;

        WithCommitter(ClickHouseSink delegate) {
            super(delegate);
        }

        @Override
        public Committer<SealedBatch> createCommitter(CommitterInitContext context) throws IOException {
            return ((ClickHouseSink.ExactlyOnce) delegate).createCommitter(context);
        }

        @Override
        public SimpleVersionedSerializer<SealedBatch> getCommittableSerializer() {
            return ((ClickHouseSink.ExactlyOnce) delegate).getCommittableSerializer();
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public SinkWriter<EncodedRows> createWriter(WriterInitContext context) throws IOException {
        CommittingSinkWriter<EncodedRows, SealedBatch> w =
                (CommittingSinkWriter<EncodedRows, SealedBatch>) delegate.createWriter(context);
        return new CommittingSinkWriter<EncodedRows, SealedBatch>() {
            @Override
            public void write(EncodedRows element, Context c) throws IOException, InterruptedException {
                if (FAILURES.get() > 0 && FAILURES.getAndDecrement() > 0) {
                    throw new IOException("injected task failure");
                }
                w.write(element, c);
            }

            @Override
            public void flush(boolean endOfInput) throws IOException, InterruptedException {
                w.flush(endOfInput);
            }

            @Override
            public Collection<SealedBatch> prepareCommit() throws IOException, InterruptedException {
                return delegate instanceof ClickHouseSink.ExactlyOnce ? w.prepareCommit() : List.of();
            }

            @Override
            public void close() throws Exception {
                w.close();
            }
        };
    }
}
