package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.ConfigException;
import io.tributary.config.TributaryConfig;
import io.tributary.deadletter.DeadLetterSerializer;
import io.tributary.otlp.Signal;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.schema.TableEngine;
import io.tributary.sink.Delivery;
import io.tributary.testing.RealServices;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code clickhouse.schema = coroot} on the real services: {@code schema create} makes Coroot's
 * tables and views, a job writes a known corpus of spans and log records into them (traces in
 * protobuf, logs in OTLP/JSON), and Coroot's own read queries return what Coroot would show. The
 * queries are those of coroot/coroot at 370a33f, {@code clickhouse/traces.go} ({@code
 * GetServicesFromTraces}, {@code GetTraceSpanStats} in its raw and histogram-view forms, {@code
 * GetRootSpans}, {@code GetSpansByServiceName}, {@code GetSpansByTraceId}, {@code GetTraceErrors})
 * and {@code clickhouse/logs.go} ({@code GetServicesFromLogs}, {@code GetLogsHistogram}), with
 * their {@code @param}s bound as clickhouse-go binds them ({@code toDateTime64('…', 9)}).
 */
class CorootITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    private static final long T0 = Instant.parse("2026-01-15T10:00:00Z").getEpochSecond() * 1_000_000_000L;
    private static final long MS = 1_000_000L;
    /** {@code @from} and {@code @to} of Coroot's queries: the hour around the corpus. */
    private static final String FROM = "toDateTime64('2026-01-15 09:30:00.000000000', 9)";
    private static final String TO = "toDateTime64('2026-01-15 10:30:00.000000000', 9)";
    private static final String BUCKETS = "[0, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000]";

    /** In both delivery modes: exactly once is what tables.md recommends for Coroot's summing views. */
    @ParameterizedTest
    @EnumSource(Delivery.class)
    void coroots_own_queries_show_the_corpus(Delivery delivery) throws Exception {
        String p = RealServices.uniqueName("it_coroot");
        String spans = p + "_spans", logs = p + "_logs", dlq = p + "_dlq";
        for (String t : List.of(spans, logs, dlq)) {
            RealServices.createTopic(t, 1);
        }
        RealServices.produce(spans, List.of(traces().toByteArray(), badTraceId().toByteArray()));
        RealServices.produce(logs, List.of(OtlpJsonWriter.write(logRecords())));

        TributaryConfig config = TributaryConfig.fromArgs(new String[] {
            "--clickhouse.schema", "coroot",
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", spans,
            "--kafka.topics.logs", logs,
            "--kafka.group-id", p,
            "--kafka.bounded", "true",
            "--kafka.starting-offsets", "earliest",
            "--dlq.topic", dlq,
            "--parallelism", "1",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", p,
            "--checkpoint.interval", "1h",
            "--sink.delivery", delivery.id()
        });
        assertThat(config.signals()).as("coroot has no metrics tables: the default signals leave metrics out")
                .containsExactly(Signal.TRACES, Signal.LOGS);
        // no TTL (Coroot's default of 7 days would expire the corpus's fixed times while the test reads them)
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), config, TableEngine.MERGE_TREE, java.time.Duration.ZERO);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TributaryTopology.build(env, config);
        env.execute("coroot");

        // the dead letter: an id of the wrong length
        List<String> reasons = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> letter : RealServices.consumeAll(dlq)) {
            reasons.add(RealServices.header(letter, DeadLetterSerializer.ERROR_MESSAGE));
        }
        assertThat(reasons).hasSize(1);
        assertThat(reasons.get(0)).contains("spanId must be 8 bytes, got 5");

        // every column of every span, as Coroot's collector writes them; NetSockPeerAddr is Coroot's MATERIALIZED column
        assertThat(q(p, "SELECT Timestamp, TraceId, SpanId, ParentSpanId, TraceState, SpanName, SpanKind, ServiceName,"
                + " ResourceAttributes, SpanAttributes, Duration, StatusCode, StatusMessage, Events.Timestamp, Events.Name,"
                + " Events.Attributes, Links.TraceId, Links.SpanId, Links.TraceState, Links.Attributes, NetSockPeerAddr"
                + " FROM otel_traces ORDER BY Timestamp, SpanKind")).containsExactly(
                "2026-01-15 10:00:00.000000000\t" + hex(0xA, 16) + "\t" + hex(1, 8) + "\t\t\tGET /checkout\tSPAN_KIND_SERVER\tfrontend\t"
                        + "{'host.name':'h1','service.name':'frontend'}\t"
                        + "{'blob':'hi','ctx':'{\"k\":\"v\"}','http.method':'GET','http.status_code':'500','otel.scope.name':'io.opentelemetry.http',"
                        + "'otel.scope.version':'1.2.3','ratio':'0.25','retry':'true','tags':'[\"a\",\"1\",\"1e+21 is 1000000000000000000000\"]',"
                        + "'too.big':'1000000000000000000000'}\t"
                        + "120000000\tSTATUS_CODE_ERROR\tcard declined\t['2026-01-15 10:00:00.100000000']\t['exception']\t"
                        + "[{'exception.type':'IOError'}]\t[]\t[]\t[]\t[]\t",
                "2026-01-15 10:00:00.010000000\t" + hex(0xA, 16) + "\t" + hex(2, 8) + "\t" + hex(1, 8) + "\t\tPOST /pay\tSPAN_KIND_CLIENT\tfrontend\t"
                        + "{'host.name':'h1','service.name':'frontend'}\t"
                        + "{'net.peer.name':'payments','net.peer.port':'8080','net.sock.peer.addr':'10.0.0.5',"
                        + "'otel.scope.name':'io.opentelemetry.http','otel.scope.version':'1.2.3'}\t"
                        + "80000000\tSTATUS_CODE_UNSET\t\t[]\t[]\t[]\t['" + hex(0xB, 16) + "']\t['" + hex(5, 8) + "']\t['x=1']\t"
                        + "[{'link.kind':'follows'}]\t10.0.0.5",
                "2026-01-15 10:00:00.015000000\t" + hex(0xA, 16) + "\t" + hex(3, 8) + "\t" + hex(2, 8) + "\tk=v\tPOST /pay\tSPAN_KIND_SERVER\tpayments\t"
                        + "{'service.name':'payments'}\t{}\t70000000\tSTATUS_CODE_OK\t\t[]\t[]\t[]\t[]\t[]\t[]\t[]\t",
                "2026-01-15 10:01:00.000000000\t" + hex(0xC, 16) + "\t" + hex(4, 8) + "\t\t\tcron\tSPAN_KIND_INTERNAL\tpayments\t"
                        + "{'service.name':'payments'}\t{}\t3000000\tSTATUS_CODE_UNSET\t\t[]\t[]\t[]\t[]\t[]\t[]\t[]\t",
                "2026-01-15 10:02:00.000000000\t" + hex(0xB, 16) + "\t" + hex(5, 8) + "\t" + hex(9, 8) + "\t\torders process\tSPAN_KIND_CONSUMER\tpayments\t"
                        + "{'service.name':'payments'}\t{}\t30000000\tSTATUS_CODE_UNSET\t\t[]\t[]\t[]\t[]\t[]\t[]\t[]\t",
                "2026-01-15 10:03:00.000000000\t" + hex(0xD, 16) + "\t" + hex(6, 8) + "\t\t\tGET /home\tSPAN_KIND_SERVER\tfrontend\t"
                        + "{'host.name':'h1','service.name':'frontend'}\t{'otel.scope.name':'io.opentelemetry.http','otel.scope.version':'1.2.3'}\t"
                        + "7000000\tSTATUS_CODE_UNSET\t\t[]\t[]\t[]\t[]\t[]\t[]\t[]\t",
                "2026-01-15 10:04:00.000000000\t" + hex(0xE, 16) + "\t" + hex(7, 8) + "\t\t\tquery\tSPAN_KIND_SERVER\t/k8s/default/db\t"
                        + "{'service.name':'/k8s/default/db'}\t{}\t600000000\tSTATUS_CODE_ERROR\t\t[]\t[]\t[]\t[]\t[]\t[]\t[]\t");

        // GetServicesFromTraces / GetServicesFromLogs
        assertThat(q(p, "SELECT DISTINCT ServiceName FROM otel_traces_service_name WHERE LastSeen >= " + FROM + " ORDER BY 1"))
                .containsExactly("/k8s/default/db", "frontend", "payments");
        assertThat(q(p, "SELECT DISTINCT ServiceName FROM otel_logs_service_name_severity_text WHERE LastSeen >= " + FROM))
                .containsExactly("frontend");

        // GetTraceSpanStats: the latency histogram and error counts of root spans, from the spans and from Coroot's view
        List<String> stats = List.of("frontend\tGET /checkout\t100\t1\t1", "frontend\tGET /home\t5\t1\t0", "payments\tcron\t0\t1\t0");
        assertThat(q(p, "SELECT ServiceName, SpanName, roundDown(Duration/1000000, " + BUCKETS + "), count(1),"
                + " countIf(StatusCode = 'STATUS_CODE_ERROR') FROM otel_traces WHERE ParentSpanId = '' AND NOT startsWith(ServiceName, '/')"
                + " AND Timestamp BETWEEN " + FROM + " AND " + TO + " GROUP BY 1, 2, 3 ORDER BY 1, 2")).isEqualTo(stats);
        assertThat(q(p, "SELECT ServiceName, SpanName, Bucket, sum(Total), sum(Failed) FROM otel_traces_histogram WHERE Root = 1"
                + " AND NOT startsWith(ServiceName, '/') AND Timestamp >= " + FROM + " AND Timestamp < " + TO
                + " GROUP BY 1, 2, 3 ORDER BY 1, 2")).isEqualTo(stats);
        // the client span's histogram row, by peer: Coroot's service map edges
        assertThat(q(p, "SELECT ServiceName, SpanKind, NetSockPeerAddr, NetPeerName, NetPeerPort, Bucket, Total, Failed"
                + " FROM otel_traces_histogram WHERE Root = 0 AND SpanKind = 'SPAN_KIND_CLIENT'"))
                .containsExactly("frontend\tSPAN_KIND_CLIENT\t10.0.0.5\tpayments\t8080\t50\t1\t0");

        // GetRootSpans (the overview's list of the slowest and failed requests)
        String roots = "ParentSpanId = '' AND NOT startsWith(ServiceName, '/') AND Timestamp >= " + FROM + " AND Timestamp < " + TO;
        assertThat(q(p, "SELECT Timestamp, TraceId, SpanName, ServiceName, Duration, StatusCode FROM otel_traces WHERE " + roots
                + " AND Timestamp >= (SELECT min(Timestamp) FROM (SELECT Timestamp FROM otel_traces WHERE " + roots
                + " ORDER BY Timestamp DESC LIMIT 100)) ORDER BY Timestamp DESC LIMIT 100")).containsExactly(
                "2026-01-15 10:03:00.000000000\t" + hex(0xD, 16) + "\tGET /home\tfrontend\t7000000\tSTATUS_CODE_UNSET",
                "2026-01-15 10:01:00.000000000\t" + hex(0xC, 16) + "\tcron\tpayments\t3000000\tSTATUS_CODE_UNSET",
                "2026-01-15 10:00:00.000000000\t" + hex(0xA, 16) + "\tGET /checkout\tfrontend\t120000000\tSTATUS_CODE_ERROR");

        // GetSpansByServiceName: a service's server and consumer spans and its internal roots
        assertThat(q(p, "SELECT SpanName, SpanKind FROM otel_traces WHERE ServiceName = 'payments' AND (SpanKind = 'SPAN_KIND_SERVER'"
                + " OR SpanKind = 'SPAN_KIND_CONSUMER' OR (SpanKind = 'SPAN_KIND_INTERNAL' AND ParentSpanId = '')) AND Timestamp >= "
                + FROM + " AND Timestamp < " + TO + " ORDER BY Timestamp DESC LIMIT 100")).containsExactly(
                "orders process\tSPAN_KIND_CONSUMER", "cron\tSPAN_KIND_INTERNAL", "POST /pay\tSPAN_KIND_SERVER");

        // GetSpansByTraceId: the trace's time range from Coroot's trace-id table, then its spans
        String traceA = "'" + hex(0xA, 16) + "'";
        assertThat(q(p, "SELECT min(Start), max(End)+1 FROM otel_traces_trace_id_ts WHERE TraceId = " + traceA))
                .containsExactly("2026-01-15 10:00:00.000000000\t2026-01-15 10:00:01.015000000");
        assertThat(q(p, "SELECT SpanId, ParentSpanId, SpanName, ServiceName, Duration, StatusCode FROM otel_traces WHERE TraceId = "
                + traceA + " AND Timestamp >= (SELECT min(Start) FROM otel_traces_trace_id_ts WHERE TraceId = " + traceA + ")"
                + " AND Timestamp < (SELECT max(End)+1 FROM otel_traces_trace_id_ts WHERE TraceId = " + traceA + ") ORDER BY Timestamp"))
                .containsExactly(
                        hex(1, 8) + "\t\tGET /checkout\tfrontend\t120000000\tSTATUS_CODE_ERROR",
                        hex(2, 8) + "\t" + hex(1, 8) + "\tPOST /pay\tfrontend\t80000000\tSTATUS_CODE_UNSET",
                        hex(3, 8) + "\t" + hex(2, 8) + "\tPOST /pay\tpayments\t70000000\tSTATUS_CODE_OK");

        // GetTraceErrors: traces whose root failed
        assertThat(q(p, "SELECT count(1), groupArray(distinct TraceId) FROM (SELECT TraceId FROM otel_traces WHERE ParentSpanId = ''"
                + " AND NOT startsWith(ServiceName, '/') AND StatusCode = 'STATUS_CODE_ERROR' AND Timestamp >= " + FROM
                + " AND Timestamp < " + TO + " ORDER BY Timestamp DESC LIMIT 200)")).containsExactly("1\t[" + traceA + "]");

        // every column of every log record; the one of negative time is left out, as Coroot's collector leaves it
        assertThat(q(p, "SELECT Timestamp, TraceId, SpanId, TraceFlags, SeverityText, SeverityNumber, ServiceName, Body,"
                + " ResourceAttributes, LogAttributes FROM otel_logs ORDER BY Timestamp")).containsExactly(
                "1970-01-01 00:00:00.000000000\t\t\t0\t\t0\tfrontend\tno time\t{'host.name':'h1','service.name':'frontend'}\t"
                        + "{'otel.scope.name':'app.logger'}",
                "2026-01-15 10:00:00.001000000\t" + hex(0xA, 16) + "\t" + hex(1, 8) + "\t1\tINFO\t9\tfrontend\tcheckout started\t"
                        + "{'host.name':'h1','service.name':'frontend'}\t{'otel.scope.name':'app.logger','user.id':'42'}",
                "2026-01-15 10:00:00.002000000\t\t\t0\tERROR\t17\tfrontend\tpayment failed\t"
                        + "{'host.name':'h1','service.name':'frontend'}\t{'otel.scope.name':'app.logger','retry':'false'}",
                "2026-01-15 10:00:00.003000000\t\t\t0\tWARN\t13\tfrontend\t\t"
                        + "{'host.name':'h1','service.name':'frontend'}\t{'otel.scope.name':'app.logger'}",
                "2026-01-15 10:00:00.004000000\t\t\t0\t\t0\tfrontend\tplain\t"
                        + "{'host.name':'h1','service.name':'frontend'}\t{'otel.scope.name':'app.logger'}");

        // GetLogsHistogram: records by severity level (Coroot's levels: 0 unknown, 3 info, 4 warning, 5 error)
        assertThat(q(p, "SELECT multiIf(SeverityNumber=0, 0, intDiv(SeverityNumber, 4)+1), toStartOfInterval(Timestamp, INTERVAL 60 second),"
                + " count(1) FROM otel_logs WHERE ServiceName = 'frontend' AND Timestamp BETWEEN " + FROM + " AND " + TO
                + " GROUP BY 1, 2 ORDER BY 1")).containsExactly(
                "0\t2026-01-15 10:00:00\t1", "3\t2026-01-15 10:00:00\t1",
                "4\t2026-01-15 10:00:00\t1", "5\t2026-01-15 10:00:00\t1");

        RealServices.dropDatabases(p);
    }

    @Test
    void coroot_refuses_signals_it_has_no_tables_for() {
        ConfigException e = org.assertj.core.api.Assertions.catchThrowableOfType(() -> TributaryConfig.fromArgs(new String[] {
            "--clickhouse.schema", "coroot", "--signals", "traces,metrics"}), ConfigException.class);
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).startsWith("signals:").contains("clickhouse.schema = coroot", "metrics");
    }

    private static List<String> q(String db, String sql) throws Exception {
        String out = RealServices.clickHouse().query(sql.replace("FROM otel_", "FROM `" + db + "`.otel_")
                + " SETTINGS session_timezone = 'UTC' FORMAT TSV");
        return out.isEmpty() ? List.of() : Arrays.asList(out.split("\n")); // rows keep their trailing empty columns
    }

    private static ByteString id(int b, int n) {
        byte[] x = new byte[n];
        Arrays.fill(x, (byte) b);
        return ByteString.copyFrom(x);
    }

    private static String hex(int b, int n) {
        return String.format("%02x", b).repeat(n);
    }

    private static KeyValue kv(String k, AnyValue v) {
        return KeyValue.newBuilder().setKey(k).setValue(v).build();
    }

    private static AnyValue str(String s) {
        return AnyValue.newBuilder().setStringValue(s).build();
    }

    private static AnyValue num(long i) {
        return AnyValue.newBuilder().setIntValue(i).build();
    }

    private static Resource resource(String service, boolean host) {
        Resource.Builder r = Resource.newBuilder().addAttributes(kv("service.name", str("old"))) // the last one wins
                .addAttributes(kv("service.name", str(service)));
        if (host) {
            r.addAttributes(kv("host.name", str("h1")));
        }
        return r.build();
    }

    private static Span.Builder span(int trace, int id, int parent, String name, Span.SpanKind kind, long start, long durationMs) {
        Span.Builder s = Span.newBuilder().setTraceId(id(trace, 16)).setSpanId(id(id, 8)).setName(name).setKind(kind)
                .setStartTimeUnixNano(start).setEndTimeUnixNano(start + durationMs * MS);
        if (parent != 0) {
            s.setParentSpanId(id(parent, 8));
        }
        return s;
    }

    /** The corpus: a failed checkout across two services, a cron job, a consumer, a fast page, and a container's span. */
    static ExportTraceServiceRequest traces() {
        InstrumentationScope http = InstrumentationScope.newBuilder().setName("io.opentelemetry.http").setVersion("1.2.3").build();
        Span checkout = span(0xA, 1, 0, "GET /checkout", Span.SpanKind.SPAN_KIND_SERVER, T0, 120)
                .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR).setMessage("card declined"))
                .addAttributes(kv("http.method", str("GET")))
                .addAttributes(kv("http.status_code", num(500)))
                .addAttributes(kv("retry", AnyValue.newBuilder().setBoolValue(true).build()))
                .addAttributes(kv("ratio", AnyValue.newBuilder().setDoubleValue(0.25).build()))
                .addAttributes(kv("too.big", AnyValue.newBuilder().setDoubleValue(1e21).build()))
                .addAttributes(kv("tags", AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
                        .addValues(str("a")).addValues(num(1)).addValues(str("1e+21 is 1000000000000000000000"))).build()))
                .addAttributes(kv("ctx", AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder().addValues(kv("k", str("v")))).build()))
                .addAttributes(kv("blob", AnyValue.newBuilder().setBytesValue(ByteString.copyFromUtf8("hi")).build()))
                .addAttributes(kv("otel.scope.name", str("replaced by the scope")))
                .addEvents(Span.Event.newBuilder().setTimeUnixNano(T0 + 100 * MS).setName("exception")
                        .addAttributes(kv("exception.type", str("IOError"))))
                .build();
        Span pay = span(0xA, 2, 1, "POST /pay", Span.SpanKind.SPAN_KIND_CLIENT, T0 + 10 * MS, 80)
                .addAttributes(kv("net.sock.peer.addr", str("10.0.0.5")))
                .addAttributes(kv("net.peer.name", str("payments")))
                .addAttributes(kv("net.peer.port", num(8080)))
                .addLinks(Span.Link.newBuilder().setTraceId(id(0xB, 16)).setSpanId(id(5, 8)).setTraceState("x=1")
                        .addAttributes(kv("link.kind", str("follows"))))
                .build();
        Span home = span(0xD, 6, 0, "GET /home", Span.SpanKind.SPAN_KIND_SERVER, T0 + 180_000 * MS, 7).build();
        Span served = span(0xA, 3, 2, "POST /pay", Span.SpanKind.SPAN_KIND_SERVER, T0 + 15 * MS, 70).setTraceState("k=v")
                .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_OK)).build();
        Span cron = span(0xC, 4, 0, "cron", Span.SpanKind.SPAN_KIND_INTERNAL, T0 + 60_000 * MS, 3).build();
        Span consumer = span(0xB, 5, 9, "orders process", Span.SpanKind.SPAN_KIND_CONSUMER, T0 + 120_000 * MS, 30).build();
        Span query = span(0xE, 7, 0, "query", Span.SpanKind.SPAN_KIND_SERVER, T0 + 240_000 * MS, 600)
                .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR)).build();
        return ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(ResourceSpans.newBuilder().setResource(resource("frontend", true))
                        .addScopeSpans(ScopeSpans.newBuilder().setScope(http).addSpans(checkout).addSpans(pay).addSpans(home)))
                .addResourceSpans(ResourceSpans.newBuilder().setResource(resource("payments", false))
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(served).addSpans(cron).addSpans(consumer)))
                .addResourceSpans(ResourceSpans.newBuilder().setResource(resource("/k8s/default/db", false))
                        .addScopeSpans(ScopeSpans.newBuilder().addSpans(query)))
                .build();
    }

    /** A record whose span id has 5 bytes: a dead letter, as pdata refuses it on the Collector's Kafka path. */
    static ExportTraceServiceRequest badTraceId() {
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder().setResource(resource("frontend", true))
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(span(0xA, 1, 0, "x", Span.SpanKind.SPAN_KIND_SERVER, T0, 1)
                        .setSpanId(id(1, 5))))).build();
    }

    static ExportLogsServiceRequest logRecords() {
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder().setResource(resource("frontend", true))
                .addScopeLogs(ScopeLogs.newBuilder().setScope(InstrumentationScope.newBuilder().setName("app.logger"))
                        .addLogRecords(LogRecord.newBuilder().setTimeUnixNano(T0 + MS).setSeverityNumberValue(9).setSeverityText("INFO")
                                .setBody(str("checkout started")).setTraceId(id(0xA, 16)).setSpanId(id(1, 8)).setFlags(1)
                                .addAttributes(kv("user.id", num(42))))
                        .addLogRecords(LogRecord.newBuilder().setTimeUnixNano(T0 + 2 * MS).setSeverityNumberValue(17).setSeverityText("ERROR")
                                .setBody(str("payment failed")).addAttributes(kv("retry", AnyValue.newBuilder().setBoolValue(false).build())))
                        .addLogRecords(LogRecord.newBuilder().setTimeUnixNano(T0 + 3 * MS).setSeverityNumberValue(13).setSeverityText("WARN")
                                .setBody(AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder().addValues(kv("a", num(1)))))) // not a string: ""
                        .addLogRecords(LogRecord.newBuilder().setTimeUnixNano(T0 + 4 * MS).setBody(str("plain")))
                        .addLogRecords(LogRecord.newBuilder().setTimeUnixNano(-1L).setBody(str("negative time: left out")))
                        .addLogRecords(LogRecord.newBuilder().setObservedTimeUnixNano(T0).setBody(str("no time")))))
                .build();
    }
}
