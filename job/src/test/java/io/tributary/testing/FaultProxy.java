package io.tributary.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy in front of the real ClickHouse HTTP port that misbehaves on command: refuses
 * connections, answers 500, forwards slowly, drops connections mid-request, or holds requests open
 * without answering. The server behind it stays real.
 */
public final class FaultProxy implements AutoCloseable {

    /** How the proxy treats new connections. */
    public enum Mode {
        /** Forward everything. */
        PASS,
        /** Nothing listens: connections are refused (the server is down). */
        REFUSE,
        /** Answer every request with HTTP 500 and no ClickHouse error code, then close. */
        ERROR_500,
        /** Forward, but sleep before each chunk of the request. */
        SLOW,
        /** Read part of the request, then reset the connection. */
        RESET,
        /** Accept and read, never answer (a stalled server). */
        STALL,
        /**
         * Forward the request, let the server answer, but hold the answer back and never pass it on
         * (a reply lost or slower than the client's timeout: the server has done the work).
         */
        HOLD_ANSWER,
        /** Answer every request with an empty HTTP 200, not forwarding it (a proxy answering for an absent server). */
        FAKE_OK
    }

    private final InetSocketAddress target;
    private final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong connections = new AtomicLong();
    private volatile Mode mode = Mode.PASS;
    private volatile ServerSocket server;
    private volatile boolean closed;

    public FaultProxy(String targetHost, int targetPort) throws IOException {
        this.target = new InetSocketAddress(targetHost, targetPort);
        ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.port = s.getLocalPort();
        listen(s);
    }

    /** The proxy's URL, in place of ClickHouse's. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public long connections() {
        return connections.get();
    }

    /** Switches mode; connections already open keep flowing except for REFUSE, STALL and RESET, which cut them. */
    public synchronized void mode(Mode m) throws IOException {
        Mode old = mode;
        mode = m;
        if (m == Mode.REFUSE && server != null) {
            server.close();
            server = null;
            cutAll();
        } else if (m != Mode.REFUSE && old == Mode.REFUSE) {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            for (int attempt = 1; ; attempt++) {
                try {
                    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                    break;
                } catch (IOException e) {
                    if (attempt == 50) {
                        throw e;
                    }
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        throw e;
                    }
                }
            }
            listen(s);
        }
        if (m == Mode.STALL || m == Mode.RESET || m == Mode.FAKE_OK || old == Mode.STALL) {
            cutAll(); // leaving a stall: the held requests fail and are retried
        }
    }

    private void cutAll() {
        for (Socket s : open) {
            closeQuietly(s);
        }
    }

    private void listen(ServerSocket s) {
        server = s;
        Thread t = new Thread(() -> {
            while (!closed && !s.isClosed()) {
                try {
                    Socket client = s.accept();
                    connections.incrementAndGet();
                    open.add(client);
                    Thread h = new Thread(() -> handle(client), "fault-proxy-conn");
                    h.setDaemon(true);
                    h.start();
                } catch (IOException e) {
                    return; // closed
                }
            }
        }, "fault-proxy-accept");
        t.setDaemon(true);
        t.start();
    }

    private void handle(Socket client) {
        Mode m = mode;
        try {
            switch (m) {
                case ERROR_500:
                    readRequest(client.getInputStream());
                    client.getOutputStream().write(("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 15\r\n"
                            + "Connection: close\r\n\r\ninjected fault\n").getBytes(StandardCharsets.US_ASCII));
                    client.getOutputStream().flush();
                    break;
                case FAKE_OK:
                    readRequest(client.getInputStream());
                    client.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n"
                            + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    client.getOutputStream().flush();
                    break;
                case RESET:
                    client.getInputStream().read(new byte[1024]);
                    client.setSoLinger(true, 0); // RST
                    break;
                case STALL:
                    InputStream in = client.getInputStream();
                    byte[] sink = new byte[65536];
                    while (mode == Mode.STALL && in.read(sink) >= 0) {
                        // hold it open, answer nothing
                    }
                    break;
                default:
                    forward(client, m == Mode.SLOW, m == Mode.HOLD_ANSWER);
            }
        } catch (IOException e) {
            // the client or the server went away
        } finally {
            open.remove(client);
            closeQuietly(client);
        }
    }

    /** Reads one HTTP request, headers and Content-Length body, so the answer is not a reset. */
    private static void readRequest(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            head.append((char) c);
            if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                break;
            }
        }
        long length = 0;
        for (String line : head.toString().split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
                length = Long.parseLong(line.substring(colon + 1).trim());
            }
        }
        in.skipNBytes(length);
    }

    private void forward(Socket client, boolean slow, boolean holdAnswer) throws IOException {
        try (Socket upstream = new Socket()) {
            upstream.connect(target, 5_000);
            open.add(upstream);
            Thread back = new Thread(() -> {
                if (holdAnswer) {
                    drain(upstream); // the server's answer goes nowhere
                } else {
                    pump(upstream, client, false);
                }
            }, "fault-proxy-back");
            back.setDaemon(true);
            back.start();
            pump(client, upstream, slow);
            try {
                back.join(600_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            open.remove(upstream);
        }
    }

    private void pump(Socket from, Socket to, boolean slow) {
        byte[] buf = new byte[65536];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buf)) >= 0) {
                if (slow || mode == Mode.SLOW) {
                    Thread.sleep(200);
                }
                out.write(buf, 0, n);
                out.flush();
            }
            to.shutdownOutput();
        } catch (IOException e) {
            closeQuietly(to);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void drain(Socket from) {
        byte[] buf = new byte[65536];
        try {
            InputStream in = from.getInputStream();
            while (in.read(buf) >= 0) {
                // read and dropped
            }
        } catch (IOException e) {
            // closed
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        if (server != null) {
            server.close();
        }
        cutAll();
    }
}
