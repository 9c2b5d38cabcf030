# shellcheck shell=bash
#
# Local ClickHouse 26.7 and Kafka 4.2 for development, each its own background process.
# Sourced by bin/tributary (with ROOT set to the repository root), which calls
#     services_main start|stop|status|reset [clickhouse|kafka]...
#
# ClickHouse: libchdb.so from the npm package @chdb/lib-linux-x64-gnu (a complete ClickHouse
# 26.7.2.1 build), run by bin/lib/clickhouse_server.py, serving HTTP only.
# Kafka: one KRaft node (broker + controller) on a classpath that Maven resolves from
# bin/lib/kafka/pom.xml.
#
# Settings (environment; read on every call):
#   TRIBUTARY_CLICKHOUSE_PORT        ClickHouse HTTP port                          8123
#   TRIBUTARY_CLICKHOUSE_MAX_MEMORY  ClickHouse max_server_memory_usage, bytes     4294967296
#   TRIBUTARY_CLICKHOUSE_TCP_PORT    ClickHouse native port (Distributed tables)   ClickHouse port + 1
#   TRIBUTARY_KAFKA_PORT             Kafka PLAINTEXT listener                      9092
#   TRIBUTARY_KAFKA_CONTROLLER_PORT  KRaft controller listener                     Kafka port + 1
#   TRIBUTARY_KAFKA_SASL_SSL_PORT    SASL_SSL listener (SCRAM-SHA-512, PLAIN)      Kafka port + 2
#   TRIBUTARY_KAFKA_SSL_PORT         SSL listener requiring client certificates    Kafka port + 3
#   TRIBUTARY_KAFKA_PARTITIONS       num.partitions of auto-created topics         4
#   TRIBUTARY_KAFKA_HEAP             broker JVM -Xmx                               512m
#   TRIBUTARY_STATE_DIR              data, pid and log files, one dir per service  $ROOT/.run
#   TRIBUTARY_CACHE_DIR              downloads, kept outside the work tree         ${XDG_CACHE_HOME:-~/.cache}/tributary
#
# Functions for bin/tributary besides services_main (all return non-zero on failure):
#   services_start|services_stop [--purge]|services_status [NAME...]
#   services_is_running NAME          quiet; 0 when NAME's recorded process is alive
#   services_clickhouse_url           http://127.0.0.1:<port>
#   services_clickhouse_query SQL     runs SQL over HTTP, prints the result
#   services_kafka_bootstrap          127.0.0.1:<port>
#   services_kafka_secure             the secure listeners and the CA that signs them, as KEY=VALUE lines
#   services_kafka_classpath          the broker/tools classpath (resolved by Maven once)
#   services_kafka_tool CLASS ARGS... runs a Kafka tool, e.g. org.apache.kafka.tools.TopicCommand
#
# Every message starts with "tributary:"; errors go to stderr.

_SVC_NAMES=(clickhouse kafka)

_SVC_CHDB_PACKAGE="@chdb/lib-linux-x64-gnu"
_SVC_CHDB_VERSION="26.7.3-stable.1"
# shasum from `npm view @chdb/lib-linux-x64-gnu@26.7.3-stable.1 dist`; guards a reused tarball.
_SVC_CHDB_SHA1="d2905fafd0e0ac0e231cccadd1f0f6d010977297"
_SVC_CLICKHOUSE_START_TIMEOUT=60
_SVC_KAFKA_START_TIMEOUT=90
_SVC_CLICKHOUSE_STOP_TIMEOUT=25
_SVC_KAFKA_STOP_TIMEOUT=30
# A log bigger than this is moved to <log>.1 when its service starts.
_SVC_LOG_ROTATE_BYTES=$((50 * 1024 * 1024))

# ---------------------------------------------------------------------------------------------
# Messages and settings

_svc_say() { printf 'tributary: %s\n' "$*"; }
_svc_err() { printf 'tributary: error: %s\n' "$*" >&2; }

# Prints the last lines of a log file to stderr, indented, after naming it.
_svc_log_tail() {
    local log=$1
    if [[ -s $log ]]; then
        printf 'tributary: last lines of %s:\n' "$log" >&2
        tail -n 25 "$log" | sed 's/^/    /' >&2
    else
        printf 'tributary: %s is empty or missing\n' "$log" >&2
    fi
}

