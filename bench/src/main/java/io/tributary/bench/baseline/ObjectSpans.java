package io.tributary.bench.baseline;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.tributary.kafka.SourceRecord;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.OtlpDecoder;
import io.tributary.tables.AnyValues;
import io.tributary.tables.Hex;
import io.tributary.tables.traces.SpanKinds;

import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The baselines' decoder, the usual way: protobuf-java parses the record, and each span becomes a
 * {@link SpanRecord} of strings, maps and lists with the exporter's values (attributes ordered by
 * key, as the job writes them, so the stored rows are the same).
 */
public final class ObjectSpans implements FlatMapFunction<SourceRecord, SpanRecord> {

    private transient OtlpDecoder<ExportTraceServiceRequest> decoder;

    @Override
    public void flatMap(SourceRecord record, Collector<SpanRecord> out) throws Exception {
        if (decoder == null) {
            decoder = new OtlpDecoder<>(Encoding.AUTO, ExportTraceServiceRequest.getDefaultInstance());
        }
        for (ResourceSpans rs : decoder.decode(record.value).getResourceSpansList()) {
            Resource resource = rs.getResource();
            Map<String, String> resourceAttributes = map(resource.getAttributesList());
            String serviceName = "";
            for (KeyValue kv : resource.getAttributesList()) {
                if (kv.getKey().equals("service.name")) {
                    serviceName = AnyValues.asString(kv.getValue());
                    break;
                }
            }
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                for (Span span : ss.getSpansList()) {
                    SpanRecord s = new SpanRecord();
                    s.timestamp = instant(span.getStartTimeUnixNano());
                    s.traceId = Hex.idOrEmpty(span.getTraceId(), Hex.TRACE_ID_BYTES, "traceId");
                    s.spanId = Hex.idOrEmpty(span.getSpanId(), Hex.SPAN_ID_BYTES, "spanId");
                    s.parentSpanId = Hex.idOrEmpty(span.getParentSpanId(), Hex.SPAN_ID_BYTES, "parentSpanId");
                    s.traceState = span.getTraceState();
                    s.spanName = span.getName();
                    s.spanKind = SpanKinds.name(span.getKindValue());
                    s.serviceName = serviceName;
                    s.resourceAttributes = resourceAttributes;
                    s.scopeName = ss.getScope().getName();
                    s.scopeVersion = ss.getScope().getVersion();
                    s.spanAttributes = map(span.getAttributesList());
                    s.duration = span.getEndTimeUnixNano() - span.getStartTimeUnixNano();
                    s.statusCode = SpanKinds.statusCode(span.hasStatus() ? span.getStatus().getCodeValue() : 0);
                    s.statusMessage = span.getStatus().getMessage();
                    s.eventTimestamps = new ArrayList<>(span.getEventsCount());
                    s.eventNames = new ArrayList<>(span.getEventsCount());
                    s.eventAttributes = new ArrayList<>(span.getEventsCount());
                    for (Span.Event e : span.getEventsList()) {
                        s.eventTimestamps.add(instant(e.getTimeUnixNano()));
                        s.eventNames.add(e.getName());
                        s.eventAttributes.add(map(e.getAttributesList()));
                    }
                    s.linkTraceIds = new ArrayList<>(span.getLinksCount());
                    s.linkSpanIds = new ArrayList<>(span.getLinksCount());
                    s.linkTraceStates = new ArrayList<>(span.getLinksCount());
                    s.linkAttributes = new ArrayList<>(span.getLinksCount());
                    for (Span.Link l : span.getLinksList()) {
                        s.linkTraceIds.add(Hex.idOrEmpty(l.getTraceId(), Hex.TRACE_ID_BYTES, "links.traceId"));
                        s.linkSpanIds.add(Hex.idOrEmpty(l.getSpanId(), Hex.SPAN_ID_BYTES, "links.spanId"));
                        s.linkTraceStates.add(l.getTraceState());
                        s.linkAttributes.add(map(l.getAttributesList()));
                    }
                    out.collect(s);
                }
            }
        }
    }

    private static Map<String, String> map(List<KeyValue> attributes) {
        Map<String, String> m = new TreeMap<>();
        for (KeyValue kv : attributes) {
            m.putIfAbsent(kv.getKey(), AnyValues.asString(kv.getValue()));
        }
        return m;
    }

    private static Instant instant(long nanos) {
        return Instant.ofEpochSecond(Long.divideUnsigned(nanos, 1_000_000_000L), Long.remainderUnsigned(nanos, 1_000_000_000L));
    }
}
