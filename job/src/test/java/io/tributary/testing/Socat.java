package io.tributary.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A TLS terminator in front of the real ClickHouse HTTP port: Debian's {@code socat} with the
 * test's certificates, as an ingress or a ClickHouse {@code https_port} would stand there
 * (clickhouse-local, the engine these tests run, opens no HTTPS listener itself).
 */
public final class Socat implements AutoCloseable {

    private final int port;
    private final List<String> command;
    private Process process;

    /**
     * @param clientCa the CA bundle client certificates must come from, or null for no client
     *     certificate (plain TLS)
     */
    public Socat(Path cert, Path key, Path clientCa, int targetPort) throws IOException, InterruptedException {
        try (ServerSocket s = new ServerSocket(0)) {
            this.port = s.getLocalPort();
        }
        String listen = "OPENSSL-LISTEN:" + port + ",bind=127.0.0.1,reuseaddr,fork,cert=" + cert + ",key=" + key
                + (clientCa == null ? ",verify=0" : ",verify=1,cafile=" + clientCa);
        this.command = new ArrayList<>(List.of("socat", listen, "TCP:127.0.0.1:" + targetPort));
        start();
    }

    /** The HTTPS URL of the terminator, by {@code host} (localhost is the certificate's name). */
    public String url(String host) {
        return "https://" + host + ":" + port;
    }

    public int port() {
        return port;
    }

    private void start() throws IOException, InterruptedException {
        process = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException e) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IOException("socat did not start listening on " + port + ": " + command, e);
                }
                Thread.sleep(50);
            }
        }
    }

    /** Stops it and every connection it serves (its forked children), then starts it again with {@code clientCa}. */
    public void restart(Path cert, Path key, Path clientCa) throws IOException, InterruptedException {
        stop();
        String listen = "OPENSSL-LISTEN:" + port + ",bind=127.0.0.1,reuseaddr,fork,cert=" + cert + ",key=" + key
                + (clientCa == null ? ",verify=0" : ",verify=1,cafile=" + clientCa);
        command.set(1, listen);
        start();
    }

    private void stop() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor();
        process = null;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
