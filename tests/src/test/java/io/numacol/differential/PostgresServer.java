package io.numacol.differential;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A PostgreSQL server for the tests that take PostgreSQL's semantics as the reference (the
 * issue's bar for transactions and ON CONFLICT), where DuckDB answers otherwise: DuckDB 2.0.0.1
 * counts a row that ON CONFLICT DO NOTHING skipped as a conflict for the statement's later rows,
 * and two NULLs of a UNIQUE column in one such statement as a conflict, where PostgreSQL (and
 * numacol) insert them.
 *
 * <p>With {@code -Dpostgres.url=jdbc:postgresql://...} (a user that may create databases), that
 * server; else a throwaway cluster of the machine's own PostgreSQL (Debian's {@code postgresql}
 * package, which {@code .ci/run} installs), made under {@code java.io.tmpdir} on a free loopback
 * port without fsync, run as the {@code postgres} user when the tests run as root (PostgreSQL
 * refuses root), and stopped and removed when the JVM exits. Each {@link #newDatabase} is a new
 * empty database, so tests never see each other's tables.
 */
final class PostgresServer {
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static String base;

    private PostgresServer() {
    }

    /** A connection to a new empty database of the server, started at the first call. */
    static Connection newDatabase() throws SQLException {
        String url = url();
        String name = "numacol_test_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        try (Connection admin = DriverManager.getConnection(url); Statement s = admin.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        return DriverManager.getConnection(url.replaceFirst("/postgres(\\?|$)", "/" + name + "$1"));
    }

    private static synchronized String url() {
        if (base == null) {
            String given = System.getProperty("postgres.url");
            base = given != null && !given.isBlank() ? given : start();
        }
        return base;
    }

    private static String start() {
        Path bin = binaries();
        try {
            Path dir = Files.createTempDirectory("numacol-pg");
            Path data = dir.resolve("data");
            List<String> asUser = List.of();
            if ("root".equals(System.getProperty("user.name"))) {
                asUser = List.of("runuser", "-u", "postgres", "--");
                run(List.of("chown", "postgres", dir.toString()), List.of());
            }
            run(asUser, List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-A", "trust", "-U", "postgres",
                    "-E", "UTF8", "--locale=C", "--no-sync"));
            int port;
            try (ServerSocket free = new ServerSocket(0)) {
                port = free.getLocalPort();
            }
            run(asUser, List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-w", "-l", dir.resolve("log").toString(),
                    "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off",
                    "start"));
            List<String> stopAs = asUser;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    run(stopAs, List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "stop"));
                } catch (IOException e) {
                    System.err.println("could not stop the test PostgreSQL server in " + dir + ": " + e.getMessage());
                }
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (IOException e) {
                    System.err.println("could not remove " + dir + ": " + e.getMessage());
                }
            }, "stop-test-postgres"));
            return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
        } catch (IOException e) {
            throw new IllegalStateException("could not start a PostgreSQL server from " + bin + ": " + e.getMessage(), e);
        }
    }

    /** The directory of initdb and pg_ctl: $PG_BIN, else the newest /usr/lib/postgresql/N/bin, else one on the PATH. */
    private static Path binaries() {
        String given = System.getenv("PG_BIN");
        if (given != null && Files.isExecutable(Path.of(given, "initdb"))) {
            return Path.of(given);
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                Path newest = versions.filter(v -> Files.isExecutable(v.resolve("bin/initdb")))
                        .max(Comparator.comparingInt(PostgresServer::major)).orElse(null);
                if (newest != null) {
                    return newest.resolve("bin");
                }
            } catch (IOException e) {
                // look on the PATH
            }
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "initdb"))) {
                return Path.of(dir);
            }
        }
        throw new IllegalStateException("the tests that compare with PostgreSQL need its server: install it "
                + "(Debian: apt-get install postgresql), set PG_BIN to the directory of its initdb and pg_ctl, "
                + "or give a server with -Dpostgres.url=jdbc:postgresql://HOST:PORT/postgres?user=NAME");
    }

    private static int major(Path versionDir) {
        try {
            return Integer.parseInt(versionDir.getFileName().toString());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void run(List<String> prefix, List<String> command) throws IOException {
        List<String> all = new ArrayList<>(prefix);
        all.addAll(command);
        Process p = new ProcessBuilder(all).redirectErrorStream(true).start();
        try {
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
                throw new IOException(String.join(" ", all) + " failed: " + new String(out, StandardCharsets.UTF_8).strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + String.join(" ", all), e);
        }
    }
}
