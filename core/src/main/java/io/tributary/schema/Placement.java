package io.tributary.schema;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where and how {@code schema create} makes tables: the engine and, for a cluster, the name its
 * DDL runs {@code ON CLUSTER} (the exporter's {@code table_engine} and {@code cluster_name}).
 *
 * @param engine the tables' engine
 * @param cluster the cluster, or null for one server
 */
public record Placement(TableEngine engine, String cluster) {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    public Placement {
        Objects.requireNonNull(engine, "engine");
        if (cluster != null && cluster.isBlank()) {
            cluster = null;
        }
    }

    /** One server, this engine. */
    public static Placement of(TableEngine engine) {
        return new Placement(engine, null);
    }

    /** {@code " ON CLUSTER name"} as the exporter renders it, or "" on one server. */
    public String onCluster() {
        return cluster == null ? "" : " ON CLUSTER " + clusterName();
    }

    /** The cluster as an identifier in DDL; quoted when it is not a plain name (a {@code {cluster}} macro). */
    public String clusterName() {
        return PLAIN.matcher(cluster).matches() ? cluster : Sql.string(cluster);
    }
}
