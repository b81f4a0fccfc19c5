package org.specbridge.shim;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the tests against the real sidecar binary share: a temporary directory for it, and what a test opened,
 * closed after the test in list order (a test adds an MRApp at the front, so it stops before its sidecar).
 */
abstract class SidecarTest {
  @TempDir
  File dir;

  final List<AutoCloseable> cleanup = new ArrayList<AutoCloseable>();

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : cleanup) {
      c.close();
    }
  }

  /** Starts the sidecar in dir with extra arguments; the test's cleanup stops it. */
  Sidecar sidecar(String... args) throws Exception {
    Sidecar s = Sidecar.start(dir, args);
    cleanup.add(s);
    return s;
  }
}
