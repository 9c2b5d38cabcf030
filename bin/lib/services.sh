# shellcheck shell=bash
#
# The local services (ClickHouse 26.7, Kafka 4.2, the Flink session cluster) are supervised by a Java
# program with its own tests: the services module (io.tributary.services.Services; its Javadoc lists
# the commands and services/src/main/java/io/tributary/services/Settings.java the TRIBUTARY_* settings).
# This file only builds it when needed and runs it. Sourced by bin/tributary and by integration tests,
# with ROOT set to the repository root. Every message starts with "tributary:"; errors go to stderr.

SERVICES_JAR="$ROOT/services/target/tributary-services.jar"

# Builds the services module when its jar is missing or older than its sources or poms: quiet and
# a find(1) away when up to date.
_svc_build() {
    if [[ -f $SERVICES_JAR && -z $(find "$ROOT/pom.xml" "$ROOT/services/pom.xml" "$ROOT/services/src/main" \
        -newer "$SERVICES_JAR" -print -quit) ]]; then
        return 0
    fi
    printf 'tributary: building the services program (mvn package)...\n' >&2
    local out
    if ! out=$(cd "$ROOT" && mvn -B -q -DskipTests -pl services package 2>&1); then
        printf '%s\n' "$out" | tail -n 25 >&2
        printf 'tributary: error: building the services module failed\n' >&2
        return 1
    fi
}

_svc_java() {
    if [[ -n ${JAVA_HOME:-} && -x $JAVA_HOME/bin/java ]]; then
        printf '%s' "$JAVA_HOME/bin/java"
    elif command -v java >/dev/null 2>&1; then
        printf 'java'
    else
        printf 'tributary: error: java (17 or newer) is required\n' >&2
        return 1
    fi
}

# services COMMAND ARGS...: runs the services program (a short-lived JVM tuned to start fast).
services() {
    _svc_build || return 1
    local java
    java=$(_svc_java) || return 1
    ROOT=$ROOT "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto \
        -cp "$SERVICES_JAR" io.tributary.services.Services "$@"
}

# The names bin/tributary and the tests have called since these were bash functions.
services_main() { services "$@"; }
services_start() { services start "$@"; }
services_stop() { services stop "$@"; }
services_status() { services status "$@"; }
services_is_running() { services is-running "$@"; }
services_clickhouse_url() { services clickhouse-url; }
services_clickhouse_query() { services query "$@"; }
services_kafka_bootstrap() { services kafka-bootstrap; }
services_kafka_secure() { services kafka-secure; }
services_kafka_classpath() { services kafka-classpath; }
services_kafka_tool() { services kafka-tool "$@"; }

# Kept for ClusterITCase, which reads the TaskManager's PID with `_svc_settings && _svc_pid flink-taskmanager`.
_svc_settings() { :; }
_svc_pid() { services pid "$1"; }
