package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.config.Option;
import io.tributary.config.TributaryConfig;
import io.tributary.config.TributaryOptions;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The deployment files, checked as far as this machine can without a Docker engine or a
 * Kubernetes cluster: Debian's {@code docker-compose config} resolves {@code docker/compose.yaml},
 * and a real HCL parser ({@code @cdktf/hcl2json}, from npm) reads every {@code terraform/*.tf};
 * then the references between them, and the job arguments both pass, are checked.
 */
class DeploymentFilesITCase {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String HCL2JSON_VERSION = "0.21.0";

    @Test
    void composeFileResolvesAndWiresTheServices() throws Exception {
        String resolved = run(List.of("docker-compose", "-f", ROOT.resolve("docker/compose.yaml").toString(), "config"),
                "docker-compose (Debian's package; bin/tributary test installs it)");
        @SuppressWarnings("unchecked")
        Map<String, Object> compose = (Map<String, Object>) new Yaml().load(resolved);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose.get("services");
        assertThat(services).containsOnlyKeys("kafka", "clickhouse", "jobmanager", "taskmanager", "submit", "prometheus", "grafana");
        assertThat(services.get("kafka").get("image")).isEqualTo("apache/kafka:4.2.0");
        assertThat((String) services.get("clickhouse").get("image")).startsWith("clickhouse/clickhouse-server:26.");
        for (String flink : List.of("jobmanager", "taskmanager", "submit")) {
            assertThat(String.valueOf(services.get(flink).get("volumes")))
                    .contains(ROOT.resolve("flink-conf/config.yaml") + ":/opt/flink/conf/config.yaml");
        }
        // Prometheus scrapes the ports the two Flink processes' reporters are given
        String jm = String.valueOf(((Map<?, ?>) services.get("jobmanager").get("environment")).get("FLINK_PROPERTIES"));
        String tm = String.valueOf(((Map<?, ?>) services.get("taskmanager").get("environment")).get("FLINK_PROPERTIES"));
        assertThat(jm).contains("metrics.reporter.prom.port: 9249");
        assertThat(tm).contains("metrics.reporter.prom.port: 9250");
        assertThat(Files.readString(ROOT.resolve("docker/prometheus.yml"))).contains("\"jobmanager:9249\", \"taskmanager:9250\"");
        // Grafana gets the dashboard provisioned
        assertThat(String.valueOf(services.get("grafana").get("volumes"))).contains(ROOT.resolve("docker/grafana/dashboards").toString());
        assertThat(ROOT.resolve("docker/grafana/dashboards/tributary.json")).exists();
        // the submission: valid job settings, the password only as a file path
        @SuppressWarnings("unchecked")
        List<String> command = (List<String>) services.get("submit").get("command");
        int jar = command.indexOf("/opt/flink/usrlib/tributary-job.jar");
        assertThat(jar).isPositive();
        TributaryConfig config = TributaryConfig.fromArgs(command.subList(jar + 1, command.size()).toArray(new String[0]));
        assertThat(config.get(TributaryOptions.CLICKHOUSE_PASSWORD_FILE)).isEqualTo("/run/secrets/clickhouse_password");
        assertThat(resolved).doesNotContain("CLICKHOUSE_PASSWORD:");
        // the image: the official Flink image and files that exist
        String dockerfile = Files.readString(ROOT.resolve("docker/Dockerfile"));
        assertThat(dockerfile).contains("FROM flink:2.2.1-java17");
        Matcher copy = Pattern.compile("(?m)^COPY (\\S+) ").matcher(dockerfile);
        int copies = 0;
        while (copy.find()) {
            assertThat(ROOT.resolve(copy.group(1))).as("COPY source").exists();
            copies++;
        }
        assertThat(copies).isEqualTo(2);
    }

    @Test
    void terraformFilesParseAndTheirReferencesResolve() throws Exception {
        Path dir = ROOT.resolve("terraform");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".tf")).sorted().collect(Collectors.toList());
        }
        assertThat(files).extracting(p -> p.getFileName().toString())
                .containsExactly("main.tf", "outputs.tf", "variables.tf", "versions.tf");
        ObjectMapper json = new ObjectMapper();
        Set<String> variables = new TreeSet<>();
        Set<String> locals = new TreeSet<>();
        Set<String> resources = new TreeSet<>();
        StringBuilder all = new StringBuilder();
        JsonNode deployment = null;
        JsonNode jobArgs = null;
        for (Path f : files) {
            JsonNode doc = json.readTree(hcl2json(f));
            all.append(doc).append('\n');
            doc.path("variable").fieldNames().forEachRemaining(variables::add);
            for (JsonNode l : doc.path("locals")) {
                l.fieldNames().forEachRemaining(locals::add);
                if (l.has("job_args")) {
                    jobArgs = l.get("job_args");
                }
            }
            doc.path("resource").fields().forEachRemaining(type ->
                    type.getValue().fieldNames().forEachRemaining(name -> resources.add(type.getKey() + "." + name)));
            JsonNode m = doc.path("resource").path("kubernetes_manifest").path("tributary");
            if (!m.isMissingNode()) {
                deployment = m.get(0).path("manifest");
            }
        }
        String text = all.toString();
        Set<String> usedVariables = matches(text, "\\bvar\\.([a-z0-9_]+)");
        assertThat(variables).as("declared variables").containsAll(usedVariables);
        assertThat(usedVariables).as("variables in use").containsAll(variables);
        assertThat(locals).containsAll(matches(text, "\\blocal\\.([a-z0-9_]+)"));
        Set<String> usedResources = matches(text, "\\b((?:kubernetes|helm)_[a-z_]+\\.[a-z0-9_]+)\\b");
        usedResources.removeIf(r -> r.startsWith("kubernetes_manifest.tributary.") || r.endsWith(".metadata"));
        assertThat(resources).containsAll(usedResources);
        assertThat(resources).contains("kubernetes_manifest.tributary", "helm_release.flink_operator");
        // the FlinkDeployment: savepoint upgrades, HA, durable checkpoints, the password from a Secret
        assertThat(deployment).isNotNull();
        JsonNode spec = deployment.path("spec");
        assertThat(deployment.path("kind").asText()).isEqualTo("FlinkDeployment");
        assertThat(spec.path("job").path("upgradeMode").asText()).isEqualTo("savepoint");
        assertThat(spec.path("job").path("jarURI").asText()).isEqualTo("local:///opt/flink/usrlib/tributary-job.jar");
        assertThat(spec.path("flinkConfiguration").path("high-availability.type").asText()).isEqualTo("kubernetes");
        assertThat(spec.path("flinkConfiguration").path("execution.checkpointing.dir").asText())
                .isEqualTo("${var.checkpoint_storage}/checkpoints");
        assertThat(spec.path("podTemplate").toString()).contains("secretKeyRef", "${var.clickhouse_password_secret}");
        // the job's arguments: keys the job knows, a password never among them
        assertThat(jobArgs).isNotNull();
        Set<String> known = new HashSet<>();
        for (Option<?> o : TributaryOptions.ALL) {
            known.add("--" + o.key());
        }
        known.add("--config");
        Set<String> keys = matches(jobArgs.asText(), "\"(--[a-z.\\-_]+)\"");
        assertThat(keys).hasSizeGreaterThan(8);
        assertThat(known).containsAll(keys);
        assertThat(keys).contains("--clickhouse.password-env").doesNotContain("--clickhouse.password");
    }

    private static Set<String> matches(String text, String regex) {
        Set<String> out = new TreeSet<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The HCL file as JSON, by @cdktf/hcl2json (installed from npm into the cache once). */
    private static String hcl2json(Path tf) throws Exception {
        Path cache = Path.of(System.getenv().getOrDefault("TRIBUTARY_CACHE_DIR",
                System.getProperty("user.home") + "/.cache/tributary"), "npm", "hcl2json-" + HCL2JSON_VERSION);
        if (!Files.exists(cache.resolve("node_modules/@cdktf/hcl2json/package.json"))) {
            Files.createDirectories(cache);
            run(List.of("npm", "install", "--prefix", cache.toString(), "--no-audit", "--no-fund", "--silent",
                    "@cdktf/hcl2json@" + HCL2JSON_VERSION), "npm");
        }
        String script = "const {parse} = require(" + json(cache.resolve("node_modules/@cdktf/hcl2json").toString()) + ");"
                + "const fs = require('fs');"
                + "parse(process.argv[1], fs.readFileSync(process.argv[1], 'utf8'))"
                + ".then(j => process.stdout.write(JSON.stringify(j)))"
                + ".catch(e => { console.error(e.message || e); process.exit(1); });";
        return run(List.of("node", "-e", script, tf.toString()), "node");
    }

    private static String json(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String run(List<String> command, String what) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(command).directory(new File(".")).redirectErrorStream(false).start();
        } catch (java.io.IOException e) {
            throw new AssertionError(what + " is needed for this test and is not on PATH: " + e.getMessage(), e);
        }
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as("%s: %s", String.join(" ", command.subList(0, Math.min(3, command.size()))), err).isZero();
        return new String(out, StandardCharsets.UTF_8);
    }
}
