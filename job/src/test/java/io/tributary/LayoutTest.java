package io.tributary;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The arrows between the packages of the core and job modules, read from their compiled classes:
 * a record's path reads top to bottom, and a package imports only the ones this test lets it.
 * A new arrow that is not here fails the build; add it here only when it points the same way as
 * the others (never from a package to one that builds on it).
 *
 * <pre>
 * core (no Flink, no Kafka)
 *   rowbinary      bytes only                                  imports nothing of ours
 *   otlp           OTLP in: Signal, Encoding, ids, proto/json  imports nothing of ours
 *   schema         the ClickHouse table model and its SQL     imports rowbinary
 *   nativeformat   RowBinary rows to Native columns and back   imports rowbinary, schema
 *   encoding       record encodings (the extension point):     imports otlp
 *                  record + headers -> OTLP request
 *   tables         the exporter's tables, one package per      imports otlp, encoding, schema, rowbinary
 *                  signal, the collector's value rules         (tables assembles its signals'
 *                                                              packages, which build on it: the
 *                                                              one cycle, inside one layer)
 * job
 *   secret         the one reader of passwords and keys        imports nothing of ours
 *   kafka          the source and source records               imports otlp, secret
 *   deadletter     records that cannot be stored, to Kafka     imports kafka
 *   decode         the operator: record to rows                imports kafka, deadletter, tables, encoding, schema, otlp
 *   clickhouse     HTTP client, bodies, TLS, columns read back imports schema, secret
 *   sink           batches, committables, INSERTs             imports clickhouse, deadletter, kafka, tables, schema,
 *                                                              nativeformat, rowbinary
 *   config         every setting, validated at start           imports the packages whose settings it builds
 *   topology       the one place the operators are wired       imports everything above but tools
 *   tools          cli, loadgen                                imports everything
 * </pre>
 */
class LayoutTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // the core module's test jar (its OTLP builders) on this module's test classpath
                .withImportOption(location -> !location.contains("-tests.jar"))
                // the services module (local tooling behind the tests' TlsFiles), not part of the job
                .withImportOption(location -> !location.contains("/io/tributary/services/"))
                .importPackages("io.tributary");
    }

    @Test
    void packagesOnlyImportTheOnesUpstreamOfThem() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("rowbinary").definedBy("io.tributary.rowbinary..")
                .layer("otlp").definedBy("io.tributary.otlp..")
                .layer("encoding").definedBy("io.tributary.encoding..")
                .layer("schema").definedBy("io.tributary.schema..")
                .layer("nativeformat").definedBy("io.tributary.nativeformat..")
                .layer("tables").definedBy("io.tributary.tables..")
                .layer("secret").definedBy("io.tributary.secret..")
                .layer("kafka").definedBy("io.tributary.kafka..")
                .layer("deadletter").definedBy("io.tributary.deadletter..")
                .layer("decode").definedBy("io.tributary.decode..")
                .layer("clickhouse").definedBy("io.tributary.clickhouse..")
                .layer("sink").definedBy("io.tributary.sink..")
                .layer("config").definedBy("io.tributary.config..")
                .layer("topology").definedBy("io.tributary.topology..")
                .layer("tools").definedBy("io.tributary.tools..")
                .layer("main").definedBy("io.tributary")

                .whereLayer("rowbinary").mayNotAccessAnyLayer()
                .whereLayer("otlp").mayNotAccessAnyLayer()
                .whereLayer("encoding").mayOnlyAccessLayers("otlp")
                .whereLayer("schema").mayOnlyAccessLayers("rowbinary")
                .whereLayer("nativeformat").mayOnlyAccessLayers("rowbinary", "schema")
                .whereLayer("tables").mayOnlyAccessLayers("otlp", "encoding", "schema", "rowbinary")
                .whereLayer("secret").mayNotAccessAnyLayer()
                .whereLayer("kafka").mayOnlyAccessLayers("otlp", "secret")
                .whereLayer("deadletter").mayOnlyAccessLayers("kafka")
                .whereLayer("decode").mayOnlyAccessLayers("kafka", "deadletter", "tables", "encoding", "schema", "otlp")
                .whereLayer("clickhouse").mayOnlyAccessLayers("schema", "secret")
                .whereLayer("sink").mayOnlyAccessLayers(
                        "clickhouse", "deadletter", "kafka", "tables", "schema", "nativeformat", "rowbinary")
                .whereLayer("config").mayOnlyAccessLayers(
                        "clickhouse", "kafka", "sink", "tables", "encoding", "schema", "otlp", "secret")
                .whereLayer("topology").mayOnlyAccessLayers(
                        "config", "sink", "clickhouse", "decode", "deadletter", "kafka", "tables", "encoding", "schema", "otlp",
                        "secret")
                .whereLayer("tools").mayOnlyAccessLayers(
                        "main", "topology", "config", "sink", "clickhouse", "decode", "deadletter", "kafka", "tables",
                        "encoding", "schema", "otlp", "rowbinary", "secret")
                .whereLayer("main").mayOnlyAccessLayers(
                        "topology", "config", "sink", "clickhouse", "decode", "deadletter", "kafka", "tables", "schema",
                        "otlp", "secret")
                .check(classes);
    }

    /** The layers above are every package: a new one must be placed among them, or nothing checks it. */
    @Test
    void everyPackageIsALayer() {
        classes().should().resideInAnyPackage(
                        "io.tributary", "io.tributary.rowbinary..", "io.tributary.otlp..", "io.tributary.encoding..", "io.tributary.schema..",
                        "io.tributary.nativeformat..", "io.tributary.tables..", "io.tributary.secret..", "io.tributary.kafka..",
                        "io.tributary.deadletter..", "io.tributary.decode..", "io.tributary.clickhouse..", "io.tributary.sink..", "io.tributary.config..",
                        "io.tributary.topology..", "io.tributary.tools..")
                .check(classes);
    }

    @Test
    void eachSignalsTablesStandAlone() {
        // a signal's reader, view and schema share only what io.tributary.tables holds for all of them
        slices().matching("io.tributary.tables.(*)..").should().notDependOnEachOther().check(classes);
    }

    @Test
    void theCoreKnowsNothingOfFlinkOrKafka() {
        noClasses().that().resideInAnyPackage(
                        "io.tributary.rowbinary..", "io.tributary.otlp..", "io.tributary.schema..", "io.tributary.nativeformat..",
                        "io.tributary.tables..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.flink..", "org.apache.kafka..")
                .check(classes);
    }

    @Test
    void profilesAreReadInTheVersionTheJobReadsNeverInTheJarsV190Classes() {
        // opentelemetry-proto 1.9.0-alpha's profiles classes number Sample's fields as v1.9 did: they
        // would read today's records without an error and wrong; io.tributary.otlp.profiles has v1.10's
        JavaClasses withTests = new ClassFileImporter()
                .withImportOption(location -> !location.contains("/io/tributary/services/"))
                .importPackages("io.tributary");
        noClasses().should().dependOnClassesThat().resideInAnyPackage(
                        "io.opentelemetry.proto.profiles..", "io.opentelemetry.proto.collector.profiles..")
                .check(withTests);
    }
}
