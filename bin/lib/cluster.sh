# shellcheck shell=bash
# The local Flink session cluster (one JobManager, one TaskManager), supervised by the services
# program (io.tributary.services.FlinkCluster). Sourced after services.sh by bin/tributary and the
# cluster tests. Settings: TRIBUTARY_FLINK_REST_PORT (8081), TRIBUTARY_FLINK_RPC_PORT (6123),
# TRIBUTARY_FLINK_PROMETHEUS_JM_PORT (9249), TRIBUTARY_FLINK_PROMETHEUS_TM_PORT (9250).

cluster_main() { services cluster "$@"; }
# JAR [--savepoint P] [--allow-non-restored-state] [--key value ...]: `flink run --detached`
cluster_submit() { services cluster submit "$@"; }
