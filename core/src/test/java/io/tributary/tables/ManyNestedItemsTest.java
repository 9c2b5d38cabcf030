package io.tributary.tables;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.metrics.v1.Exemplar;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.Signal;
import io.tributary.schema.SchemaFlavor;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.management.ManagementFactory;

/**
 * From a review: a span of 500,000 empty events (or a point of 500,000 empty exemplars) is 1 MB of
 * record, under Kafka's default message size. Each such item once took a 1.5 KB attribute reader
 * that the reused view then kept, so one record ran a 512 MB heap out. Now an empty attribute list
 * allocates next to nothing, the views give large arrays back after the record, and the memory a
 * record takes is a small multiple of its rows.
 */
class ManyNestedItemsTest {

    private static final int ITEMS = 500_000;
    private static final long MAX_ALLOCATED = 160L << 20;

    private static long allocatedBytes(Runnable r) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        r.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    private static void decode(Signal signal, SchemaFlavor flavor, byte[] record, RecordRows rows) {
        try {
            RecordTranscoder.of(signal, Encoding.OTLP_PROTO, TableLayouts.canonical(flavor)).transcode(record, rows);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @EnumSource(SchemaFlavor.class)
    void aSpanOfHalfAMillionEmptyEventsTakesMemoryInProportionToItsRows(SchemaFlavor flavor) {
        Span.Builder span = Span.newBuilder().setName("s");
        for (int i = 0; i < ITEMS; i++) {
            span.addEvents(Span.Event.getDefaultInstance());
        }
        byte[] record = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(span))).build().toByteArray();
        assertThat(record.length).isLessThan(1_100_000);
        TableLayouts layouts = TableLayouts.canonical(flavor);
        RecordRows rows = new RecordRows(layouts);
        decode(Signal.TRACES, flavor, record, rows); // warm
        rows.clear();
        long allocated = allocatedBytes(() -> decode(Signal.TRACES, flavor, record, rows));
        assertThat(rows.rows(OtelTable.TRACES)).isEqualTo(1);
        assertThat(allocated).as("%s: %,d bytes allocated", flavor, allocated).isLessThan(MAX_ALLOCATED);
    }

    @ParameterizedTest
    @EnumSource(value = SchemaFlavor.class, names = "COROOT", mode = EnumSource.Mode.EXCLUDE) // no metrics tables
    void aPointOfHalfAMillionEmptyExemplarsTakesMemoryInProportionToItsRows(SchemaFlavor flavor) {
        NumberDataPoint.Builder point = NumberDataPoint.newBuilder().setAsDouble(1);
        for (int i = 0; i < ITEMS; i++) {
            point.addExemplars(Exemplar.getDefaultInstance());
        }
        byte[] record = ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
                .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(Metric.newBuilder().setName("m")
                        .setGauge(Gauge.newBuilder().addDataPoints(point))))).build().toByteArray();
        TableLayouts layouts = TableLayouts.canonical(flavor);
        RecordRows rows = new RecordRows(layouts);
        decode(Signal.METRICS, flavor, record, rows);
        rows.clear();
        long allocated = allocatedBytes(() -> decode(Signal.METRICS, flavor, record, rows));
        assertThat(rows.rows(OtelTable.METRICS_GAUGE)).isEqualTo(1);
        assertThat(allocated).as("%s: %,d bytes allocated", flavor, allocated).isLessThan(MAX_ALLOCATED);
    }
}
