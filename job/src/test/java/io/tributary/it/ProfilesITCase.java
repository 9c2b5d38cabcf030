package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.TributaryConfig;
import io.tributary.deadletter.DeadLetterSerializer;
import io.tributary.otlp.json.OtlpJsonWriter;
import io.tributary.otlp.profiles.ExportProfilesServiceRequest;
import io.tributary.otlp.profiles.Profile;
import io.tributary.otlp.profiles.Sample;
import io.tributary.schema.TableEngine;
import io.tributary.testing.ProfilesFixtures;
import io.tributary.testing.RealServices;
import io.tributary.testing.UniqueSpans;
import io.tributary.topology.SchemaManager;
import io.tributary.topology.TributaryTopology;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Profiles on the real services: a job that moves traces is stopped with a savepoint and
 * redeployed from it with {@code signals} naming profiles too; the spans go on where they stopped,
 * and the profiles records (protobuf and OTLP/JSON) land in {@code otel_profiles}, created by
 * {@code schema create} as the exporter creates it, every column what the exporter writes for its
 * own test sample ({@code exporter_profiles_integration_test.go}: the frames leaf first, the inline
 * frame, the hash, the link, the attributes through the dictionary, the materialized columns).
 * Records of another proto version, and one whose attribute index is past its table, are dead
 * letters naming why.
 */
class ProfilesITCase {

    @RegisterExtension
    static final MiniClusterExtension FLINK = RealServices.miniCluster(2);

