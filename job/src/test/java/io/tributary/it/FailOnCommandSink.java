package io.tributary.it;

import io.tributary.sink.EncodedRows;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real ClickHouse sink, whose writer throws on command: a task failure at a moment the test
 * chooses. Works in-process (MiniCluster), where the command counter is shared.
 */
final class FailOnCommandSink implements Sink<EncodedRows> {
    private static final long serialVersionUID = 1L;

    /** Failures still to inject; each write that sees a positive value takes one and throws. */
    static final AtomicInteger FAILURES = new AtomicInteger();

    private final Sink<EncodedRows> delegate;

    FailOnCommandSink(Sink<EncodedRows> delegate) {
        this.delegate = delegate;
    }

    @Override
    public SinkWriter<EncodedRows> createWriter(WriterInitContext context) throws IOException {
        SinkWriter<EncodedRows> w = delegate.createWriter(context);
        return new SinkWriter<>() {
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
            public void close() throws Exception {
                w.close();
            }
        };
    }
}
