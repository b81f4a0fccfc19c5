package org.specbridge.shim;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real sidecar binary, started as `specbridge serve` on a random port. The binary is taken from the
 * system property or environment variable specbridge.binary / SPECBRIDGE_BINARY, else built with
 * `go build -o java-shim/target/specbridge ./cmd/specbridge` from the repository root. A binary that
 * cannot run `serve` fails the test that needs it: these tests are the proof on Hadoop, and a skipped
 * test must never count as a pass.
 */
final class Sidecar implements AutoCloseable {
  static final String TOKEN = "shim-test-token";
  private static File binary;

  final Process process;
  final String url;
  final String hostPort;
  final File log;

  private Sidecar(Process process, String url, String hostPort, File log) {
    this.process = process;
    this.url = url;
    this.hostPort = hostPort;
    this.log = log;
  }

  static synchronized File binary() throws Exception {
    if (binary != null) {
      return binary;
    }
    String given = System.getProperty("specbridge.binary", System.getenv("SPECBRIDGE_BINARY"));
    File bin;
    if (given != null && !given.isEmpty()) {
      bin = new File(given);
    } else {
      File root = new File(System.getProperty("specbridge.repo.root", "..")).getCanonicalFile();
      bin = new File(root, "java-shim/target/specbridge");
      Process go = new ProcessBuilder("go", "build", "-o", bin.getPath(), "./cmd/specbridge")
          .directory(root).redirectErrorStream(true).redirectOutput(new File(root, "java-shim/target/go-build.log"))
          .start();
      if (!go.waitFor(300, TimeUnit.SECONDS) || go.exitValue() != 0) {
        throw new IOException("go build failed; see java-shim/target/go-build.log");
      }
    }
    if (!bin.canExecute()) {
      throw new IllegalStateException("the sidecar binary " + bin + " does not exist or is not executable; build it with "
          + "`go build -o java-shim/target/specbridge ./cmd/specbridge` or pass -Dspecbridge.binary=...");
    }
    File helpOut = File.createTempFile("specbridge-serve-help", ".txt");
    helpOut.deleteOnExit();
    Process help = new ProcessBuilder(bin.getPath(), "serve", "--help").redirectErrorStream(true)
        .redirectOutput(helpOut).start();
    boolean exited = help.waitFor(30, TimeUnit.SECONDS);
    if (!exited) {
      help.destroyForcibly();
    }
    if (!exited || help.exitValue() != 0) {
      throw new IllegalStateException(bin + " has no working `serve` command (`" + bin + " serve --help` "
          + (exited ? "exited with " + help.exitValue() : "did not exit within 30 s")
          + "; is ServeCommand wired into main.go?). Output:\n" + read(helpOut));
    }
    binary = bin;
    return bin;
  }

  static Sidecar start(File dir, String... extra) throws Exception {
    return startAt(dir, "127.0.0.1:0", extra);
  }

  /** Starts the sidecar listening on listen (host:port; port 0 for a free one). */
  static Sidecar startAt(File dir, String listen, String... extra) throws Exception {
    File bin = binary();
    File token = new File(dir, "token");
    Files.write(token.toPath(), (TOKEN + "\n").getBytes(StandardCharsets.UTF_8));
    File addr = new File(dir, "addr-" + System.nanoTime());
    // specbridge.sidecar.logs=DIR keeps the sidecar's logs (the test's @TempDir is deleted) for debugging.
    String keep = System.getProperty("specbridge.sidecar.logs", "");
    File logDir = keep.isEmpty() ? dir : new File(keep);
    logDir.mkdirs();
    File log = new File(logDir, "sidecar-" + System.nanoTime() + ".log");
    List<String> cmd = new ArrayList<String>(Arrays.asList(bin.getPath(), "--log-level", "debug", "serve",
        "--listen", listen, "--token-file", token.getPath(), "--addr-file", addr.getPath(),
        "--decide-interval", "100ms"));
    cmd.addAll(Arrays.asList(extra));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log).start();
    long deadline = System.currentTimeMillis() + 30000;
    while (!addr.exists()) {
      if (!p.isAlive()) {
        throw new IOException("sidecar exited with " + p.exitValue() + ": " + read(log));
      }
      if (System.currentTimeMillis() > deadline) {
        p.destroyForcibly();
        throw new IOException("sidecar did not write " + addr + " within 30 s: " + read(log));
      }
      Thread.sleep(20); // polling for the file the sidecar writes once it listens
    }
    String hostPort = new String(Files.readAllBytes(addr.toPath()), StandardCharsets.UTF_8).trim();
    return new Sidecar(p, "ws://" + hostPort + "/v1/am", hostPort, log);
  }

  static String read(File f) {
    try {
      return new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(" + e + ")";
    }
  }

  /** Kills the sidecar the hard way, as a crash would. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
