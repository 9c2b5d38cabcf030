#!/usr/bin/env python3
"""Run the ClickHouse 26.7 engine inside libchdb.so as a local HTTP server.

libchdb.so (npm package @chdb/lib-linux-x64-gnu) exports
``chdb_query_cmdline(argc, argv)``, the clickhouse-local entry point. Given
``SYSTEM START LISTEN HTTP`` it opens the real ClickHouse HTTP interface and
serves for as long as the statement after it runs: an endless ``sleep`` scan
that costs no CPU. The services program (io.tributary.services.ClickHouse)
starts this script in its own session with stdin from /dev/null (the engine may read stdin during INSERT).

Two processes. This one supervises; a child (the same script with --engine)
loads the library. clickhouse-local ends the whole process on an exception
that escapes a server thread, and one does when a client sends a malformed
HTTP request and disconnects before the 400 reply is written (a raw TCP probe,
a client killed mid-header). The supervisor restarts an engine that dies by a
signal, at most MAX_CRASHES times per CRASH_WINDOW_SECONDS; an engine that
exits with an error (port taken, bad arguments) is not restarted.

Stopping: SIGTERM, SIGINT or SIGHUP to the supervisor is passed on to the
engine, which cancels its serving query over HTTP (``KILL QUERY``) so that
clickhouse-local shuts down cleanly instead of being torn down mid-flight. A
second signal, or a cancel that does not finish in time, ends it at once. The
engine dies with the supervisor (PR_SET_PDEATHSIG), so a SIGKILL to the
supervisor leaves nothing behind.

Usage: clickhouse_server.py --lib LIBCHDB --path DATA_DIR --http-port PORT [--tcp-port PORT]
                            [--listen-host HOST] [-- CLICKHOUSE_LOCAL_ARGS...]

With --tcp-port it serves ClickHouse's native protocol too (what Distributed tables use to
reach their shards).
"""

import argparse
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request

# One block per second keeps a cancel (KILL QUERY) prompt; sleep() is not interrupted mid-block.
SERVE_STATEMENT = "SELECT sleep(1) FROM system.numbers SETTINGS max_block_size=1 FORMAT Null"
STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT, signal.SIGHUP}
STOP_TIMEOUT_SECONDS = 20
MAX_CRASHES = 5
CRASH_WINDOW_SECONDS = 60
PR_SET_PDEATHSIG = 1


def log(message):
    print("clickhouse_server.py[%d]: %s" % (os.getpid(), message), file=sys.stderr, flush=True)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lib", required=True, help="path of libchdb.so")
    parser.add_argument("--path", required=True, help="ClickHouse data directory")
    parser.add_argument("--http-port", required=True, type=int)
    parser.add_argument("--tcp-port", type=int, help="native protocol port (off when not given)")
    parser.add_argument("--listen-host", default="127.0.0.1")
    parser.add_argument("--engine", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("extra", nargs="*", help="further clickhouse-local arguments, after --")
    return parser.parse_args(argv)


# ---- supervisor -------------------------------------------------------------------------------

def die_with_parent():
    """preexec_fn of the engine: SIGKILL it when the supervisor goes away."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def supervise(argv):
    engine_cmd = [sys.executable, os.path.abspath(__file__), "--engine", *argv]
    # Blocked here and, inherited, in the engine until it waits for them itself.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    crashes = []
    while True:
        engine = subprocess.Popen(engine_cmd, stdin=subprocess.DEVNULL, preexec_fn=die_with_parent)
        stopping = False
        while engine.poll() is None:
            received = signal.sigtimedwait(STOP_SIGNALS, 0.5)
            if received is None:
                continue
            if stopping:
                engine.kill()
            else:
                stopping = True
                engine.send_signal(signal.SIGTERM)
        code = engine.returncode
        if stopping or code >= 0:
            return code
        now = time.monotonic()
        crashes = [t for t in crashes if now - t < CRASH_WINDOW_SECONDS] + [now]
        if len(crashes) > MAX_CRASHES:
            log("engine died by signal %d, %d times within %d s: giving up"
                % (-code, len(crashes), CRASH_WINDOW_SECONDS))
            return 1
        log("engine died by signal %d, restarting it" % -code)
        time.sleep(1)


# ---- engine -----------------------------------------------------------------------------------

def load_chdb(path):
    lib = ctypes.CDLL(path)
    lib.chdb_query_cmdline.restype = ctypes.c_void_p
    lib.chdb_query_cmdline.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    lib.chdb_result_error.restype = ctypes.c_char_p
    lib.chdb_result_error.argtypes = [ctypes.c_void_p]
    return lib


def serve(lib, cmdline, outcome):
    """Thread body: runs clickhouse-local until the serving query ends; records its error."""
    c_argv = (ctypes.c_char_p * len(cmdline))(*(arg.encode() for arg in cmdline))
    result = lib.chdb_query_cmdline(len(cmdline), c_argv)
    if not result:
        outcome["error"] = "chdb_query_cmdline returned no result"
        return
    error = lib.chdb_result_error(result)
    if error:
        outcome["error"] = error.decode(errors="replace").strip()


def cancel_serving_query(host, port):
    """Asks the server to cancel the serving query, which makes chdb_query_cmdline return."""
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    if ":" in host:
        host = "[" + host + "]"
    kill = "KILL QUERY WHERE query = '%s' ASYNC" % SERVE_STATEMENT
    request = urllib.request.Request("http://%s:%d/" % (host, port), data=kill.encode())
    with urllib.request.urlopen(request, timeout=5) as response:
        response.read()


def run_engine(args):
    listen = "SYSTEM START LISTEN HTTP; "
    tcp = []
    if args.tcp_port:
        listen += "SYSTEM START LISTEN TCP; "
        tcp = ["--tcp_port=%d" % args.tcp_port]
    cmdline = [
        "clickhouse",
        "--path=" + args.path,
        "--http_port=%d" % args.http_port,
        *tcp,
        "--listen_host=" + args.listen_host,
        *args.extra,
        "--query=" + listen + SERVE_STATEMENT,
    ]
    lib = load_chdb(args.lib)

    # The stop signals stay blocked in every engine thread (they inherit this thread's mask),
    # so only this thread's sigtimedwait() sees them and can shut the engine down in order.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    outcome = {}
    server = threading.Thread(target=serve, args=(lib, cmdline, outcome), name="clickhouse", daemon=True)
    server.start()
    log("starting ClickHouse HTTP on %s:%d, data in %s" % (args.listen_host, args.http_port, args.path))

    stopping = False
    while server.is_alive():
        received = signal.sigtimedwait(STOP_SIGNALS, 0.5)
        if received is None:
            continue
        if stopping:
            log("second signal %d, exiting without clean shutdown" % received.si_signo)
            os._exit(1)
        stopping = True
        log("signal %d, cancelling the serving query" % received.si_signo)
        try:
            cancel_serving_query(args.listen_host, args.http_port)
        except OSError as exc:
            log("cancel request failed (%s), exiting without clean shutdown" % exc)
            os._exit(1)
        server.join(STOP_TIMEOUT_SECONDS)
        if server.is_alive():
            log("no clean shutdown within %d s, exiting" % STOP_TIMEOUT_SECONDS)
            os._exit(1)

    if stopping:
        log("stopped")
        return 0
    log("ClickHouse failed: " + outcome.get("error", "clickhouse-local ended without serving (its error is above)"))
    return 1


def main(argv):
    args = parse_args(argv)
    if args.engine:
        return run_engine(args)
    return supervise(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
