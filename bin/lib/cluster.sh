# shellcheck shell=bash
# A standalone Flink 2.2.1 session cluster on this machine, for `bin/tributary cluster` and the tests:
# one JobManager (StandaloneSessionClusterEntrypoint) and one TaskManager (TaskManagerRunner), each its
# own process, from the Maven-resolved Flink jars (job/target/flink-classpath.txt, and the table stack
# in udf/target/table-classpath.txt once the udf module is built) and flink-conf/,
# as Flink's own start-cluster.sh would run them from a distribution. Sourced after services.sh, whose
# process helpers it uses; state (pid, log, checkpoints, savepoints, uploaded jars) under
# $TRIBUTARY_STATE_DIR/flink-{jobmanager,taskmanager}.
#
# Settings: TRIBUTARY_FLINK_REST_PORT (8081: dashboard and REST API), TRIBUTARY_FLINK_RPC_PORT (6123),
# TRIBUTARY_FLINK_PROMETHEUS_JM_PORT (9249), TRIBUTARY_FLINK_PROMETHEUS_TM_PORT (9250).

# What Flink's own scripts open up on Java 17 (env.java.opts.all in the distribution's config).
JAVA_OPENS=(
    --add-exports=java.base/sun.net.util=ALL-UNNAMED
    --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
    --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
    --add-opens=java.base/java.lang=ALL-UNNAMED
    --add-opens=java.base/java.net=ALL-UNNAMED
    --add-opens=java.base/java.io=ALL-UNNAMED
    --add-opens=java.base/java.nio=ALL-UNNAMED
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
    --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
    --add-opens=java.base/java.text=ALL-UNNAMED
    --add-opens=java.base/java.time=ALL-UNNAMED
    --add-opens=java.base/java.util=ALL-UNNAMED
    --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
    --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
    --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED
)

_CLUSTER_START_TIMEOUT=${TRIBUTARY_CLUSTER_START_TIMEOUT:-90}
_CLUSTER_STOP_TIMEOUT=30

