package io.tributary.encoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.tributary.otlp.Signal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * The extension point as a user meets it: an encoding in a jar of its own, listed in the jar's
 * {@code META-INF/services}, found through the thread's context class loader (Flink's user-code
 * class loader in a task) by the name the settings give, and unknown without the jar.
 */
class ThirdPartyEncodingTest {

    /** "pipe_logs": severity|message. Loaded from the jar the test writes, not from the test's classpath. */
    public static final class PipeLogs implements RecordEncoding {
        @Override
        public List<String> names() {
            return List.of("pipe_logs");
        }

        @Override
        public Set<Signal> signals() {
            return Set.of(Signal.LOGS);
        }

        @Override
        public RecordDecoder decoder(String name, Signal signal) {
            if (!name.equals("pipe_logs")) {
                return null;
            }
            return (value, headers) -> {
                String[] f = new String(value, StandardCharsets.UTF_8).split("\\|", 2);
                return ExportLogsServiceRequest.newBuilder().addResourceLogs(io.opentelemetry.proto.logs.v1.ResourceLogs.newBuilder()
                        .addScopeLogs(io.opentelemetry.proto.logs.v1.ScopeLogs.newBuilder().addLogRecords(
                                io.opentelemetry.proto.logs.v1.LogRecord.newBuilder().setSeverityText(f[0])
                                        .setBody(io.opentelemetry.proto.common.v1.AnyValue.newBuilder().setStringValue(f[1])))))
                        .build().toByteArray();
            };
        }
    }

    @Test
    void anEncodingInItsOwnJarIsFoundByName(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> Encodings.decoder("pipe_logs", Signal.LOGS)).as("without the jar")
                .hasMessageStartingWith("'pipe_logs' is not an encoding of logs");
        Path jar = dir.resolve("pipe-logs.jar");
        String resource = PipeLogs.class.getName().replace('.', '/') + ".class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                var in = PipeLogs.class.getClassLoader().getResourceAsStream(resource)) {
            out.putNextEntry(new JarEntry(resource));
            in.transferTo(out);
            out.putNextEntry(new JarEntry("META-INF/services/" + RecordEncoding.class.getName()));
            OutputStream o = out;
            o.write((PipeLogs.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
        }
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        try (URLClassLoader user = new URLClassLoader(new URL[] {jar.toUri().toURL()}, getClass().getClassLoader())) {
            t.setContextClassLoader(user);
            RecordDecoder d = Encodings.decoder("pipe_logs", Signal.LOGS);
            ExportLogsServiceRequest r = ExportLogsServiceRequest.parseFrom(d.decode("WARN|disk 91%".getBytes(StandardCharsets.UTF_8),
                    RecordHeaders.NONE));
            assertThat(r.getResourceLogs(0).getScopeLogs(0).getLogRecords(0).getSeverityText()).isEqualTo("WARN");
            assertThat(r.getResourceLogs(0).getScopeLogs(0).getLogRecords(0).getBody().getStringValue()).isEqualTo("disk 91%");
            assertThatThrownBy(() -> Encodings.decoder("pipe_logs", Signal.TRACES))
                    .hasMessage("'pipe_logs' is an encoding of logs, not of traces (traces: auto, otlp_proto, otlp_json, zipkin_proto, zipkin_json, zipkin_thrift, jaeger_proto, jaeger_json)");
        } finally {
            t.setContextClassLoader(before);
        }
    }
}