    @Test
    void aRedeployFromASavepointTurnsProfilesOnAndEveryColumnLands() throws Exception {
        String p = RealServices.uniqueName("it_prof");
        String spans = p + "_spans", profiles = p + "_profiles", dlq = p + "_dlq";
        for (String t : List.of(spans, profiles, dlq)) {
            RealServices.createTopic(t, 1);
        }
        RealServices.produce(spans, List.of(UniqueSpans.spans(0).toByteArray()));

        // 1. traces only (the default signals), until the spans have landed; then stop with a savepoint
        String[] base = {
            "--kafka.bootstrap-servers", RealServices.kafkaBootstrap(),
            "--kafka.topics.traces", spans,
            "--kafka.topics.profiles", profiles,
            "--kafka.group-id", p,
            "--kafka.starting-offsets", "earliest",
            "--dlq.topic", dlq,
            "--parallelism", "1",
            "--clickhouse.url", RealServices.clickHouseUrl(),
            "--clickhouse.database", p,
            "--sink.batch.max-age", "200ms",
            "--checkpoint.interval", "1s"
        };
        TributaryConfig first = TributaryConfig.fromArgs(RealServices.concat(base, "--kafka.topics.logs", "", "--kafka.topics.metrics", ""));
        assertThat(first.signals()).containsExactly(io.tributary.otlp.Signal.TRACES);
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), first, TableEngine.MERGE_TREE, null);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TributaryTopology.build(env, first);
        JobClient job = env.executeAsync("profiles off");
        RealServices.awaitCount(p, "otel_traces", UniqueSpans.PER_RECORD, 90);
        String savepoint = job.stopWithSavepoint(false, Files.createTempDirectory("tributary-sp").toUri().toString(),
                SavepointFormatType.CANONICAL).get(120, TimeUnit.SECONDS);
        assertThat(RealServices.clickHouse().query("EXISTS TABLE `" + p + "`.otel_profiles FORMAT TSV").strip()).isEqualTo("0");

        // 2. what the redeploy reads: more spans; the exporter's test sample as protobuf and as OTLP/JSON;
        // a v1.9.0 record (values in Sample field 2) and one with an attribute index past its table
        RealServices.produce(spans, List.of(UniqueSpans.spans(UniqueSpans.PER_RECORD).toByteArray()));
        ExportProfilesServiceRequest sample = ProfilesFixtures.request(ProfilesFixtures.dictionary(),
                ProfilesFixtures.profile().addSamples(ProfilesFixtures.sample()));
        byte[] v19 = ProfilesFixtures.request(ProfilesFixtures.dictionary(), ProfilesFixtures.profile()
                .addSamples(Sample.newBuilder().setStackIndex(1).addAttributeIndices(1_500_000))).toByteArray(); // v1.9: values
        byte[] badIndex = ProfilesFixtures.request(ProfilesFixtures.dictionary(), ProfilesFixtures.profile()
                .addSamples(ProfilesFixtures.sample().addAttributeIndices(9))).toByteArray();
        RealServices.produce(profiles, List.of(sample.toByteArray(), OtlpJsonWriter.write(sample), v19, badIndex,
                ProfilesFixtures.request(ProfilesFixtures.dictionary(), Profile.newBuilder()).toByteArray())); // no sample: no row

        // 3. the redeploy: profiles on, from the savepoint, bounded to what is there
        TributaryConfig second = TributaryConfig.fromArgs(RealServices.concat(base, "--kafka.topics.logs", "",
                "--kafka.topics.metrics", "", "--signals", "traces,profiles", "--kafka.bounded", "true",
                "--flink.execution.state-recovery.path", savepoint));
        SchemaManager.create(ClickHouseEndpoint.of(RealServices.clickHouseUrl()), second, TableEngine.MERGE_TREE, null);
        env = StreamExecutionEnvironment.getExecutionEnvironment();
        TributaryTopology.build(env, second);
        env.execute("profiles on");

        assertThat(RealServices.clickHouse().query("SELECT count(), uniqExact(SpanId) FROM `" + p + "`.otel_traces FORMAT TSV")
                .strip()).as("the spans go on where the savepoint left them: none lost, none twice").isEqualTo("200\t200");
        List<String> reasons = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> letter : RealServices.consumeAll(dlq)) {
            reasons.add(RealServices.header(letter, DeadLetterSerializer.ERROR_MESSAGE));
        }
        assertThat(reasons).hasSize(2);
        assertThat(reasons.get(0)).contains("another proto version", "v1.9.0 Sample", "v1.10/v1.11");
        assertThat(reasons.get(1)).contains("attribute index 9 out of bounds [0, 3)");
        String expected = "2025-11-30 00:00:00.123456789\t42000000000000000000000000000000\tcpu\tnanoseconds\ttest-service\t"
                + "{'k8s.namespace.name':'prod','k8s.pod.name':'pod-1','service.name':'test-service'}\t"
                + "io.opentelemetry.contrib.clickhouse\t1.0.0\t{'profile.tag':'prod'}\t{'thread.name':'worker-1'}\t"
                + Long.toUnsignedString(0xA3BB8F435FB4D320L) + "\t[4096,8192,8192]\t['foo','bar','main']\t"
                + "['foo.go','bar.go','main.go']\t[42,10,99]\t['libc.so','libc.so','libc.so']\t[1500000]\t["
                + ProfilesFixtures.SAMPLE_TIME + "]\t60000000000\t10000000\tcpu\tnanoseconds\t"
                + "0102030405060708090a0b0c0d0e0f10\t0102030405060708\tpod-1\tprod\t[]";
        String rows = RealServices.clickHouse().query("SELECT *, `__otel_materialized_k8s.pod.name`,"
                + " `__otel_materialized_k8s.namespace.name`, concat('[', `__otel_materialized_service.namespace`, ']')"
                + " FROM `" + p + "`.otel_profiles SETTINGS session_timezone = 'UTC' FORMAT TSV");
        assertThat(rows.strip().split("\n")).as("one row per record that holds a sample, protobuf and OTLP/JSON alike")
                .containsExactly(expected, expected);
        assertThat(RealServices.clickHouse().query("SELECT count() FROM `" + p + "`.otel_profiles WHERE has(FunctionNames, 'main')"
                + " FORMAT TSV").strip()).isEqualTo("2");

        RealServices.dropDatabases(p);
    }
}
