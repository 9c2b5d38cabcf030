package io.tributary.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.clickhouse.body.Compression;
import io.tributary.otlp.Encoding;
import io.tributary.otlp.Signal;
import io.tributary.sink.Delivery;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

class TributaryConfigTest {

    @Test
    void defaults() {
        TributaryConfig c = TributaryConfig.fromArgs(new String[0]);
        assertThat(c.get(TributaryOptions.KAFKA_BOOTSTRAP_SERVERS)).isEqualTo("localhost:9092");
        assertThat(c.get(TributaryOptions.KAFKA_TOPICS_TRACES)).isEqualTo("otlp_spans");
        assertThat(c.get(TributaryOptions.KAFKA_ENCODING)).isEqualTo("auto");
        assertThat(c.encodings().get(io.tributary.otlp.Signal.LOGS).of("otlp_logs")).isEqualTo("auto");
        assertThat(c.headerExtraction().isOn()).isFalse();
        assertThat(c.get(TributaryOptions.SINK_BATCH_MAX_ROWS)).isEqualTo(100_000);
        assertThat(c.get(TributaryOptions.SINK_BATCH_MAX_BYTES)).isEqualTo(64L << 20);
        assertThat(c.get(TributaryOptions.SINK_BATCH_MAX_AGE)).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.get(TributaryOptions.SINK_COMPRESSION)).isEqualTo(Compression.LZ4);
        assertThat(c.get(TributaryOptions.SINK_MAX_IN_FLIGHT)).isEqualTo(2);
        assertThat(c.get(TributaryOptions.CHECKPOINT_INTERVAL)).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.get(TributaryOptions.DECODE_PARALLELISM)).isNull();
    }

    @Test
    void encodingsPerSignalAndTopicAndTheKeyOfOneThatDoesNotFit() {
        TributaryConfig c = TributaryConfig.fromArgs(new String[] {"--kafka.encodings.logs", "app_lines:text_utf-16, ^json_.*:json, raw",
            "--kafka.topics.logs", "app_lines,json_a,other", "--kafka.encoding", "otlp_json",
            "--kafka.header-extraction.headers", "tenant, env,tenant"});
        io.tributary.encoding.SignalEncodings logs = c.encodings().get(io.tributary.otlp.Signal.LOGS);
        assertThat(logs.of("app_lines")).isEqualTo("text_utf-16");
        assertThat(logs.of("json_a")).isEqualTo("json");
        assertThat(logs.of("other")).isEqualTo("raw");
        assertThat(c.encodings().get(io.tributary.otlp.Signal.TRACES).of("otlp_spans")).isEqualTo("otlp_json");
        assertThat(c.headerExtraction().names()).containsExactly("tenant", "env");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--kafka.encodings.traces", "raw"}))
                .hasMessageContaining("kafka.encodings.traces: 'raw' is an encoding of logs, not of traces");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--kafka.encoding", "json"}))
                .as("kafka.encoding applies to every signal that runs")
                .hasMessageContaining("kafka.encoding: 'json' is an encoding of logs, not of traces");
        assertThat(TributaryConfig.fromArgs(new String[] {"--kafka.encoding", "json", "--signals", "logs"})
                .encodings().get(io.tributary.otlp.Signal.LOGS).of("otlp_logs")).isEqualTo("json");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--kafka.encodings.logs", "text_klingon"}))
                .hasMessageContaining("kafka.encodings.logs: 'text_klingon': no charset 'klingon'");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--kafka.topics.traces", "^zipkin-.*",
            "--kafka.encodings.traces", "zipkin-.*:zipkin_proto"}))
                .as("an entry for a topic the signal does not read: a regex without its '^'")
                .hasMessageContaining("kafka.encodings.traces: 'zipkin-.*' is not a topic name");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--kafka.encodings.traces", "spans_typo:zipkin_proto"}))
                .hasMessageContaining("kafka.encodings.traces: 'spans_typo' is no topic kafka.topics.traces reads");
        assertThat(TributaryConfig.fromArgs(new String[] {"--kafka.topics.traces", "^zipkin-.*",
            "--kafka.encodings.traces", "zipkin-eu:zipkin_proto"}).encodings().get(io.tributary.otlp.Signal.TRACES).of("zipkin-eu"))
                .as("a topic the signal's regex selects").isEqualTo("zipkin_proto");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--kafka.encodings.logs", "raw,json"}))
                .hasMessageContaining("kafka.encodings.logs: two encodings for every topic");
    }

    @Test
    void argumentsAndFileMergeArgumentsWin(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("t.yaml");
        Files.writeString(f, "kafka:\n  bootstrap-servers: k1:9092\n  properties:\n    security.protocol: SASL_SSL\nsink.batch.max-rows: 10\nsink:\n  compression: zstd\n");
        TributaryConfig c = TributaryConfig.fromArgs(new String[] {"--config", f.toString(), "--sink.batch.max-rows", "20",
            "--sink.batch.max-age=250ms", "--kafka.bounded", "--sink.batch.max-bytes", "8 mb"});
        assertThat(c.get(TributaryOptions.KAFKA_BOOTSTRAP_SERVERS)).isEqualTo("k1:9092");
        assertThat(c.get(TributaryOptions.SINK_BATCH_MAX_ROWS)).isEqualTo(20);
        assertThat(c.get(TributaryOptions.SINK_BATCH_MAX_AGE)).isEqualTo(Duration.ofMillis(250));
        assertThat(c.get(TributaryOptions.SINK_BATCH_MAX_BYTES)).isEqualTo(8L << 20);
        assertThat(c.get(TributaryOptions.SINK_COMPRESSION)).isEqualTo(Compression.ZSTD);
        assertThat(c.get(TributaryOptions.KAFKA_BOUNDED)).isTrue();
        assertThat(c.kafkaProperties().getProperty("security.protocol")).isEqualTo("SASL_SSL");
    }

    @Test
    void errorsNameTheKey() {
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--sink.batch.max-rows", "0"}))
                .hasMessageStartingWith("sink.batch.max-rows:");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--sink.compression", "gzip"}))
                .hasMessageStartingWith("sink.compression:");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--kafka.starting-offsets", "now"}))
                .hasMessageStartingWith("kafka.starting-offsets:");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.url", "localhost:8123"}))
                .hasMessageStartingWith("clickhouse.url:");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--sink.batch.max-age", "fast"}))
                .hasMessageStartingWith("sink.batch.max-age:");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--kafka.topic.traces", "x"}))
                .hasMessageStartingWith("kafka.topic.traces: unknown setting");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--decode.parallelism", "-1"}))
                .hasMessageStartingWith("decode.parallelism:");
    }

    @Test
    void deliveryIsAtLeastOnceUnlessAskedAndExactlyOnceRefusesAsyncInserts() {
        assertThat(TributaryConfig.fromArgs(new String[0]).get(TributaryOptions.SINK_DELIVERY))
                .isEqualTo(Delivery.AT_LEAST_ONCE);
        assertThat(TributaryConfig.fromArgs(new String[] {"--sink.delivery", "exactly-once"}).get(TributaryOptions.SINK_DELIVERY))
                .isEqualTo(Delivery.EXACTLY_ONCE);
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--sink.delivery", "exactly_twice"}))
                .hasMessageStartingWith("sink.delivery:");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--sink.delivery", "exactly-once", "--sink.async-insert", "true"}))
                .hasMessageStartingWith("sink.async-insert:")
                .hasMessageContaining("exactly-once");
    }

    @Test
    void secretsAreNeverArguments() {
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.password", "hunter2"}))
                .hasMessageStartingWith("clickhouse.password:")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--kafka.properties.sasl.jaas.config", "secret"}))
                .hasMessageStartingWith("kafka.properties.sasl.jaas.config:")
                .hasMessageNotContaining("secret\"");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.password-env", "A", "--clickhouse.password-file", "/f"}))
                .hasMessageStartingWith("clickhouse.password-file:");
    }

    /** Recognisable: no message may hold it. */
    private static final String S = "PLANTED-s3cr3t-q7Xz";

    /** Every Kafka client setting of type PASSWORD, read from kafka-clients itself, not from the code under test. */
    private static java.util.Set<String> kafkaPasswordSettings() {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (org.apache.kafka.common.config.ConfigDef d : List.of(org.apache.kafka.clients.producer.ProducerConfig.configDef(),
                org.apache.kafka.clients.consumer.ConsumerConfig.configDef(),
                org.apache.kafka.clients.admin.AdminClientConfig.configDef())) {
            d.configKeys().forEach((name, key) -> {
                if (key.type == org.apache.kafka.common.config.ConfigDef.Type.PASSWORD) {
                    out.add(name);
                }
            });
        }
        return out;
    }

    @Test
    void everyKafkaPasswordSettingIsRefusedAsAnArgumentAndTakenFromTheFile(@TempDir Path dir) throws Exception {
        java.util.Set<String> secrets = kafkaPasswordSettings();
        // the ones the review found missing are among them, with the ones screened before
        assertThat(secrets).contains("ssl.keystore.key", "sasl.oauthbearer.client.credentials.client.secret",
                "sasl.jaas.config", "ssl.key.password", "ssl.keystore.password", "ssl.truststore.password");
        for (String name : secrets) {
            for (String prefix : List.of("kafka.properties.", "dlq.kafka.properties.")) {
                for (String[] args : List.of(new String[] {"--" + prefix + name, S}, new String[] {"--" + prefix + name + "=" + S})) {
                    assertThatThrownBy(() -> TributaryConfig.fromArgs(args))
                            .as(String.join(" ", args))
                            .isInstanceOf(ConfigException.class)
                            .hasMessageStartingWith(prefix + name + ": a secret (its type in the Kafka clients' ConfigDef"
                                    + " is PASSWORD) is never a program argument")
                            .hasMessageNotContaining(S);
                }
            }
        }
        // from the --config file (readable by the job's user only) they are taken as given
        Path file = dir.resolve("job.yaml");
        Files.writeString(file, "kafka:\n  properties:\n    ssl.keystore.key: \"" + S + "\"\n"
                + "    sasl.oauthbearer.client.credentials.client.secret: \"" + S + "\"\n");
        TributaryConfig c = TributaryConfig.fromArgs(new String[] {"--config", file.toString()});
        assertThat(c.kafkaPropertiesMap()).containsEntry("ssl.keystore.key", S)
                .containsEntry("sasl.oauthbearer.client.credentials.client.secret", S);
        // and the connection's text shows their names, not their values
        assertThat(c.kafka().toString()).contains("ssl.keystore.key").doesNotContain(S);
        // what is no secret still is an argument
        assertThat(TributaryConfig.fromArgs(new String[] {"--kafka.properties.ssl.keystore.type", "PEM"})
                .kafkaPropertiesMap()).containsEntry("ssl.keystore.type", "PEM");
    }

    @Test
    void flinkSettingsFlinkHidesAreRefusedAsArguments() {
        for (String key : List.of("flink.s3.secret-key", "flink.security.ssl.rest.keystore-password",
                "flink.fs.azure.account.key.acct.blob.core.windows.net")) {
            assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--" + key, S}))
                    .as(key)
                    .hasMessageStartingWith(key + ": a secret (Flink treats it as a secret) is never a program argument")
                    .hasMessageNotContaining(S);
        }
        assertThat(TributaryConfig.fromArgs(new String[] {"--flink.s3.access-key", "AKIA"}).flinkOptions())
                .containsEntry("s3.access-key", "AKIA");
    }

    @Test
    void credentialsInAnyUrlAreRefusedFromArgumentsAndTheFileAlike(@TempDir Path dir) throws Exception {
        String[][] cases = {
            {"clickhouse.url", "http://ch.example:8123/?password=" + S, "clickhouse.password-env"},
            {"clickhouse.url", "http://ch.example:8123/?user=writer&Password=" + S, "clickhouse.password-env"},
            {"clickhouse.url", "http://ch.example:8123/?user=writer", "clickhouse.user"},
            // not even a URL java.net.URI takes: refused before its parser could quote it
            {"clickhouse.url", "http://ch.example:8123/a b?token=" + S, "clickhouse.password-env"},
            {"clickhouse.url", "http://writer:" + S + " x@ch.example:8123", "clickhouse.password-env"},
            {"clickhouse.url", "http://ch-1:8123,http://writer:" + S + "@ch-2:8123", "clickhouse.password-env"},
            {"kafka.sasl.oauthbearer.token-endpoint-url", "https://client:" + S + "@idp.example/token",
                "kafka.sasl.oauthbearer.client-secret-env"},
            {"dlq.kafka.sasl.oauthbearer.token-endpoint-url", "https://idp.example/token?client_secret=" + S,
                "dlq.kafka.sasl.oauthbearer.client-secret-env"},
            {"kafka.properties.sasl.oauthbearer.token.endpoint.url", "https://idp.example/token?access_token=" + S, ""},
            {"kafka.properties.sasl.oauthbearer.jwks.endpoint.url", "https://u:" + S + "@idp.example/jwks", ""},
            {"flink.execution.checkpointing.dir", "s3://AKIA:" + S + "@bucket/checkpoints", ""},
        };
        for (String[] c : cases) {
            String message = c[0] + ": holds a URL with a ";
            assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--" + c[0], c[1]}))
                    .as(c[1]).isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith(message).hasMessageContaining(c[2]).hasMessageNotContaining(S);
            Path file = Files.writeString(dir.resolve("c.yaml"), c[0] + ": '" + c[1] + "'\n");
            assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--config", file.toString()}))
                    .as(c[1]).hasMessageStartingWith(message).hasMessageNotContaining(S);
        }
    }

    @Test
    void aSecretWhereAVariableNameBelongsIsRefusedUnquoted() {
        for (String key : List.of("clickhouse.password-env", "clickhouse.tls.client-key-password-env",
                "kafka.sasl.password-env", "dlq.kafka.sasl.oauthbearer.client-secret-env")) {
            assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--" + key, S + " x=1"}))
                    .as(key)
                    .hasMessageStartingWith(key + ": not the name of an environment variable")
                    .hasMessageNotContaining(S);
        }
        assertThat(TributaryConfig.fromArgs(new String[] {"--clickhouse.password-env", "CH_PW"})
                .get(TributaryOptions.CLICKHOUSE_PASSWORD_ENV)).isEqualTo("CH_PW");
    }

    @Test
    void messagesAboutTheArgumentsAndTheFileQuoteNoValue(@TempDir Path dir) throws Exception {
        // a shell split a value with spaces: the stray piece may be a password
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--kafka.sasl.username", "w", S}))
                .hasMessage("unexpected argument at position 3 (after --kafka.sasl.username): settings are --key value,"
                        + " a value with spaces in quotes");
        // SnakeYAML quotes the lines around a fault, and an alias's name
        Path file = Files.writeString(dir.resolve("bad.yaml"), "kafka:\n  properties:\n    sasl.jaas.config: \"x password=" + S
                + "\"\n   broken: [" + S + "\n");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--config", file.toString()}))
                .hasMessageStartingWith("config: '" + file + "' is not valid YAML (line ")
                .hasMessageNotContaining(S)
                .satisfies(e -> assertThat(e.getCause()).isNull());
        Path alias = Files.writeString(dir.resolve("alias.yaml"), "clickhouse.user: *" + S + "\n");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--config", alias.toString()}))
                .hasMessageStartingWith("config: '" + alias + "' is not valid YAML").hasMessageNotContaining(S);
    }

    @Test
    void signalsAndTheirTopics(@TempDir Path dir) throws Exception {
        assertThat(TributaryConfig.fromArgs(new String[0]).signals())
                .containsExactly(Signal.TRACES, Signal.LOGS, Signal.METRICS);
        assertThat(TributaryConfig.fromArgs(new String[] {"--signals", " logs , traces"}).signals())
                .containsExactly(Signal.TRACES, Signal.LOGS);
        // an empty topic turns its signal off
        assertThat(TributaryConfig.fromArgs(new String[] {"--kafka.topics.metrics", ""}).signals())
                .containsExactly(Signal.TRACES, Signal.LOGS);
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, "clickhouse:\n  schema: json\n  tables:\n    metrics:\n      exponential_histogram: eh\n");
        TributaryConfig c = TributaryConfig.fromArgs(new String[] {"--config", f.toString()});
        assertThat(c.get(TributaryOptions.CLICKHOUSE_SCHEMA)).isEqualTo(io.tributary.schema.SchemaFlavor.JSON);
        assertThat(c.get(TributaryOptions.CLICKHOUSE_TABLES_METRICS_EXPONENTIAL_HISTOGRAM)).isEqualTo("eh");
        assertThat(c.get(TributaryOptions.CLICKHOUSE_TABLES_METRICS_SUMMARY)).isEqualTo("otel_metrics_summary");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--signals", "traces,spans"}))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("signals: invalid value").hasMessageContaining("spans");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--signals", "logs", "--kafka.topics.logs", ""}))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("signals: no signal is on");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.schema", "jsonb"}))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("clickhouse.schema: invalid value 'jsonb'");
    }

    @Test
    void defaultsRenderAsUsersWriteThem() {
        assertThat(TributaryOptions.SINK_BATCH_MAX_BYTES.defaultText()).isEqualTo("64 mb");
        assertThat(TributaryOptions.SIGNALS.defaultText()).isEqualTo("traces,logs,metrics");
        assertThat(TributaryOptions.CLICKHOUSE_SCHEMA.defaultText()).isEqualTo("map");
    }

    @Test
    void topicsMustDiffer() {
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--kafka.topics.logs", "otlp_spans"}))
                .isInstanceOf(ConfigException.class)
                .hasMessage("kafka.topics.logs: 'otlp_spans' is also kafka.topics.traces; each signal needs its own topic");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--dlq.topic", "otlp_metrics"}))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("dlq.topic: 'otlp_metrics' is a topic the job reads");
        assertThat(TributaryConfig.fromArgs(new String[] {"--dlq.topic", ""}).get(TributaryOptions.DLQ_TOPIC)).isEmpty();
        assertThat(TributaryConfig.fromArgs(new String[0]).get(TributaryOptions.DLQ_TOPIC)).isEqualTo("otlp_dlq");
    }

    @Test
    void credentialsInTheClickHouseUrlAreRefusedWithoutRepeatingThem() {
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.url", "https://writer:s3cret@ch.example:8443"}))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("clickhouse.url: holds a URL with a user or password")
                .hasMessageContaining("clickhouse.password-env")
                .hasMessageNotContaining("s3cret");
        // passwords java.net.URI would not read as user info, or not parse at all, are refused as well, unrepeated
        for (String url : new String[] {"http://writer@ch.example:8123", "http://u:p@ss@ch.example:8123",
            "http://u:p#w@ch.example", "http://u:100% {secret}@ch.example:8123/"}) {
            assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.url", url}))
                    .as(url)
                    .hasMessageStartingWith("clickhouse.url: holds a URL with a user or password")
                    .hasMessageNotContaining("secret").hasMessageNotContaining("p@ss").hasMessageNotContaining("p#w");
        }
    }

    @Test
    void aPasswordOverPlainHttpToAnotherHostIsWarnedOf() {
        assertThat(TributaryConfig.fromArgs(new String[] {"--clickhouse.url", "http://ch.example:8123",
            "--clickhouse.password-env", "CH_PW"}).warnings())
                .containsExactly("clickhouse.url: the password (clickhouse.password-env) goes to ch.example over plain"
                        + " http://, readable on the way; use https://");
        assertThat(TributaryConfig.fromArgs(new String[] {"--clickhouse.url", "http://10.0.0.7:8123",
            "--clickhouse.password-file", "/run/pw"}).warnings()).singleElement().asString()
                .contains("(clickhouse.password-file) goes to 10.0.0.7");
        for (String quiet : new String[] {"https://ch.example:8443", "http://localhost:8123", "http://127.0.0.1:8123",
            "http://[::1]:8123"}) {
            assertThat(TributaryConfig.fromArgs(new String[] {"--clickhouse.url", quiet, "--clickhouse.password-env", "CH_PW"})
                    .warnings()).as(quiet).isEmpty();
        }
        assertThat(TributaryConfig.fromArgs(new String[] {"--clickhouse.url", "http://ch.example:8123"}).warnings()).isEmpty();
    }

    @Test
    void severalClickHouseUrlsAreEachCheckedAndWarnedOf() {
        TributaryConfig c = TributaryConfig.fromArgs(new String[] {"--clickhouse.url",
            "https://ch-1.example:8443, http://ch-2.example:8123,http://localhost:8123", "--clickhouse.password-env", "CH_PW"});
        assertThat(c.warnings()).containsExactly("clickhouse.url: the password (clickhouse.password-env) goes to"
                + " ch-2.example over plain http://, readable on the way; use https://");
        assertThat(io.tributary.topology.TributaryTopology.endpoint(c).urls())
                .containsExactly("https://ch-1.example:8443", "http://ch-2.example:8123", "http://localhost:8123");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.url",
            "http://ch-1.example:8123,http://writer:s3cret@ch-2.example:8123"}))
                .hasMessageStartingWith("clickhouse.url: holds a URL with a user or password")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.url", "http://ch-1:8123,ch-2:8123"}))
                .hasMessageStartingWith("clickhouse.url:").hasMessageContaining("http:// or https://");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.url", " , "}))
                .hasMessageStartingWith("clickhouse.url:");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.url", "http://a:8123,http://a:8123/"}))
                .hasMessageStartingWith("clickhouse.url:").hasMessageContaining("listed twice");
    }

    @Test
    void tlsSettingsAreCheckedTogetherAndTheirPasswordIsNeverAnArgument() {
        TributaryConfig c = TributaryConfig.fromArgs(new String[] {"--clickhouse.url", "https://ch.example:8443",
            "--clickhouse.tls.ca-file", "/etc/ca.pem", "--clickhouse.tls.client-cert-file", "/etc/c.pem",
            "--clickhouse.tls.client-key-file", "/etc/c.key", "--clickhouse.tls.client-key-password-env", "KEY_PW"});
        assertThat(c.clickHouseTls()).isEqualTo(new io.tributary.clickhouse.tls.ClickHouseTls(
                "/etc/ca.pem", "/etc/c.pem", "/etc/c.key", "KEY_PW", null, true));
        assertThat(c.warnings()).isEmpty();
        assertThat(TributaryConfig.fromArgs(new String[0]).clickHouseTls()).isEqualTo(io.tributary.clickhouse.tls.ClickHouseTls.DEFAULT);
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.tls.client-cert-file", "/etc/c.pem"}))
                .hasMessageStartingWith("clickhouse.tls.client-key-file: a client certificate needs both");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.tls.client-key-file", "/etc/c.key"}))
                .hasMessageStartingWith("clickhouse.tls.client-cert-file: a client certificate needs both");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.tls.client-key-password", "hunter2"}))
                .hasMessageStartingWith("clickhouse.tls.client-key-password: a password is never a plain setting")
                .hasMessageContaining("clickhouse.tls.client-key-password-env").hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.tls.client-key-password-env", "A",
            "--clickhouse.tls.client-key-password-file", "/b"}))
                .hasMessageStartingWith("clickhouse.tls.client-key-password-file: set either");
        assertThatThrownBy(() -> TributaryConfig.fromArgs(new String[] {"--clickhouse.tls.verify-hostname", "maybe"}))
                .hasMessageStartingWith("clickhouse.tls.verify-hostname");
        assertThat(TributaryConfig.fromArgs(new String[] {"--clickhouse.url", "https://ch.example:8443",
            "--clickhouse.tls.verify-hostname", "false"}).warnings()).singleElement().asString()
                .startsWith("clickhouse.tls.verify-hostname = false: ClickHouse's certificate is not checked to name its host");
        assertThat(TributaryConfig.fromArgs(new String[] {"--clickhouse.tls.ca-file", "/etc/ca.pem"}).warnings())
                .containsExactly("clickhouse.tls.ca-file: set, but clickhouse.url has no https:// URL, so it is not used");
    }
}