_svc_is_port() { [[ $1 =~ ^[0-9]+$ ]] && ((10#$1 >= 1 && 10#$1 <= 65535)); }

# Reads the TRIBUTARY_* settings into _SVC_* globals and checks them; messages name the variable.
_svc_settings() {
    if [[ -z ${ROOT:-} ]]; then
        _svc_err "ROOT is not set (bin/tributary sets it to the repository root before sourcing services.sh)"
        return 1
    fi
    _SVC_CH_PORT=${TRIBUTARY_CLICKHOUSE_PORT:-8123}
    _SVC_CH_MAX_MEMORY=${TRIBUTARY_CLICKHOUSE_MAX_MEMORY:-4294967296}
    _SVC_KAFKA_PORT=${TRIBUTARY_KAFKA_PORT:-9092}
    _SVC_KAFKA_PARTITIONS=${TRIBUTARY_KAFKA_PARTITIONS:-4}
    _SVC_KAFKA_HEAP=${TRIBUTARY_KAFKA_HEAP:-512m}

    if ! _svc_is_port "$_SVC_CH_PORT"; then
        _svc_err "TRIBUTARY_CLICKHOUSE_PORT='$_SVC_CH_PORT' is not a TCP port (1-65535)"
        return 1
    fi
    if ! _svc_is_port "$_SVC_KAFKA_PORT"; then
        _svc_err "TRIBUTARY_KAFKA_PORT='$_SVC_KAFKA_PORT' is not a TCP port (1-65535)"
        return 1
    fi
    _SVC_KAFKA_CONTROLLER_PORT=${TRIBUTARY_KAFKA_CONTROLLER_PORT:-$((10#$_SVC_KAFKA_PORT + 1))}
    if ! _svc_is_port "$_SVC_KAFKA_CONTROLLER_PORT"; then
        _svc_err "TRIBUTARY_KAFKA_CONTROLLER_PORT='$_SVC_KAFKA_CONTROLLER_PORT' is not a TCP port (1-65535)"
        return 1
    fi
    _SVC_KAFKA_SASL_SSL_PORT=${TRIBUTARY_KAFKA_SASL_SSL_PORT:-$((10#$_SVC_KAFKA_PORT + 2))}
    _SVC_KAFKA_SSL_PORT=${TRIBUTARY_KAFKA_SSL_PORT:-$((10#$_SVC_KAFKA_PORT + 3))}
    local name
    for name in TRIBUTARY_KAFKA_SASL_SSL_PORT:$_SVC_KAFKA_SASL_SSL_PORT TRIBUTARY_KAFKA_SSL_PORT:$_SVC_KAFKA_SSL_PORT; do
        if ! _svc_is_port "${name#*:}"; then
            _svc_err "${name%%:*}='${name#*:}' is not a TCP port (1-65535)"
            return 1
        fi
    done
    _SVC_CH_TCP_PORT=${TRIBUTARY_CLICKHOUSE_TCP_PORT:-$((10#$_SVC_CH_PORT + 1))}
    if ! _svc_is_port "$_SVC_CH_TCP_PORT"; then
        _svc_err "TRIBUTARY_CLICKHOUSE_TCP_PORT='$_SVC_CH_TCP_PORT' is not a TCP port (1-65535)"
        return 1
    fi
    if [[ $(printf '%s\n' "$_SVC_CH_PORT" "$_SVC_CH_TCP_PORT" "$_SVC_KAFKA_PORT" "$_SVC_KAFKA_CONTROLLER_PORT" \
        "$_SVC_KAFKA_SASL_SSL_PORT" "$_SVC_KAFKA_SSL_PORT" | sort -u | wc -l) != 6 ]]; then
        _svc_err "TRIBUTARY_CLICKHOUSE_PORT ($_SVC_CH_PORT), TRIBUTARY_CLICKHOUSE_TCP_PORT ($_SVC_CH_TCP_PORT)," \
            "TRIBUTARY_KAFKA_PORT ($_SVC_KAFKA_PORT)," \
            "TRIBUTARY_KAFKA_CONTROLLER_PORT ($_SVC_KAFKA_CONTROLLER_PORT), TRIBUTARY_KAFKA_SASL_SSL_PORT" \
            "($_SVC_KAFKA_SASL_SSL_PORT) and TRIBUTARY_KAFKA_SSL_PORT ($_SVC_KAFKA_SSL_PORT) must all differ"
        return 1
    fi
    if ! [[ $_SVC_KAFKA_PARTITIONS =~ ^[0-9]+$ ]] || ((10#$_SVC_KAFKA_PARTITIONS < 1)); then
        _svc_err "TRIBUTARY_KAFKA_PARTITIONS='$_SVC_KAFKA_PARTITIONS' is not a positive integer"
        return 1
    fi
    if ! [[ $_SVC_CH_MAX_MEMORY =~ ^[0-9]+$ ]] || ((10#$_SVC_CH_MAX_MEMORY < 268435456)); then
        _svc_err "TRIBUTARY_CLICKHOUSE_MAX_MEMORY='$_SVC_CH_MAX_MEMORY' must be a number of bytes, at least 268435456"
        return 1
    fi
    if ! [[ $_SVC_KAFKA_HEAP =~ ^[0-9]+[kKmMgG]?$ ]]; then
        _svc_err "TRIBUTARY_KAFKA_HEAP='$_SVC_KAFKA_HEAP' is not a JVM heap size such as 512m or 1g"
        return 1
    fi

    local state=${TRIBUTARY_STATE_DIR:-$ROOT/.run}
    local cache=${TRIBUTARY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tributary}
    if ! mkdir -p "$state" || ! _SVC_STATE_DIR=$(cd "$state" && pwd -P); then
        _svc_err "cannot create TRIBUTARY_STATE_DIR '$state'"
        return 1
    fi
    if ! mkdir -p "$cache" || ! _SVC_CACHE_DIR=$(cd "$cache" && pwd -P); then
        _svc_err "cannot create TRIBUTARY_CACHE_DIR '$cache'"
        return 1
    fi
}

_svc_dir() { printf '%s/%s' "$_SVC_STATE_DIR" "$1"; }
_svc_pid_file() { printf '%s/%s/%s.pid' "$_SVC_STATE_DIR" "$1" "$1"; }
_svc_log_file() { printf '%s/%s/%s.log' "$_SVC_STATE_DIR" "$1" "$1"; }

_svc_port() {
    case $1 in
        clickhouse) printf '%s' "$_SVC_CH_PORT" ;;
        kafka) printf '%s' "$_SVC_KAFKA_PORT" ;;
    esac
}

# The argument that identifies this state dir's process of a service on its command line,
# so a recycled PID that now belongs to something else is never taken for it.
_svc_marker() {
    case $1 in
        clickhouse) printf -- '--path=%s/clickhouse/data' "$_SVC_STATE_DIR" ;;
        kafka) printf '%s/kafka/server.properties' "$_SVC_STATE_DIR" ;;
        # the processes of the local Flink cluster (lib/cluster.sh) carry this system property
        flink-jobmanager | flink-taskmanager) printf -- '-Dtributary.cluster=%s/%s' "$_SVC_STATE_DIR" "$1" ;;
    esac
}

_svc_require() {
    local tool
    for tool in "$@"; do
        if ! command -v "$tool" >/dev/null 2>&1; then
            _svc_err "'$tool' is required but not on PATH"
            return 1
        fi
    done
}

_svc_java() {
    if [[ -n ${JAVA_HOME:-} && -x $JAVA_HOME/bin/java ]]; then
        printf '%s' "$JAVA_HOME/bin/java"
    elif command -v java >/dev/null 2>&1; then
        printf 'java'
    else
        _svc_err "java (17 or newer) is required: not on PATH and JAVA_HOME is not set"
        return 1
    fi
}

_svc_file_hash() { # sha1|sha256 FILE
    local sum
    if command -v "${1}sum" >/dev/null 2>&1; then
        sum=$("${1}sum" <"$2") || return 1
    elif command -v shasum >/dev/null 2>&1; then
        sum=$(shasum -a "${1#sha}" <"$2") || return 1
    else
        sum=$(python3 -c 'import hashlib, sys; print(hashlib.new(sys.argv[1], open(sys.argv[2], "rb").read()).hexdigest())' "$1" "$2") || return 1
    fi
    printf '%s' "${sum%% *}"
}

# Runs "$@" holding an exclusive lock on LOCKFILE when flock(1) exists (it does on Linux), so two
# concurrent starts do not download, resolve or launch the same thing twice.
_svc_locked() { # LOCKFILE COMMAND...
    local lockfile=$1 fd rc=0
    shift
    if ! command -v flock >/dev/null 2>&1; then
        "$@" || rc=$?
        return "$rc"
    fi
    exec {fd}>"$lockfile"
    if ! flock -w 600 "$fd"; then
        exec {fd}>&-
        _svc_err "timed out waiting for the lock $lockfile"
        return 1
    fi
    "$@" || rc=$?
    exec {fd}>&-
    return "$rc"
}

# ---------------------------------------------------------------------------------------------
# Processes

# Prints the live PID recorded for a service. Removes a stale pid file. Fails when none is alive.
_svc_pid() {
    local name=$1 pid_file pid
    pid_file=$(_svc_pid_file "$name")
    [[ -f $pid_file ]] || return 1
    pid=$(<"$pid_file")
    if [[ $pid =~ ^[0-9]+$ ]] && _svc_alive "$pid" && _svc_cmdline_has "$pid" "$(_svc_marker "$name")"; then
        printf '%s' "$pid"
        return 0
    fi
    _svc_say "$name: removing stale pid file $pid_file (pid ${pid:-?} is not running)" >&2
    rm -f "$pid_file"
    return 1
}

# kill -0 also succeeds for a zombie, which an init that reaps slowly can leave for a while.
_svc_alive() { # PID
    kill -0 "$1" 2>/dev/null || return 1
    [[ ! -r /proc/$1/status ]] || ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

_svc_cmdline_has() { # PID ARG
    if [[ -r /proc/$1/cmdline ]]; then
        tr '\0' '\n' <"/proc/$1/cmdline" | grep -Fxq -- "$2"
    else
        ps -o args= -p "$1" 2>/dev/null | grep -Fq -- "$2"
    fi
}

# Starts "$@" detached (own session, stdin /dev/null, stdout+stderr appended to LOG, no inherited
# descriptors) and prints its PID. python3 does this portably; setsid(1) forks, hiding the PID.
_svc_spawn() { # LOG COMMAND...
    python3 -c 'import subprocess, sys
with open(sys.argv[1], "ab") as log:
    child = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                             start_new_session=True, close_fds=True)
print(child.pid)' "$@"
}

_svc_port_open() { # PORT
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

_svc_rotate_log() {
    local log=$1 size
    [[ -f $log ]] || return 0
    size=$(wc -c <"$log")
    if ((size > _SVC_LOG_ROTATE_BYTES)); then
        mv -f "$log" "$log.1"
    fi
}

# Prints the resident memory of PID and its child processes (the ClickHouse engine runs in a child
# of its supervisor) as "123 MiB", or "?" where /proc is missing.
_svc_rss() { # PID
    local pid kb total=0 children=""
    [[ -r /proc/$1/status ]] || { printf '?'; return 0; }
    [[ -r /proc/$1/task/$1/children ]] && children=$(<"/proc/$1/task/$1/children")
    for pid in "$1" $children; do
        kb=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null) || true
        total=$((total + ${kb:-0}))
    done
    printf '%d MiB' $((total / 1024))
}

_svc_now_ms() {
    if [[ -n ${EPOCHREALTIME:-} ]]; then # bash 5
        local now=${EPOCHREALTIME/[.,]/}
        printf '%s' $((10#$now / 1000))
    else
        printf '%s' $((SECONDS * 1000))
    fi
}

# Waits until HEALTH_FN succeeds, failing early when PID exits. Prints nothing.
_svc_wait_healthy() { # NAME PID TIMEOUT HEALTH_FN
    local name=$1 pid=$2 timeout=$3 health=$4 deadline
    deadline=$((SECONDS + timeout))
    while ((SECONDS < deadline)); do
        if ! _svc_alive "$pid"; then
            rm -f "$(_svc_pid_file "$name")"
            _svc_err "$name (pid $pid) exited during start-up; see $(_svc_log_file "$name")"
            _svc_log_tail "$(_svc_log_file "$name")"
            return 1
        fi
        # Alive again afterwards: the check must not be passed by another process on the same port.
        if "$health" && _svc_alive "$pid"; then
            return 0
        fi
        sleep 0.5
    done
    _svc_err "$name (pid $pid) did not become healthy within ${timeout}s; see $(_svc_log_file "$name")" \
        "(it is left running: 'bin/tributary services stop $name' ends it)"
    _svc_log_tail "$(_svc_log_file "$name")"
    return 1
}

# Fails when PORT answers but is not ours: the service cannot bind it.
_svc_check_port_free() { # NAME PORT VARIABLE
    if _svc_port_open "$2"; then
        _svc_err "$1: port $2 on 127.0.0.1 is already in use by another process;" \
            "stop it or choose another port with $3=..."
        return 1
    fi
}

_svc_stop_one() { # NAME TIMEOUT
    local name=$1 timeout=$2 pid deadline
    if ! pid=$(_svc_pid "$name"); then
        _svc_say "$name: not running"
        return 0
    fi
    kill -TERM "$pid" 2>/dev/null || true
    deadline=$((SECONDS + timeout))
    while _svc_alive "$pid" && ((SECONDS < deadline)); do
        sleep 0.2
    done
    if _svc_alive "$pid"; then
        _svc_say "$name: pid $pid still running ${timeout}s after SIGTERM, sending SIGKILL"
        kill -KILL "$pid" 2>/dev/null || true
        deadline=$((SECONDS + 10))
        while _svc_alive "$pid" && ((SECONDS < deadline)); do sleep 0.1; done
    fi
    rm -f "$(_svc_pid_file "$name")"
    _svc_say "$name: stopped (pid $pid)"
}

# ---------------------------------------------------------------------------------------------
# ClickHouse

_svc_clickhouse_health() {
    local pong
    pong=$(curl -fsS --max-time 2 "http://127.0.0.1:$_SVC_CH_PORT/ping" 2>/dev/null) && [[ $pong == "Ok." ]]
}

_svc_clickhouse_version() {
    curl -fsS --max-time 5 "http://127.0.0.1:$_SVC_CH_PORT/" --data-binary 'SELECT version()'
}

# Prints the path of libchdb.so, downloading and unpacking the npm package on first use.
_svc_chdb_lib() {
    local lib="$_SVC_CACHE_DIR/chdb/lib-linux-x64-gnu-$_SVC_CHDB_VERSION/libchdb.so"
    if [[ ! -f $lib ]]; then
        mkdir -p "$_SVC_CACHE_DIR/chdb"
        _svc_locked "$_SVC_CACHE_DIR/chdb/.lock" _svc_chdb_fetch "$lib" >&2 || return 1
    fi
    printf '%s' "$lib"
}

_svc_chdb_fetch() { # LIB
    local lib=$1 dir="$_SVC_CACHE_DIR/chdb" tarball tmp
    [[ -f $lib ]] && return 0 # unpacked by a concurrent start while we waited for the lock
    if [[ $(uname -s) != Linux || $(uname -m) != x86_64 ]]; then
        _svc_err "clickhouse: $_SVC_CHDB_PACKAGE runs on Linux x86-64 only (this is $(uname -s) $(uname -m))"
        return 1
    fi
    tarball="$dir/chdb-lib-linux-x64-gnu-$_SVC_CHDB_VERSION.tgz" # the name npm pack gives it
    if [[ -f $tarball && $(_svc_file_hash sha1 "$tarball") != "$_SVC_CHDB_SHA1" ]]; then
        _svc_say "clickhouse: $tarball is incomplete or corrupt, downloading it again"
        rm -f "$tarball"
    fi
    if [[ ! -f $tarball ]]; then
        _svc_require npm || return 1
        _svc_say "clickhouse: downloading $_SVC_CHDB_PACKAGE@$_SVC_CHDB_VERSION (ClickHouse 26.7, ~178 MB) into $dir"
        tmp=$(mktemp -d "$dir/.download.XXXXXX")
        if ! (cd "$tmp" && npm pack --silent --ignore-scripts "$_SVC_CHDB_PACKAGE@$_SVC_CHDB_VERSION" >/dev/null); then
            rm -rf "$tmp"
            _svc_err "clickhouse: 'npm pack $_SVC_CHDB_PACKAGE@$_SVC_CHDB_VERSION' failed (is the npm registry reachable?)"
            return 1
        fi
        if [[ $(_svc_file_hash sha1 "$tmp/${tarball##*/}") != "$_SVC_CHDB_SHA1" ]]; then
            rm -rf "$tmp"
            _svc_err "clickhouse: the downloaded tarball's sha1 is not $_SVC_CHDB_SHA1"
            return 1
        fi
        mv -f "$tmp/${tarball##*/}" "$tarball"
        rm -rf "$tmp"
    fi
    _svc_say "clickhouse: unpacking libchdb.so into ${lib%/*}"
    tmp=$(mktemp -d "$dir/.unpack.XXXXXX")
    if ! tar -xzf "$tarball" -C "$tmp" package/libchdb.so; then
        rm -rf "$tmp"
        _svc_err "clickhouse: cannot unpack $tarball"
        return 1
    fi
    rm -rf "${lib%/*}"
    mv "$tmp/package" "${lib%/*}"
    rm -rf "$tmp"
}

_svc_clickhouse_write_config() { # FILE
    local users="${1%/*}/users.xml"
    cat >"$users" <<EOF
<!-- Written by bin/lib/services.sh on every start; edits are overwritten. -->
<clickhouse>
    <profiles>
        <default></default>
        <readonly><readonly>1</readonly></readonly>
        <!-- ClickHouse sends 200 and its headers before a query ends, and a later failure only in
             a trailing header and the body (the tests of INSERTs that fail after their 200) -->
        <progress>
            <send_progress_in_http_headers>1</send_progress_in_http_headers>
            <http_headers_progress_interval_ms>1</http_headers_progress_interval_ms>
        </progress>
        <!-- a server short of memory for large INSERTs (the tests of batches split for memory) -->
        <small_memory>
            <max_memory_usage>40000000</max_memory_usage>
        </small_memory>
    </profiles>
    <users>
        <!-- as clickhouse-local's built-in default user -->
        <default>
            <password></password>
            <networks><ip>::/0</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
        <!-- a user that may read but not write, for the tests of permission errors -->
        <tributary_readonly>
            <password></password>
            <networks><ip>::/0</ip></networks>
            <profile>readonly</profile>
            <quota>default</quota>
        </tributary_readonly>
        <!-- users whose profiles above change how INSERTs are answered or limited -->
        <tributary_progress>
            <password></password>
            <networks><ip>::/0</ip></networks>
            <profile>progress</profile>
            <quota>default</quota>
        </tributary_progress>
        <tributary_small_memory>
            <password></password>
            <networks><ip>::/0</ip></networks>
            <profile>small_memory</profile>
            <quota>default</quota>
        </tributary_small_memory>
        <!-- a user with a password, for the tests of passwords taken from files and the environment -->
        <tributary_password>
            <password>pw-from-the-environment</password>
            <networks><ip>::/0</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </tributary_password>
    </users>
    <quotas><default></default></quotas>
</clickhouse>
EOF
    cat >"$1" <<EOF
<!-- Written by bin/lib/services.sh on every start; edits are overwritten. -->
<clickhouse>
    <users_config>$users</users_config>
    <!-- One shard of this server over its native port: what Distributed tables in the tests spread over.
         clickhouse-local runs no distributed DDL (ON CLUSTER), so replicated clusters are not tried here. -->
    <remote_servers>
        <tributary_local>
            <shard><replica><host>127.0.0.1</host><port>$_SVC_CH_TCP_PORT</port></replica></shard>
        </tributary_local>
    </remote_servers>
    <!-- A shared development machine: cap the server instead of taking 90% of RAM. -->
    <max_server_memory_usage>$_SVC_CH_MAX_MEMORY</max_server_memory_usage>
    <mark_cache_size>268435456</mark_cache_size>
    <index_mark_cache_size>134217728</index_mark_cache_size>
    <primary_index_cache_size>268435456</primary_index_cache_size>
    <!-- Off by default in clickhouse-local; kept a few days to debug what the sink sent. -->
    <query_log>
        <database>system</database>
        <table>query_log</table>
        <flush_interval_milliseconds>1000</flush_interval_milliseconds>
        <ttl>event_date + INTERVAL 3 DAY</ttl>
    </query_log>
    <logger>
        <log>$(_svc_log_file clickhouse)</log>
        <console>0</console>
    </logger>
</clickhouse>
EOF
}

_svc_clickhouse_start() {
    local dir pid lib started version
    dir=$(_svc_dir clickhouse)
    if pid=$(_svc_pid clickhouse); then
        _svc_wait_healthy clickhouse "$pid" "$_SVC_CLICKHOUSE_START_TIMEOUT" _svc_clickhouse_health || return 1
        _svc_say "clickhouse: already running, reusing it (pid $pid, $(services_clickhouse_url))"
        return 0
    fi
    _svc_check_port_free clickhouse "$_SVC_CH_PORT" TRIBUTARY_CLICKHOUSE_PORT || return 1
    _svc_check_port_free clickhouse "$_SVC_CH_TCP_PORT" TRIBUTARY_CLICKHOUSE_TCP_PORT || return 1
    _svc_require python3 curl tar || return 1
    lib=$(_svc_chdb_lib) || return 1

    mkdir -p "$dir/data"
    _svc_clickhouse_write_config "$dir/config.xml"
    _svc_rotate_log "$(_svc_log_file clickhouse)"
    started=$(_svc_now_ms)
    pid=$(_svc_spawn "$(_svc_log_file clickhouse)" python3 "$ROOT/bin/lib/clickhouse_server.py" \
        --lib "$lib" "$(_svc_marker clickhouse)" --http-port "$_SVC_CH_PORT" --tcp-port "$_SVC_CH_TCP_PORT" --listen-host 127.0.0.1 \
        -- "--config-file=$dir/config.xml" --log-level=warning) || return 1
    printf '%s\n' "$pid" >"$(_svc_pid_file clickhouse)"

    _svc_wait_healthy clickhouse "$pid" "$_SVC_CLICKHOUSE_START_TIMEOUT" _svc_clickhouse_health || return 1
    if ! version=$(_svc_clickhouse_version); then
        _svc_err "clickhouse (pid $pid) answers /ping but not 'SELECT version()'; see $(_svc_log_file clickhouse)"
        _svc_log_tail "$(_svc_log_file clickhouse)"
        return 1
    fi
    _svc_say "clickhouse: started ClickHouse $version (pid $pid, $(services_clickhouse_url)," \
        "data in $dir/data) in $(($(_svc_now_ms) - started)) ms"
}

# ---------------------------------------------------------------------------------------------
# Kafka

# Prints the path of a file holding the Kafka classpath, resolving it with Maven when the pom changed
# (the file name carries the pom's sha256) or a jar it lists has gone from the local repository.
_svc_kafka_classpath_file() {
    local pom="$ROOT/bin/lib/kafka/pom.xml" dir="$_SVC_CACHE_DIR/kafka" file
    if [[ ! -f $pom ]]; then
        _svc_err "kafka: $pom is missing"
        return 1
    fi
    mkdir -p "$dir"
    file="$dir/classpath-$(_svc_file_hash sha256 "$pom").txt" || return 1
    if ! _svc_classpath_complete "$file"; then
        _svc_locked "$dir/.lock" _svc_kafka_resolve "$pom" "$file" >&2 || return 1
    fi
    printf '%s' "$file"
}

_svc_classpath_complete() { # FILE
    local jar
    [[ -s $1 ]] || return 1
    local IFS=:
    for jar in $(<"$1"); do
        [[ -f $jar ]] || return 1
    done
}

_svc_kafka_resolve() { # POM FILE
    local pom=$1 file=$2 tmp out
    _svc_classpath_complete "$file" && return 0 # resolved by a concurrent start
    _svc_require mvn || return 1
    _svc_say "kafka: resolving the Kafka 4.2.0 classpath with Maven (first run downloads ~60 MB)"
    tmp="$file.tmp.$$"
    if ! out=$(mvn -B -q -f "$pom" dependency:build-classpath "-Dmdep.outputFile=$tmp" 2>&1); then
        rm -f "$tmp"
        _svc_err "kafka: 'mvn -f $pom dependency:build-classpath' failed:"
        printf '%s\n' "$out" | tail -n 25 | sed 's/^/    /' >&2
        return 1
    fi
    mv -f "$tmp" "$file"
}

# Runs a Java main class on the Kafka classpath with quiet tool logging.
_svc_kafka_java() { # CLASS ARGS...
    local java cp_file
    java=$(_svc_java) || return 1
    cp_file=$(_svc_kafka_classpath_file) || return 1
    CLASSPATH=$(<"$cp_file") "$java" -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Djava.awt.headless=true \
        "-Dlog4j2.configurationFile=$ROOT/bin/lib/kafka/tools-log4j2.properties" "$@"
}

# Healthy = the broker answers an ApiVersions request (cheap; the listener accepts connections
# seconds before it processes requests) and then a metadata request made by TopicCommand --list.
_svc_kafka_health() {
    _svc_kafka_api_versions_ok "$_SVC_KAFKA_PORT" || return 1
    _svc_kafka_java org.apache.kafka.tools.TopicCommand --bootstrap-server "$(services_kafka_bootstrap)" \
        --command-config "$(_svc_dir kafka)/admin.properties" --list >/dev/null 2>&1
}

# Sends ApiVersions v0 (api key 18, accepted by every Kafka version) and checks that the reply
# carries our correlation id and error code 0. A listener that is still starting holds the request
# until it processes requests; timeout bounds that.
_svc_kafka_api_versions_ok() { # PORT
    local reply
    reply=$(
        exec 2>/dev/null
        exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
        # size 26 | api key 18 | version 0 | correlation id 7 | client id length 16 | client id
        printf '\x00\x00\x00\x1a\x00\x12\x00\x00\x00\x00\x00\x07\x00\x10tributary-health' >&3
        timeout 2 head -c 10 <&3 | od -An -tx1
    ) || return 1
    reply=${reply//[[:space:]]/}
    # reply = size (4 bytes, any) | correlation id 7 | error code 0
    [[ ${#reply} == 20 && ${reply:8} == 000000070000 ]]
}

# A CA and the broker's certificate (for localhost and 127.0.0.1) in DIR/tls, made once with
# openssl: the secure listeners' identity. The CA's key stays there so that tests can issue client
# certificates the SSL listener accepts. Not for anything but this machine's tests.
_svc_kafka_tls() { # DIR
    local tls=$1/tls out
    [[ -s $tls/broker-keystore.pem && -s $tls/ca.pem && -s $tls/ca.key && -s $tls/jwks.json ]] && return 0
    mkdir -p "$tls"
    if ! out=$(
        set -e
        cd "$tls"
        openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 3650 \
            -subj "/CN=Tributary local Kafka CA" 2>&1
        openssl req -newkey rsa:2048 -nodes -keyout broker.key -out broker.csr -subj "/CN=localhost" 2>&1
        printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >broker.ext
        openssl x509 -req -in broker.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out broker.pem -days 3650 \
            -extfile broker.ext 2>&1
        cat broker.key broker.pem >broker-keystore.pem
        # the key an OAuth test issuer signs tokens with, and its public half as a JWKS for the broker
        openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out oauth.key 2>&1
        openssl rsa -in oauth.key -noout -modulus 2>/dev/null | python3 -c '
import base64, json, sys
n = bytes.fromhex(sys.stdin.read().strip().split("=", 1)[1])
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
print(json.dumps({"keys": [{"kty": "RSA", "kid": "tributary-test", "use": "sig", "alg": "RS256",
                            "n": b64(n), "e": b64((65537).to_bytes(3, "big"))}]}))' >jwks.json
        chmod 600 ca.key broker.key broker-keystore.pem oauth.key
    ); then
        _svc_err "kafka: cannot make the secure listeners' certificates with openssl:"
        printf '%s\n' "$out" | tail -n 10 | sed 's/^/    /' >&2
        return 1
    fi
}

_svc_kafka_write_config() { # DIR SECURE(0|1)
    local dir=$1 secure=$2 listeners advertised map
    listeners="PLAINTEXT://127.0.0.1:$_SVC_KAFKA_PORT,CONTROLLER://127.0.0.1:$_SVC_KAFKA_CONTROLLER_PORT"
    advertised="PLAINTEXT://127.0.0.1:$_SVC_KAFKA_PORT"
    map="PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
    if ((secure)); then
        listeners+=",SASL_SSL://127.0.0.1:$_SVC_KAFKA_SASL_SSL_PORT,SSL://127.0.0.1:$_SVC_KAFKA_SSL_PORT"
        advertised+=",SASL_SSL://localhost:$_SVC_KAFKA_SASL_SSL_PORT,SSL://localhost:$_SVC_KAFKA_SSL_PORT"
        map+=",SASL_SSL:SASL_SSL,SSL:SSL"
    fi
    cat >"$dir/server.properties" <<EOF
# Written by bin/lib/services.sh on every start; edits are overwritten.
# One KRaft node that is both broker and controller, reachable on 127.0.0.1 only.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$_SVC_KAFKA_CONTROLLER_PORT
listeners=$listeners
advertised.listeners=$advertised
listener.security.protocol.map=$map
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$dir/data

# A single node: every replication factor is 1, or internal topics (consumer offsets,
# transactions) are never created and consumers with a group id see nothing.
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1

num.partitions=$_SVC_KAFKA_PARTITIONS
auto.create.topics.enable=true
group.initial.rebalance.delay.ms=0
# Sized for a 2-core development machine.
num.network.threads=2
num.io.threads=4
EOF
    if ((secure)); then
        cat >>"$dir/server.properties" <<EOF

# Secure listeners, for the tests of Kafka over TLS and SASL: the broker's certificate from
# $dir/tls. SASL_SSL takes SCRAM-SHA-512 (users created with the Admin API) and PLAIN (the one
# user below); SSL requires a client certificate from the same CA.
ssl.keystore.type=PEM
ssl.keystore.location=$dir/tls/broker-keystore.pem
sasl.enabled.mechanisms=SCRAM-SHA-512,PLAIN,OAUTHBEARER
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_tributary-plain="plain-secret";
# OAUTHBEARER: RS256 tokens checked against the JWKS of the tests' issuer (its key in $dir/tls/oauth.key)
listener.name.sasl_ssl.oauthbearer.sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;
listener.name.sasl_ssl.oauthbearer.sasl.server.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler
listener.name.sasl_ssl.oauthbearer.sasl.oauthbearer.jwks.endpoint.url=file://$dir/tls/jwks.json
listener.name.ssl.ssl.client.auth=required
listener.name.ssl.ssl.truststore.type=PEM
listener.name.ssl.ssl.truststore.location=$dir/tls/ca.pem
EOF
    fi
    # Admin client settings for the health check: fail fast instead of retrying for 60 s.
    cat >"$dir/admin.properties" <<EOF
request.timeout.ms=5000
default.api.timeout.ms=10000
EOF
}

_svc_kafka_format() { # DIR
    local dir=$1 cluster_id out
    [[ -f $dir/data/meta.properties ]] && return 0
    cluster_id=$(_svc_kafka_java kafka.tools.StorageTool random-uuid) || {
        _svc_err "kafka: 'kafka.tools.StorageTool random-uuid' failed"
        return 1
    }
    if ! out=$(_svc_kafka_java kafka.tools.StorageTool format -t "$cluster_id" -c "$dir/server.properties" 2>&1); then
        _svc_err "kafka: formatting $dir/data failed:"
        printf '%s\n' "$out" | tail -n 25 | sed 's/^/    /' >&2
        return 1
    fi
    _svc_say "kafka: formatted $dir/data (cluster id $cluster_id)"
}

_svc_kafka_start() {
    local dir pid java cp_file started secure
    dir=$(_svc_dir kafka)
    if pid=$(_svc_pid kafka); then
        _svc_wait_healthy kafka "$pid" "$_SVC_KAFKA_START_TIMEOUT" _svc_kafka_health || return 1
        _svc_say "kafka: already running, reusing it (pid $pid, bootstrap $(services_kafka_bootstrap))"
        return 0
    fi
    _svc_check_port_free kafka "$_SVC_KAFKA_PORT" TRIBUTARY_KAFKA_PORT || return 1
    _svc_check_port_free kafka "$_SVC_KAFKA_CONTROLLER_PORT" TRIBUTARY_KAFKA_CONTROLLER_PORT || return 1
    _svc_require python3 timeout od || return 1
    java=$(_svc_java) || return 1
    cp_file=$(_svc_kafka_classpath_file) || return 1

    mkdir -p "$dir/data"
    secure=0
    if command -v openssl >/dev/null 2>&1; then
        _svc_check_port_free kafka "$_SVC_KAFKA_SASL_SSL_PORT" TRIBUTARY_KAFKA_SASL_SSL_PORT || return 1
        _svc_check_port_free kafka "$_SVC_KAFKA_SSL_PORT" TRIBUTARY_KAFKA_SSL_PORT || return 1
        _svc_kafka_tls "$dir" || return 1
        secure=1
    else
        _svc_say "kafka: openssl is not on PATH; starting without the SASL_SSL and SSL listeners"
    fi
    _svc_kafka_write_config "$dir" "$secure"
    _svc_kafka_format "$dir" || return 1
    _svc_rotate_log "$(_svc_log_file kafka)"
    started=$(_svc_now_ms)
    pid=$(CLASSPATH=$(<"$cp_file") _svc_spawn "$(_svc_log_file kafka)" "$java" \
        -Xms128m "-Xmx$_SVC_KAFKA_HEAP" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError \
        -Djava.awt.headless=true "-Dlog4j2.configurationFile=$ROOT/bin/lib/kafka/log4j2.properties" \
        "-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=file://$dir/tls/jwks.json" \
        "-Dorg.apache.kafka.sasl.oauthbearer.allowed.files=$dir/tls/jwks.json" \
        kafka.Kafka "$(_svc_marker kafka)") || return 1
    printf '%s\n' "$pid" >"$(_svc_pid_file kafka)"

    _svc_wait_healthy kafka "$pid" "$_SVC_KAFKA_START_TIMEOUT" _svc_kafka_health || return 1
    _svc_say "kafka: started Kafka 4.2.0 (pid $pid, bootstrap $(services_kafka_bootstrap), data in $dir/data)" \
        "in $(($(_svc_now_ms) - started)) ms"
}

# ---------------------------------------------------------------------------------------------
# Public interface

services_usage() {
    cat <<'EOF'
usage: bin/tributary services start|stop|status|reset [clickhouse|kafka]...

  start           start the services (default: both); reuses ones already running
  stop [--purge]  stop them; --purge also deletes their data and logs
  status          print running (pid, port, RSS) or stopped; exit status 3 when any is stopped
  reset           same as stop --purge

Settings: TRIBUTARY_CLICKHOUSE_PORT (8123), TRIBUTARY_KAFKA_PORT (9092),
TRIBUTARY_KAFKA_CONTROLLER_PORT (Kafka port + 1), TRIBUTARY_KAFKA_PARTITIONS (4),
TRIBUTARY_CLICKHOUSE_MAX_MEMORY (4294967296), TRIBUTARY_KAFKA_HEAP (512m),
TRIBUTARY_STATE_DIR (.run), TRIBUTARY_CACHE_DIR (~/.cache/tributary).
EOF
}

# Checks service names and prints them in start order (all when none given).
_svc_names() {
    local name
    (($# > 0)) || set -- "${_SVC_NAMES[@]}"
    for name in "$@"; do
        case " ${_SVC_NAMES[*]} " in
            *" $name "*) ;;
            *)
                _svc_err "unknown service '$name' (known: ${_SVC_NAMES[*]})"
                return 1
                ;;
        esac
    done
    printf '%s\n' "$@"
}

services_start() {
    local names name
    _svc_settings || return 1
    names=$(_svc_names "$@") || return 1
    for name in $names; do
        mkdir -p "$(_svc_dir "$name")"
        _svc_locked "$(_svc_dir "$name")/.lock" "_svc_${name}_start" || return 1
    done
}

services_stop() {
    local purge=0 names name
    if [[ ${1:-} == --purge ]]; then
        purge=1
        shift
    fi
    _svc_settings || return 1
    names=$(_svc_names "$@") || return 1
    for name in $names; do
        case $name in
            clickhouse) _svc_stop_one clickhouse "$_SVC_CLICKHOUSE_STOP_TIMEOUT" || return 1 ;;
            kafka) _svc_stop_one kafka "$_SVC_KAFKA_STOP_TIMEOUT" || return 1 ;;
        esac
        if ((purge)) && [[ -d $(_svc_dir "$name") ]]; then
            rm -rf "$(_svc_dir "$name")"
            _svc_say "$name: deleted $(_svc_dir "$name")"
        fi
    done
}

services_status() {
    local names name pid port rc=0 note
    _svc_settings || return 1
    names=$(_svc_names "$@") || return 1
    for name in $names; do
        port=$(_svc_port "$name")
        if pid=$(_svc_pid "$name" 2>/dev/null); then
            note=""
            _svc_port_open "$port" || note=", not answering on its port"
            _svc_say "$name: running (pid $pid, port $port, RSS $(_svc_rss "$pid")$note)"
        else
            _svc_say "$name: stopped"
            rc=3
        fi
    done
    return "$rc"
}

services_is_running() { # NAME
    _svc_settings || return 1
    _svc_pid "$1" >/dev/null 2>&1
}

services_clickhouse_url() {
    _svc_settings || return 1
    printf 'http://127.0.0.1:%s\n' "$_SVC_CH_PORT"
}

services_kafka_bootstrap() {
    _svc_settings || return 1
    printf '127.0.0.1:%s\n' "$_SVC_KAFKA_PORT"
}

services_kafka_secure() {
    _svc_settings || return 1
    local tls
    tls="$(_svc_dir kafka)/tls"
    [[ -s $tls/ca.pem ]] || return 1
    printf 'sasl_ssl=localhost:%s\nssl=localhost:%s\nca_file=%s\nca_key=%s\noauth_key=%s\n' \
        "$_SVC_KAFKA_SASL_SSL_PORT" "$_SVC_KAFKA_SSL_PORT" "$tls/ca.pem" "$tls/ca.key" "$tls/oauth.key"
}

services_clickhouse_query() { # SQL
    _svc_settings || return 1
    local out
    if ! out=$(curl -sS --max-time 60 -w '\n%{http_code}' "http://127.0.0.1:$_SVC_CH_PORT/" --data-binary "$1"); then
        _svc_err "clickhouse: no answer on $(services_clickhouse_url) (is it started?)"
        return 1
    fi
    if [[ ${out##*$'\n'} != 200 ]]; then
        _svc_err "clickhouse: ${out%$'\n'*}"
        return 1
    fi
    out=${out%$'\n'*}
    out=${out%$'\n'}
    [[ -z $out ]] || printf '%s\n' "$out"
}

services_kafka_classpath() {
    _svc_settings || return 1
    local file
    file=$(_svc_kafka_classpath_file) || return 1
    printf '%s\n' "$(<"$file")"
}

services_kafka_tool() { # CLASS ARGS...
    _svc_settings || return 1
    _svc_kafka_java "$@"
}

services_main() {
    local command=${1:-}
    (($# == 0)) || shift
    case $command in
        start) services_start "$@" ;;
        stop) services_stop "$@" ;;
        status) services_status "$@" ;;
        reset) services_stop --purge "$@" ;;
        help | -h | --help) services_usage ;;
        *)
            [[ -z $command ]] || _svc_err "unknown services command '$command'"
            services_usage >&2
            return 2
            ;;
    esac
}
