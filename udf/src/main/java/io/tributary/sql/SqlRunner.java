package io.tributary.sql;

import io.tributary.clickhouse.ClickHouseEndpoint;
import io.tributary.config.ConfigException;
import io.tributary.config.Option;
import io.tributary.config.StartingOffsets;
import io.tributary.config.TributaryConfig;
import io.tributary.config.TributaryOptions;
import io.tributary.otlp.Signal;
import io.tributary.udf.HistogramBuckets;
import io.tributary.udf.OtlpLogRecords;
import io.tributary.udf.OtlpMetricPoints;
import io.tributary.udf.OtlpProfileSamples;
import io.tributary.udf.OtlpSpans;
import io.tributary.udf.SqlCommenter;
import io.tributary.udf.Traceparent;

import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a Flink SQL script: {@code bin/tributary sql FILE [--key value ...]} on an embedded Flink
 * (dashboard as for {@code run}), or {@code bin/tributary submit --sql FILE} / {@code flink run
 * tributary-udf.jar FILE ...} on a cluster (the client plans the script, the cluster runs it).
 *
 * <p>The script reads settings as {@code ${key}}: every job key ({@code kafka.bootstrap-servers},
 * {@code kafka.topics.traces}, {@code kafka.group-id}, {@code clickhouse.url}, {@code
 * clickhouse.database}, ...), given on the command line or in {@code --config FILE}, or its
 * default; these derived from them: {@code kafka.scan.startup.mode} and {@code
 * kafka.scan.bounded.mode} (Flink's Kafka SQL connector's values for {@code kafka.starting-offsets}
 * and {@code kafka.bounded}), {@code clickhouse.jdbc-url} (the JDBC URL of {@code clickhouse.url},
 * {@code clickhouse.database} and {@code clickhouse.user}, with {@code clickhouse.password-env}/{@code -file} as its
 * {@code password-env}/{@code password-file}, so no password is ever in the script); and any other
 * key the script reads ({@code ${span-metrics.window-seconds:-60}}). An unknown key fails naming it.
 * A value is written as the place of its {@code ${key}} reads it ({@link SqlScript#substitute}): a
 * quote in a group id stays part of the group id; {@code ${kafka.topic-option.<signal>}} and {@code
 * ${kafka.client-options}} are options this class builds, every value in them quoted.
 *
 * <p>{@code OTLP_SPANS}, {@code OTLP_LOG_RECORDS}, {@code OTLP_METRIC_POINTS}, {@code
 * OTLP_PROFILE_SAMPLES}, {@code TRACEPARENT}, {@code SQLCOMMENTER} and {@code HISTOGRAM_BUCKETS} are
 * registered before the script runs. Statements run in order; the {@code INSERT}s are gathered
 * into one job, submitted at the end and waited for: with {@code kafka.bounded true} the job ends
 * once its sources have read the offsets seen at start and every window has fired, and so does this
 * program (status 0).
 */
public final class SqlRunner {

    /** Set by {@code bin/tributary sql}: run on an embedded Flink with the dashboard, not the context's cluster. */
    static final String EMBEDDED_PROPERTY = "tributary.sql.embedded";

    private SqlRunner() {}

    public static void main(String[] argv) throws Exception {
        try {
            run(argv);
        } catch (ConfigException e) {
            System.err.println("tributary sql: " + e.getMessage());
            System.exit(2);
        }
    }

    /** Runs the script; returns the jobs it ran, once they have finished (attached) or were submitted (detached). */
    public static List<JobID> run(String[] argv) throws Exception {
        if (argv.length == 0 || argv[0].startsWith("--")) {
            throw new ConfigException("usage: sql FILE [--key value ...]");
        }
        Path file = Path.of(argv[0]);
        if (!Files.isRegularFile(file)) {
            throw new ConfigException("sql: no such file '" + argv[0] + "'");
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String[] args = java.util.Arrays.copyOfRange(argv, 1, argv.length);
        Prepared p = prepare(text, args);
        p.config.warnings().forEach(w -> System.err.println("tributary: warning: " + w));
        Configuration conf = new Configuration();
        boolean embedded = Boolean.getBoolean(EMBEDDED_PROPERTY);
        if (embedded) {
            conf.set(RestOptions.PORT, 8081);
            conf.set(RestOptions.ADDRESS, "127.0.0.1");
            conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        }
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, p.config.get(TributaryOptions.CHECKPOINT_INTERVAL));
        conf.set(PipelineOptions.NAME, "tributary sql " + file.getFileName());
        conf.addAll(Configuration.fromMap(p.config.flinkOptions()));
        StreamExecutionEnvironment env = embedded
                ? StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(conf)
                : StreamExecutionEnvironment.getExecutionEnvironment(conf);
        if (embedded) {
            System.err.println("tributary: dashboard on http://localhost:" + conf.get(RestOptions.PORT));
        }
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        // `flink run --detached` (bin/tributary submit --sql): submitted is done; the cluster runs it
        boolean attached = env.getConfiguration().get(DeploymentOptions.ATTACHED);
        List<JobID> ran = new java.util.ArrayList<>();
        for (TableResult job : execute(tEnv, p.statements)) {
            job.getJobClient().ifPresent(c -> {
                System.err.println("tributary: job " + c.getJobID() + " runs the script's INSERTs");
                ran.add(c.getJobID());
            });
            if (attached) {
                job.await();
                System.err.println("tributary: the script's job has finished");
            }
        }
        return ran;
    }

    /** A script with its settings in place, split into statements, and the job settings it was given. */
    record Prepared(TributaryConfig config, List<String> statements, Map<String, String> values) {}

    static Prepared prepare(String text, String[] args) {
        Set<String> jobKeys = new HashSet<>();
        for (Option<?> o : TributaryOptions.ALL) {
            jobKeys.add(o.key());
        }
        Set<String> scriptKeys = new HashSet<>(SqlScript.variables(text));
        scriptKeys.removeIf(k -> jobKeys.contains(k) || k.startsWith(TributaryOptions.KAFKA_PROPERTIES_PREFIX)
                || k.startsWith(TributaryOptions.FLINK_PREFIX));
        TributaryConfig.Parsed parsed = TributaryConfig.fromArgs(args, scriptKeys);
        TributaryConfig config = parsed.config();
        Map<String, String> values = new LinkedHashMap<>();
        for (Option<?> o : TributaryOptions.ALL) {
            String given = parsed.given().get(o.key());
            values.put(o.key(), given != null ? given.trim() : o.defaultText());
        }
        parsed.given().forEach((k, v) -> {
            // a secret never becomes script text: its ${key} is unknown
            if ((k.startsWith(TributaryOptions.KAFKA_PROPERTIES_PREFIX) || k.startsWith(TributaryOptions.FLINK_PREFIX))
                    && !TributaryConfig.isSecretSetting(k)) {
                values.put(k, v);
            }
        });
        values.putAll(derived(config, text.contains("${kafka.client-options")));
        values.putAll(parsed.extra());
        return new Prepared(config, SqlScript.statements(SqlScript.substitute(text, values, SQL_FRAGMENTS)), values);
    }

    /** The derived keys whose values are SQL text (connector options, every value in them quoted). */
    static final Set<String> SQL_FRAGMENTS = sqlFragments();

    private static Set<String> sqlFragments() {
        Set<String> keys = new HashSet<>();
        for (Signal s : Signal.values()) {
            keys.add("kafka.topic-option." + s.id());
        }
        keys.add("kafka.client-options");
        return Set.copyOf(keys);
    }

    /** The settings computed from job keys, in the forms Flink's connectors take. */
    static Map<String, String> derived(TributaryConfig config, boolean clientOptions) {
        Map<String, String> out = new HashMap<>();
        StartingOffsets start = config.get(TributaryOptions.KAFKA_STARTING_OFFSETS);
        out.put("kafka.scan.startup.mode", start == StartingOffsets.EARLIEST ? "earliest-offset"
                : start == StartingOffsets.LATEST ? "latest-offset" : "group-offsets");
        out.put("kafka.scan.bounded.mode", config.get(TributaryOptions.KAFKA_BOUNDED) ? "latest-offset" : "unbounded");
        out.put("clickhouse.jdbc-url", jdbcUrl(config));
        for (Signal s : Signal.values()) {
            out.put("kafka.topic-option." + s.id(), topicOption(config, s));
        }
        if (clientOptions) { // refuses secrets given as raw properties: only when a script asks for them
            out.put("kafka.client-options", clientOptions(config));
        }
        return out;
    }

    /**
     * The job's Kafka client settings as the Kafka SQL connector's {@code 'properties.*'} options,
     * each led by a comma (empty when there are none): {@code kafka.properties.*} and what
     * {@code kafka.security.*}, {@code kafka.sasl.*} and {@code kafka.tls.*} mean to a client, its
     * secrets as references the job's config provider resolves where the client runs.
     */
    static String clientOptions(TributaryConfig config) {
        for (String property : config.kafkaPropertiesMap().keySet()) {
            if (TributaryConfig.isKafkaSecret(property)) {
                // a script's table options are in Flink's plan and the statement's text: no secret there
                throw new ConfigException(TributaryOptions.KAFKA_PROPERTIES_PREFIX + property + ": a secret, which"
                        + " ${kafka.client-options} would write into the script's table options; give it through"
                        + " kafka.sasl.* or kafka.tls.* and their -env/-file settings, whose values stay out of the script");
            }
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : config.kafka().properties().entrySet()) {
            sb.append(", 'properties.").append(e.getKey().replace("'", "''")).append("' = '")
                    .append(e.getValue().replace("'", "''")).append("'");
        }
        return sb.toString();
    }

    /**
     * The Kafka SQL connector's option for a signal's topics: {@code 'topic' = 'a;b'} for names,
     * {@code 'topic-pattern' = '...'} when a {@code ^regex} is among them (the job's
     * subscription pattern, which the connector matches against whole names too).
     */
    static String topicOption(TributaryConfig config, Signal signal) {
        String value = config.get(TributaryOptions.topic(signal));
        String key = TributaryOptions.topic(signal).key();
        io.tributary.kafka.TopicSelection selection = io.tributary.kafka.TopicSelection.parse(
                Map.of(signal, value), Map.of(signal, key));
        for (String name : selection.named()) {
            if (name.indexOf(';') >= 0) {
                // the connector splits 'topic' at semicolons; no Kafka topic name has one
                throw new ConfigException(key + ": '" + name + "' is not a Kafka topic name (it has a ';')");
            }
        }
        String text = selection.hasPatterns() ? selection.subscription().pattern() : String.join(";", selection.named());
        return (selection.hasPatterns() ? "'topic-pattern' = '" : "'topic' = '") + text.replace("'", "''") + "'";
    }

    /**
     * {@code jdbc:clickhouse:} + {@code clickhouse.url} + {@code /database}, with the password's
     * source; the database and every parameter percent-encoded, as clickhouse-jdbc decodes them, so
     * no value changes the URL's shape.
     */
    public static String jdbcUrl(TributaryConfig config) {
        // the first of several endpoints: the JDBC driver takes one
        String url = ClickHouseEndpoint.splitUrls(config.get(TributaryOptions.CLICKHOUSE_URL)).get(0).replaceAll("/+$", "");
        StringBuilder sb = new StringBuilder("jdbc:clickhouse:").append(url).append('/')
                .append(URLEncoder.encode(config.get(TributaryOptions.CLICKHOUSE_DATABASE), StandardCharsets.UTF_8))
                .append("?user=").append(URLEncoder.encode(config.get(TributaryOptions.CLICKHOUSE_USER), StandardCharsets.UTF_8));
        String env = config.get(TributaryOptions.CLICKHOUSE_PASSWORD_ENV);
        String file = config.get(TributaryOptions.CLICKHOUSE_PASSWORD_FILE);
        if (env != null) {
            sb.append("&password-env=").append(URLEncoder.encode(env, StandardCharsets.UTF_8));
        } else if (file != null) {
            sb.append("&password-file=").append(URLEncoder.encode(file, StandardCharsets.UTF_8));
        }
        // clickhouse-jdbc's own TLS parameters, from the job's keys (it takes no key password)
        io.tributary.clickhouse.tls.ClickHouseTls tls = config.clickHouseTls();
        if (url.startsWith("https://")) {
            if (tls.caFile() != null) {
                sb.append("&sslrootcert=").append(URLEncoder.encode(tls.caFile(), StandardCharsets.UTF_8));
            }
            if (tls.clientCertFile() != null && tls.keyPasswordEnv() == null && tls.keyPasswordFile() == null) {
                sb.append("&sslcert=").append(URLEncoder.encode(tls.clientCertFile(), StandardCharsets.UTF_8))
                        .append("&ssl_key=").append(URLEncoder.encode(tls.clientKeyFile(), StandardCharsets.UTF_8));
            } else if (tls.clientCertFile() != null) {
                System.err.println("tributary: warning: clickhouse.tls.client-key-password-*: clickhouse-jdbc takes no key"
                        + " password, so ${clickhouse.jdbc-url} carries no client certificate (give the JDBC tables an"
                        + " unencrypted PKCS #8 key with sslcert= and ssl_key=)");
            }
        }
        return sb.toString();
    }

    /**
     * Registers the functions and runs the statements; returns the jobs they started: each {@code
     * EXECUTE STATEMENT SET}, then one for the other {@code INSERT}s together.
     */
    static List<TableResult> execute(StreamTableEnvironment tEnv, List<String> statements) {
        tEnv.createTemporarySystemFunction("OTLP_SPANS", OtlpSpans.class);
        tEnv.createTemporarySystemFunction("OTLP_LOG_RECORDS", OtlpLogRecords.class);
        tEnv.createTemporarySystemFunction("OTLP_METRIC_POINTS", OtlpMetricPoints.class);
        tEnv.createTemporarySystemFunction("OTLP_PROFILE_SAMPLES", OtlpProfileSamples.class);
        tEnv.createTemporarySystemFunction("TRACEPARENT", Traceparent.class);
        tEnv.createTemporarySystemFunction("SQLCOMMENTER", SqlCommenter.class);
        tEnv.createTemporarySystemFunction("HISTOGRAM_BUCKETS", HistogramBuckets.class);
        StatementSet inserts = tEnv.createStatementSet();
        boolean any = false;
        List<TableResult> jobs = new java.util.ArrayList<>();
        for (String s : statements) {
            String head = SqlScript.keywords(s);
            if (SqlScript.startsStatementSet(head.split(";")[0]) && !head.startsWith("EXPLAIN")) {
                StatementSet set = tEnv.createStatementSet();
                SqlScript.statementSetInserts(s).forEach(set::addInsertSql);
                jobs.add(set.execute());
            } else if (head.startsWith("EXECUTE INSERT ")) {
                jobs.add(tEnv.executeSql(SqlScript.withoutComments(s).substring("EXECUTE".length())));
            } else if (head.startsWith("SET ") || head.equals("SET") || head.startsWith("RESET")) {
                SqlScript.Setting set = SqlScript.setting(s);
                if (set == null) {
                    throw new ConfigException("cannot read the statement as SET 'key' = 'value' or RESET 'key': " + s);
                }
                if (set.value() == null) {
                    tEnv.getConfig().getConfiguration().removeKey(set.key());
                } else {
                    tEnv.getConfig().set(set.key(), set.value());
                }
            } else if (head.startsWith("INSERT ")) {
                inserts.addInsertSql(s);
                any = true;
            } else if (head.startsWith("SELECT ") || head.startsWith("WITH ") || head.startsWith("SHOW ")
                    || head.startsWith("DESCRIBE ") || head.startsWith("DESC ") || head.startsWith("EXPLAIN ")) {
                tEnv.executeSql(s).print();
            } else {
                tEnv.executeSql(s);
            }
        }
        if (any) {
            jobs.add(inserts.execute());
        }
        return jobs;
    }
}