_cluster_settings() {
    _svc_settings || return 1
    _CL_REST_PORT=${TRIBUTARY_FLINK_REST_PORT:-8081}
    _CL_RPC_PORT=${TRIBUTARY_FLINK_RPC_PORT:-6123}
    _CL_PROM_JM=${TRIBUTARY_FLINK_PROMETHEUS_JM_PORT:-9249}
    _CL_PROM_TM=${TRIBUTARY_FLINK_PROMETHEUS_TM_PORT:-9250}
    local pair var value
    for pair in TRIBUTARY_FLINK_REST_PORT=$_CL_REST_PORT TRIBUTARY_FLINK_RPC_PORT=$_CL_RPC_PORT \
        TRIBUTARY_FLINK_PROMETHEUS_JM_PORT=$_CL_PROM_JM TRIBUTARY_FLINK_PROMETHEUS_TM_PORT=$_CL_PROM_TM; do
        var=${pair%%=*}
        value=${pair#*=}
        if ! _svc_is_port "$value"; then
            _svc_err "$var='$value' is not a TCP port (1-65535)"
            return 1
        fi
    done
    _CL_CONF_DIR="$ROOT/flink-conf"
    _CL_CP_FILE="$ROOT/job/target/flink-classpath.txt"
    _CL_TABLE_CP_FILE="$ROOT/udf/target/table-classpath.txt"
    _CL_DIR=$(_svc_dir flink)
}

# Flink's jars, and its table stack when the udf module has been built (what a distribution's lib/
# holds): the classpath of the JobManager, the TaskManager and the command line front end.
_cluster_classpath() {
    local cp
    cp=$(<"$_CL_CP_FILE")
    if [[ -f $_CL_TABLE_CP_FILE ]]; then
        cp="$cp:$(<"$_CL_TABLE_CP_FILE")"
    fi
    printf '%s\n' "$cp"
}

cluster_rest_url() {
    _cluster_settings || return 1
    printf 'http://127.0.0.1:%s\n' "$_CL_REST_PORT"
}

# The settings every process of the cluster (and the CLI) gets on top of flink-conf/config.yaml:
# ports and this state directory's paths.
_cluster_dynamic_properties() {
    printf '%s\n' \
        "-Drest.port=$_CL_REST_PORT" \
        "-Drest.address=127.0.0.1" \
        "-Djobmanager.rpc.address=127.0.0.1" \
        "-Djobmanager.rpc.port=$_CL_RPC_PORT" \
        "-Dexecution.checkpointing.dir=file://$_CL_DIR/checkpoints" \
        "-Dexecution.checkpointing.savepoint-dir=file://$_CL_DIR/savepoints" \
        "-Dweb.upload.dir=$_CL_DIR/uploads" \
        "-Dio.tmp.dirs=$_CL_DIR/tmp"
}

_cluster_rest_up() {
    curl -fsS --max-time 2 "http://127.0.0.1:$_CL_REST_PORT/overview" >/dev/null 2>&1
}

_cluster_tm_registered() {
    local overview
    overview=$(curl -fsS --max-time 2 "http://127.0.0.1:$_CL_REST_PORT/overview" 2>/dev/null) || return 1
    [[ $overview =~ \"taskmanagers\":([0-9]+) ]] && ((BASH_REMATCH[1] >= 1))
}

# Prints the JVM options (line 1) and dynamic properties (line 2) Flink derives from its memory
# settings for ROLE (JM|TM), as Flink's scripts do.
_cluster_resource_params() { # JM|TM
    local out
    out=$("$(_svc_java)" -cp "$(_cluster_classpath)" -Dlog4j2.level=WARN \
        org.apache.flink.runtime.util.bash.BashJavaUtils "GET_$1_RESOURCE_PARAMS" --configDir "$_CL_CONF_DIR" \
        $(_cluster_dynamic_properties) 2>&1) || {
        _svc_err "cluster: computing the $1 memory settings from $_CL_CONF_DIR/config.yaml failed:"
        printf '%s\n' "$out" | tail -n 20 | sed 's/^/    /' >&2
        return 1
    }
    printf '%s\n' "$out" | sed -n 's/^BASH_JAVA_UTILS_EXEC_RESULT://p' | tail -n 2
}

_cluster_spawn() { # ROLE MAIN_CLASS JM|TM PROMETHEUS_PORT
    local role=$1 main=$2 kind=$3 prom=$4 params jvm dyn pid log
    params=$(_cluster_resource_params "$kind") || return 1
    jvm=$(sed -n 1p <<<"$params")
    dyn=$(sed -n 2p <<<"$params")
    log=$(_svc_log_file "$role")
    mkdir -p "$_SVC_STATE_DIR/$role" "$_CL_DIR/tmp" "$_CL_DIR/uploads"
    _svc_rotate_log "$log"
    # shellcheck disable=SC2086 # word splitting of Flink's JVM options and -D list is intended
    pid=$(_svc_spawn "$log" "$(_svc_java)" $jvm "${JAVA_OPENS[@]}" "$(_svc_marker "$role")" \
        "-Dlog.file=$log" "-Dlog4j.configurationFile=$_CL_CONF_DIR/log4j-cluster.properties" \
        -cp "$(_cluster_classpath)" "$main" --configDir "$_CL_CONF_DIR" \
        $(_cluster_dynamic_properties) "-Dmetrics.reporter.prom.port=$prom" $dyn) || return 1
    printf '%s\n' "$pid" >"$(_svc_pid_file "$role")"
    printf '%s' "$pid"
}

cluster_start() {
    _cluster_settings || return 1
    if [[ ! -f $_CL_CP_FILE ]]; then
        _svc_err "cluster: $_CL_CP_FILE is missing (bin/tributary build makes it)"
        return 1
    fi
    local jm tm started
    started=$(_svc_now_ms)
    if ! jm=$(_svc_pid flink-jobmanager 2>/dev/null); then
        _svc_check_port_free jobmanager "$_CL_REST_PORT" TRIBUTARY_FLINK_REST_PORT || return 1
        _svc_check_port_free jobmanager "$_CL_RPC_PORT" TRIBUTARY_FLINK_RPC_PORT || return 1
        _svc_check_port_free jobmanager "$_CL_PROM_JM" TRIBUTARY_FLINK_PROMETHEUS_JM_PORT || return 1
        jm=$(_cluster_spawn flink-jobmanager org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint \
            JM "$_CL_PROM_JM") || return 1
    fi
    _svc_wait_healthy flink-jobmanager "$jm" "$_CLUSTER_START_TIMEOUT" _cluster_rest_up || return 1
    if ! tm=$(_svc_pid flink-taskmanager 2>/dev/null); then
        _svc_check_port_free taskmanager "$_CL_PROM_TM" TRIBUTARY_FLINK_PROMETHEUS_TM_PORT || return 1
        tm=$(_cluster_spawn flink-taskmanager org.apache.flink.runtime.taskexecutor.TaskManagerRunner \
            TM "$_CL_PROM_TM") || return 1
    fi
    _svc_wait_healthy flink-taskmanager "$tm" "$_CLUSTER_START_TIMEOUT" _cluster_tm_registered || return 1
    _svc_say "cluster: Flink 2.2.1 session cluster up in $(($(_svc_now_ms) - started)) ms:" \
        "JobManager pid $jm, TaskManager pid $tm; dashboard and REST on http://localhost:$_CL_REST_PORT," \
        "Prometheus on :$_CL_PROM_JM (JobManager) and :$_CL_PROM_TM (TaskManager); logs in $_SVC_STATE_DIR/flink-*/"
}

cluster_stop() {
    _cluster_settings || return 1
    _svc_stop_one flink-taskmanager "$_CLUSTER_STOP_TIMEOUT" || return 1
    _svc_stop_one flink-jobmanager "$_CLUSTER_STOP_TIMEOUT"
}

cluster_status() {
    _cluster_settings || return 1
    local role pid rc=0 overview
    for role in flink-jobmanager flink-taskmanager; do
        if pid=$(_svc_pid "$role" 2>/dev/null); then
            _svc_say "$role: running (pid $pid, RSS $(_svc_rss "$pid"))"
        else
            _svc_say "$role: stopped"
            rc=3
        fi
    done
    if overview=$(curl -fsS --max-time 2 "http://127.0.0.1:$_CL_REST_PORT/overview" 2>/dev/null); then
        _svc_say "cluster: http://localhost:$_CL_REST_PORT $overview"
    fi
    return "$rc"
}

# Submits JAR to the cluster with Flink's own command line front end (what `flink run --detached`
# does) and prints the job id. --savepoint/--allow-non-restored-state are `flink run`'s
# --fromSavepoint/--allowNonRestoredState; the rest are the job's --key value settings.
cluster_submit() { # JAR [--savepoint P] [--allow-non-restored-state] [--key value ...]
    _cluster_settings || return 1
    local jar=$1 flink_args=() job_args=()
    shift
    while (($#)); do
        case $1 in
            --savepoint) flink_args+=(--fromSavepoint "${2:?--savepoint needs a path}"); shift 2 ;;
            --allow-non-restored-state) flink_args+=(--allowNonRestoredState); shift ;;
            *) job_args+=("$1"); shift ;;
        esac
    done
    if ! _cluster_rest_up; then
        _svc_err "no Flink cluster answers on http://127.0.0.1:$_CL_REST_PORT (bin/tributary cluster start)"
        return 1
    fi
    FLINK_CONF_DIR="$_CL_CONF_DIR" "$(_svc_java)" "${JAVA_OPENS[@]}" \
        -Dlog4j.configurationFile="$_CL_CONF_DIR/log4j-cli.properties" \
        -cp "$(_cluster_classpath)" org.apache.flink.client.cli.CliFrontend \
        run --detached -Drest.address=127.0.0.1 "-Drest.port=$_CL_REST_PORT" ${flink_args[@]+"${flink_args[@]}"} \
        "$jar" ${job_args[@]+"${job_args[@]}"}
}

cluster_main() {
    local command=${1:-}
    (($# == 0)) || shift
    case $command in
        start) cluster_start ;;
        stop) cluster_stop ;;
        status) cluster_status ;;
        *)
            [[ -z $command ]] || _svc_err "unknown cluster command '$command'"
            printf 'usage: bin/tributary cluster start|stop|status\n' >&2
            return 2
            ;;
    esac
}
