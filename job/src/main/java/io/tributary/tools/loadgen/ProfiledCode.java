package io.tributary.tools.loadgen;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The code {@link LoadShape#nextProfiles} samples, as the OpenTelemetry eBPF profiler sees it in a
 * Kubernetes pod: a JVM service (HotSpot frames on top of libjvm.so and libc.so.6, some sampled in
 * the kernel) and its Envoy sidecar (a native binary and libc.so.6). Each kind of thread has call
 * paths, root first; a sample takes one and cuts it at a random depth below the thread's base, so
 * stacks share their prefixes as real ones do. Calls the JIT (or the C++ compiler) inlined into
 * their caller share its location, as inline frames (at most three lines a location).
 */
final class ProfiledCode {

    /** Where a function's code lies: the mapping it is in, and the eBPF profiler's frame type. */
    enum Code {
        KERNEL(null, "kernel", 0x100_0000L, 0),
        LIBC("/usr/lib/x86_64-linux-gnu/libc.so.6", "native", 0x18_a000L, 0x2_8000L),
        LIBJVM("/usr/lib/jvm/java-21-openjdk-amd64/lib/server/libjvm.so", "native", 0x10e_0000L, 0x1d_9000L),
        ENVOY("/usr/local/bin/envoy", "native", 0x4c0_0000L, 0x1b3_c000L),
        HOTSPOT(null, "hotspot", 0, 0);

        /** The mapping's file, null for code outside any mapping (the kernel's, the JIT's). */
        final String file;
        /** The location's {@code profile.frame.type}. */
        final String frameType;
        /** The size of its text, and the text's offset in the file. */
        final long size;
        final long fileOffset;

        Code(String file, String frameType, long size, long fileOffset) {
            this.file = file;
            this.frameType = frameType;
            this.size = size;
            this.fileOffset = fileOffset;
        }
    }

    /** A function: its code, names (the system one mangled for C++) and source. */
    record Fn(Code code, String name, String systemName, String file, int startLine) {

        /** Where its machine code starts in its text, stable from run to run; 0 for Java. */
        long offset() {
            return code.size == 0 ? 0 : (((name.hashCode() & 0x7fffffffL) * 64) % (code.size - 0x1000)) & ~0xfL;
        }
    }

    /** A call, root first: the function, the line it is at, and whether it was inlined into its caller. */
    record Call(Fn fn, int line, boolean inlined) {}

    /** A kind of thread: its names, the share of samples it takes, whether it serves traced requests, its call paths. */
    record ThreadKind(String[] names, int weight, boolean traced, int base, Call[][] paths) {}

    // libc.so.6 (stripped: no files)
    private static final Fn CLONE3 = fn(Code.LIBC, "__clone3", "", "", 0);
    private static final Fn START_THREAD = fn(Code.LIBC, "start_thread", "", "", 0);
    private static final Fn LIBC_START_CALL_MAIN = fn(Code.LIBC, "__libc_start_call_main", "", "", 0);
    private static final Fn READ = fn(Code.LIBC, "read", "", "", 0);
    private static final Fn EPOLL_WAIT = fn(Code.LIBC, "epoll_wait", "", "", 0);
    private static final Fn MEMMOVE = fn(Code.LIBC, "__memmove_avx_unaligned_erms", "", "", 0);
    private static final Fn WRITEV = fn(Code.LIBC, "writev", "", "", 0);
    // the kernel
    private static final Fn SYSCALL_ENTRY = fn(Code.KERNEL, "entry_SYSCALL_64_after_hwframe", "", "", 0);
    private static final Fn DO_SYSCALL = fn(Code.KERNEL, "do_syscall_64", "", "", 0);
    private static final Fn TCP_RECVMSG = fn(Code.KERNEL, "tcp_recvmsg", "", "", 0);
    private static final Fn TCP_SENDMSG = fn(Code.KERNEL, "tcp_sendmsg", "", "", 0);
    private static final Fn DO_EPOLL_WAIT = fn(Code.KERNEL, "do_epoll_wait", "", "", 0);
    // libjvm.so
    private static final Fn THREAD_NATIVE_ENTRY = fn(Code.LIBJVM, "thread_native_entry(Thread*)",
            "_ZL19thread_native_entryP6Thread", "src/hotspot/os/linux/os_linux.cpp", 775);
    private static final Fn CALL_RUN = fn(Code.LIBJVM, "Thread::call_run()", "_ZN6Thread8call_runEv",
            "src/hotspot/share/runtime/thread.cpp", 214);
    private static final Fn MAIN_INNER = fn(Code.LIBJVM, "JavaThread::thread_main_inner()",
            "_ZN10JavaThread17thread_main_innerEv", "src/hotspot/share/runtime/javaThread.cpp", 745);
    private static final Fn THREAD_ENTRY = fn(Code.LIBJVM, "thread_entry(JavaThread*, JavaThread*)",
            "_ZL12thread_entryP10JavaThreadS0_", "src/hotspot/share/prims/jvm.cpp", 2889);
    private static final Fn CALL_HELPER = fn(Code.LIBJVM,
            "JavaCalls::call_helper(JavaValue*, methodHandle const&, JavaCallArguments*, JavaThread*)",
            "_ZN9JavaCalls11call_helperEP9JavaValueRK12methodHandleP17JavaCallArgumentsP10JavaThread",
            "src/hotspot/share/runtime/javaCalls.cpp", 328);
    private static final Fn WORKER_RUN = fn(Code.LIBJVM, "WorkerThread::run()", "_ZN12WorkerThread3runEv",
            "src/hotspot/share/gc/shared/workerThread.cpp", 195);
    private static final Fn EVACUATE_WORK = fn(Code.LIBJVM, "G1EvacuateRegionsTaskBase::work(unsigned int)",
            "_ZN25G1EvacuateRegionsTaskBase4workEj", "src/hotspot/share/gc/g1/g1YoungCollector.cpp", 660);
    private static final Fn EVACUATE_FOLLOWERS = fn(Code.LIBJVM, "G1ParEvacuateFollowersClosure::do_void()",
            "_ZN29G1ParEvacuateFollowersClosure7do_voidEv", "src/hotspot/share/gc/g1/g1YoungCollector.cpp", 560);
    private static final Fn TRIM_QUEUE = fn(Code.LIBJVM, "G1ParScanThreadState::trim_queue_to_threshold(unsigned int)",
            "_ZN20G1ParScanThreadState23trim_queue_to_thresholdEj", "src/hotspot/share/gc/g1/g1ParScanThreadState.cpp", 306);
    private static final Fn COPY_TO_SURVIVOR = fn(Code.LIBJVM,
            "G1ParScanThreadState::do_copy_to_survivor_space(G1HeapRegionAttr, oopDesc*, markWord)",
            "_ZN20G1ParScanThreadState26do_copy_to_survivor_spaceE16G1HeapRegionAttrP7oopDesc8markWord",
            "src/hotspot/share/gc/g1/g1ParScanThreadState.cpp", 447);
    private static final Fn COMPILER_LOOP = fn(Code.LIBJVM, "CompileBroker::compiler_thread_loop()",
            "_ZN13CompileBroker20compiler_thread_loopEv", "src/hotspot/share/compiler/compileBroker.cpp", 1854);
    private static final Fn INVOKE_COMPILER = fn(Code.LIBJVM, "CompileBroker::invoke_compiler_on_method(CompileTask*)",
            "_ZN13CompileBroker25invoke_compiler_on_methodEP11CompileTask", "src/hotspot/share/compiler/compileBroker.cpp", 2167);
    private static final Fn C2_COMPILE = fn(Code.LIBJVM,
            "C2Compiler::compile_method(ciEnv*, ciMethod*, int, bool, DirectiveSet*)",
            "_ZN10C2Compiler14compile_methodEP5ciEnvP8ciMethodibP12DirectiveSet", "src/hotspot/share/opto/c2compiler.cpp", 113);
    private static final Fn COMPILE = fn(Code.LIBJVM, "Compile::Compile(ciEnv*, ciMethod*, int, Options, DirectiveSet*)",
            "_ZN7CompileC2EP5ciEnvP8ciMethodi7OptionsP12DirectiveSet", "src/hotspot/share/opto/compile.cpp", 626);
    private static final Fn OPTIMIZE = fn(Code.LIBJVM, "Compile::Optimize()", "_ZN7Compile8OptimizeEv",
            "src/hotspot/share/opto/compile.cpp", 2186);
    private static final Fn IDEAL_LOOP = fn(Code.LIBJVM, "PhaseIdealLoop::build_and_optimize()",
            "_ZN14PhaseIdealLoop18build_and_optimizeEv", "src/hotspot/share/opto/loopnode.cpp", 4400);
    private static final Fn IGVN = fn(Code.LIBJVM, "PhaseIterGVN::optimize()", "_ZN12PhaseIterGVN8optimizeEv",
            "src/hotspot/share/opto/phaseX.cpp", 1014);
    private static final Fn TRANSFORM_OLD = fn(Code.LIBJVM, "PhaseIterGVN::transform_old(Node*)",
            "_ZN12PhaseIterGVN13transform_oldEP4Node", "src/hotspot/share/opto/phaseX.cpp", 1206);
    // HotSpot (JIT-compiled and interpreted Java)
    private static final Fn THREAD_RUN = java("java.lang.Thread.run", "Thread.java", 1581);
    private static final Fn POOL_WORKER_RUN = java("java.util.concurrent.ThreadPoolExecutor$Worker.run", "ThreadPoolExecutor.java", 641);
    private static final Fn RUN_WORKER = java("java.util.concurrent.ThreadPoolExecutor.runWorker", "ThreadPoolExecutor.java", 1118);
    private static final Fn DISPATCH = java("io.tributary.demo.http.HttpServer.dispatch", "HttpServer.java", 198);
    private static final Fn[] HANDLERS = {
        java("io.tributary.demo.ItemHandler.handleGET", "ItemHandler.java", 40),
        java("io.tributary.demo.ItemHandler.handlePOST", "ItemHandler.java", 72),
        java("io.tributary.demo.ItemHandler.handlePUT", "ItemHandler.java", 98),
        java("io.tributary.demo.ItemHandler.handleDELETE", "ItemHandler.java", 121),
    };
    private static final Fn WRITE_VALUE = java("com.fasterxml.jackson.databind.ObjectMapper.writeValueAsBytes", "ObjectMapper.java", 3895);
    private static final Fn WRITE_AND_CLOSE = java("com.fasterxml.jackson.databind.ObjectMapper._writeValueAndClose", "ObjectMapper.java", 4719);
    private static final Fn SERIALIZE_VALUE = java("com.fasterxml.jackson.databind.ser.DefaultSerializerProvider.serializeValue",
            "DefaultSerializerProvider.java", 310);
    private static final Fn BEAN_SERIALIZE = java("com.fasterxml.jackson.databind.ser.BeanSerializer.serialize", "BeanSerializer.java", 172);
    private static final Fn SERIALIZE_FIELDS = java("com.fasterxml.jackson.databind.ser.std.BeanSerializerBase.serializeFields",
            "BeanSerializerBase.java", 757);
    private static final Fn SERIALIZE_AS_FIELD = java("com.fasterxml.jackson.databind.ser.BeanPropertyWriter.serializeAsField",
            "BeanPropertyWriter.java", 718);
    private static final Fn WRITE_STRING = java("com.fasterxml.jackson.core.json.UTF8JsonGenerator.writeString", "UTF8JsonGenerator.java", 494);
    private static final Fn WRITE_SEGMENT = java("com.fasterxml.jackson.core.json.UTF8JsonGenerator._writeStringSegment",
            "UTF8JsonGenerator.java", 1421);
    private static final Fn CACHE_GET = java("io.tributary.demo.ItemCache.get", "ItemCache.java", 31);
    private static final Fn CHM_GET = java("java.util.concurrent.ConcurrentHashMap.get", "ConcurrentHashMap.java", 935);
    private static final Fn STRING_HASH = java("java.lang.String.hashCode", "String.java", 2357);
    private static final Fn LATIN1_HASH = java("java.lang.StringLatin1.hashCode", "StringLatin1.java", 192);
    private static final Fn RESERVE = java("io.tributary.demo.InventoryClient.reserve", "InventoryClient.java", 38);
    private static final Fn SOCKET_READ = java("java.net.Socket$SocketInputStream.read", "Socket.java", 1097);
    private static final Fn NIO_READ = java("sun.nio.ch.NioSocketImpl.read", "NioSocketImpl.java", 339);
    private static final Fn IMPL_READ = java("sun.nio.ch.NioSocketImpl.implRead", "NioSocketImpl.java", 300);
    private static final Fn READ0 = java("sun.nio.ch.SocketDispatcher.read0", "SocketDispatcher.java", 0);
    private static final Fn RUN_ONCE = java("org.apache.kafka.clients.producer.internals.Sender.runOnce", "Sender.java", 295);
    private static final Fn CLIENT_POLL = java("org.apache.kafka.clients.NetworkClient.poll", "NetworkClient.java", 560);
    private static final Fn SELECTOR_POLL = java("org.apache.kafka.common.network.Selector.poll", "Selector.java", 423);
    private static final Fn SELECTOR_SELECT = java("org.apache.kafka.common.network.Selector.select", "Selector.java", 870);
    private static final Fn NIO_SELECT = java("sun.nio.ch.SelectorImpl.select", "SelectorImpl.java", 140);
    private static final Fn LOCK_AND_SELECT = java("sun.nio.ch.SelectorImpl.lockAndDoSelect", "SelectorImpl.java", 118);
    private static final Fn DO_SELECT = java("sun.nio.ch.EPollSelectorImpl.doSelect", "EPollSelectorImpl.java", 110);
    private static final Fn EPOLL_WAIT_JAVA = java("sun.nio.ch.EPoll.wait", "EPoll.java", 0);
    // envoy (C++, with its libevent and llhttp linked in)
    private static final Fn START = fn(Code.ENVOY, "_start", "", "", 0);
    private static final Fn MAIN = fn(Code.ENVOY, "main", "main", "source/exe/main.cc", 20);
    private static final Fn MAIN_COMMON = fn(Code.ENVOY, "Envoy::MainCommon::main(int, char**, std::function<void (Envoy::Server::Instance&)>)",
            "_ZN5Envoy10MainCommon4mainEiPPcNSt3__18functionIFvRNS_6Server8InstanceEEEE", "source/exe/main_common.cc", 220);
    private static final Fn INSTANCE_RUN = fn(Code.ENVOY, "Envoy::Server::InstanceBase::run()", "_ZN5Envoy6Server12InstanceBase3runEv",
            "source/server/server.cc", 1003);
    private static final Fn THREAD_ROUTINE = fn(Code.ENVOY, "Envoy::Server::WorkerImpl::threadRoutine(Envoy::Server::GuardDog&, std::function<void ()> const&)",
            "_ZN5Envoy6Server10WorkerImpl13threadRoutineERNS0_8GuardDogERKNSt3__18functionIFvvEEE", "source/server/worker_impl.cc", 140);
    private static final Fn DISPATCHER_RUN = fn(Code.ENVOY, "Envoy::Event::DispatcherImpl::run(Envoy::Event::Dispatcher::RunType)",
            "_ZN5Envoy5Event14DispatcherImpl3runENS0_10Dispatcher7RunTypeE", "source/common/event/dispatcher_impl.cc", 301);
    private static final Fn EVENT_LOOP = fn(Code.ENVOY, "event_base_loop", "event_base_loop", "event.c", 1889);
    private static final Fn EPOLL_DISPATCH = fn(Code.ENVOY, "epoll_dispatch", "epoll_dispatch", "epoll.c", 407);
    private static final Fn PROCESS_ACTIVE = fn(Code.ENVOY, "event_process_active_single_queue", "event_process_active_single_queue", "event.c", 1634);
    private static final Fn FILE_EVENT = fn(Code.ENVOY, "Envoy::Network::ConnectionImpl::onFileEvent(unsigned int)",
            "_ZN5Envoy7Network14ConnectionImpl11onFileEventEj", "source/common/network/connection_impl.cc", 618);
    private static final Fn ON_READ_READY = fn(Code.ENVOY, "Envoy::Network::ConnectionImpl::onReadReady()",
            "_ZN5Envoy7Network14ConnectionImpl11onReadReadyEv", "source/common/network/connection_impl.cc", 665);
    private static final Fn ON_WRITE_READY = fn(Code.ENVOY, "Envoy::Network::ConnectionImpl::onWriteReady()",
            "_ZN5Envoy7Network14ConnectionImpl12onWriteReadyEv", "source/common/network/connection_impl.cc", 716);
    private static final Fn HTTP1_DISPATCH = fn(Code.ENVOY, "Envoy::Http::Http1::ConnectionImpl::dispatch(Envoy::Buffer::Instance&)",
            "_ZN5Envoy4Http5Http114ConnectionImpl8dispatchERNS_6Buffer8InstanceE", "source/common/http/http1/codec_impl.cc", 641);
    private static final Fn DISPATCH_SLICE = fn(Code.ENVOY, "Envoy::Http::Http1::ConnectionImpl::dispatchSlice(char const*, unsigned long)",
            "_ZN5Envoy4Http5Http114ConnectionImpl13dispatchSliceEPKcm", "source/common/http/http1/codec_impl.cc", 700);
    private static final Fn LLHTTP_EXECUTE = fn(Code.ENVOY, "llhttp_execute", "llhttp_execute", "api.c", 163);
    private static final Fn LLHTTP_PARSE = fn(Code.ENVOY, "llhttp__internal_execute", "llhttp__internal_execute", "llhttp.c", 9712);
    private static final Fn SOCKET_WRITEV = fn(Code.ENVOY, "Envoy::Network::IoSocketHandleImpl::writev(Envoy::Buffer::RawSlice const*, unsigned long)",
            "_ZN5Envoy7Network18IoSocketHandleImpl6writevEPKNS_6Buffer8RawSliceEm", "source/common/network/io_socket_handle_impl.cc", 94);

    /** Native frames below every Java thread's Java code, root first. */
    private static final Call[] JAVA_THREAD = {
        call(CLONE3, 0), call(START_THREAD, 0), call(THREAD_NATIVE_ENTRY, 829), call(CALL_RUN, 225),
        call(MAIN_INNER, 761), call(THREAD_ENTRY, 2901), call(CALL_HELPER, 415),
    };

    /** The JVM's threads: request workers, the Kafka producer's I/O thread, G1 and C2 threads. */
    static final ThreadKind[] JVM = {
        new ThreadKind(names("http-nio-8080-exec-", 1, 8), 14, true, JAVA_THREAD.length + 5, requestPaths()),
        new ThreadKind(new String[] {"kafka-producer-network-thread | producer-1"}, 2, false, JAVA_THREAD.length + 4, new Call[][] {
            path(JAVA_THREAD, call(THREAD_RUN, 1583), call(RUN_ONCE, 330), call(CLIENT_POLL, 586), call(SELECTOR_POLL, 469),
                inline(SELECTOR_SELECT, 874), call(NIO_SELECT, 142), inline(LOCK_AND_SELECT, 130), call(DO_SELECT, 121),
                call(EPOLL_WAIT_JAVA, 0), call(EPOLL_WAIT, 0), call(SYSCALL_ENTRY, 0), call(DO_SYSCALL, 0), call(DO_EPOLL_WAIT, 0)),
        }),
        new ThreadKind(names("GC Thread#", 0, 2), 3, false, 5, new Call[][] {
            {call(CLONE3, 0), call(START_THREAD, 0), call(THREAD_NATIVE_ENTRY, 829), call(CALL_RUN, 225), call(WORKER_RUN, 204),
                call(EVACUATE_WORK, 669), call(EVACUATE_FOLLOWERS, 573), call(TRIM_QUEUE, 311), inline(COPY_TO_SURVIVOR, 489),
                call(MEMMOVE, 0)},
        }),
        new ThreadKind(new String[] {"C2 CompilerThread0"}, 1, false, 6, new Call[][] {
            {call(CLONE3, 0), call(START_THREAD, 0), call(THREAD_NATIVE_ENTRY, 829), call(CALL_RUN, 225), call(MAIN_INNER, 761),
                call(COMPILER_LOOP, 1889), call(INVOKE_COMPILER, 2305), call(C2_COMPILE, 142), call(COMPILE, 848), call(OPTIMIZE, 2310),
                call(IDEAL_LOOP, 4527), call(IGVN, 1044), inline(TRANSFORM_OLD, 1230)},
        }),
    };

    /** Envoy's threads: its workers and its main thread. */
    static final ThreadKind[] ENVOY = {
        new ThreadKind(names("wrk:worker_", 0, 2), 7, false, 7, new Call[][] {
            {call(CLONE3, 0), call(START_THREAD, 0), call(THREAD_ROUTINE, 148), call(DISPATCHER_RUN, 319), call(EVENT_LOOP, 2021),
                call(PROCESS_ACTIVE, 1691), call(FILE_EVENT, 641), call(ON_READ_READY, 701), call(HTTP1_DISPATCH, 668),
                inline(DISPATCH_SLICE, 712), call(LLHTTP_EXECUTE, 169), call(LLHTTP_PARSE, 9980), call(MEMMOVE, 0)},
            {call(CLONE3, 0), call(START_THREAD, 0), call(THREAD_ROUTINE, 148), call(DISPATCHER_RUN, 319), call(EVENT_LOOP, 2021),
                call(PROCESS_ACTIVE, 1691), call(FILE_EVENT, 652), call(ON_WRITE_READY, 738), inline(SOCKET_WRITEV, 101),
                call(WRITEV, 0), call(SYSCALL_ENTRY, 0), call(DO_SYSCALL, 0), call(TCP_SENDMSG, 0)},
        }),
        new ThreadKind(new String[] {"envoy"}, 1, false, 5, new Call[][] {
            {call(START, 0), call(LIBC_START_CALL_MAIN, 0), call(MAIN, 24), call(MAIN_COMMON, 231), call(INSTANCE_RUN, 1010),
                call(DISPATCHER_RUN, 319), call(EVENT_LOOP, 1992), call(EPOLL_DISPATCH, 465), call(EPOLL_WAIT, 0),
                call(SYSCALL_ENTRY, 0), call(DO_SYSCALL, 0), call(DO_EPOLL_WAIT, 0)},
        }),
    };

    private ProfiledCode() {}

    /** Every handler doing each of its kinds of work: serialising JSON, reading the cache, calling a service. */
    private static Call[][] requestPaths() {
        List<Call[]> out = new ArrayList<>();
        for (Fn handler : HANDLERS) {
            Call[] top = path(JAVA_THREAD, call(THREAD_RUN, 1583), call(POOL_WORKER_RUN, 642), call(RUN_WORKER, 1144),
                    call(DISPATCH, 211), call(handler, handler.startLine() + 9));
            out.add(path(top, call(WRITE_VALUE, 3908), inline(WRITE_AND_CLOSE, 4738), call(SERIALIZE_VALUE, 315),
                    call(BEAN_SERIALIZE, 178), call(SERIALIZE_FIELDS, 774), inline(SERIALIZE_AS_FIELD, 732),
                    call(WRITE_STRING, 514), inline(WRITE_SEGMENT, 1437)));
            out.add(path(top, call(CACHE_GET, 36), inline(CHM_GET, 937), inline(STRING_HASH, 2365), inline(LATIN1_HASH, 196)));
            out.add(path(top, call(RESERVE, 52), call(SOCKET_READ, 1099), inline(NIO_READ, 346), call(IMPL_READ, 309),
                    call(READ0, 0), call(READ, 0), call(SYSCALL_ENTRY, 0), call(DO_SYSCALL, 0), call(TCP_RECVMSG, 0)));
        }
        return out.toArray(new Call[0][]);
    }

    private static Call[] path(Call[] base, Call... below) {
        Call[] p = Arrays.copyOf(base, base.length + below.length);
        System.arraycopy(below, 0, p, base.length, below.length);
        return p;
    }

    private static String[] names(String prefix, int from, int n) {
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = prefix + (from + i);
        }
        return out;
    }

    private static Fn fn(Code code, String name, String systemName, String file, int startLine) {
        return new Fn(code, name, systemName, file, startLine);
    }

    private static Fn java(String name, String file, int startLine) {
        return new Fn(Code.HOTSPOT, name, "", file, startLine);
    }

    private static Call call(Fn fn, int line) {
        return new Call(fn, line, false);
    }

    private static Call inline(Fn fn, int line) {
        return new Call(fn, line, true);
    }
}
