package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14, "shim hot paths": a 20,000-task job in Hadoop's MRApp (a real MRAppMaster with simulated containers)
 * costs the AM no more than 10% more event-handling CPU with the shim, talking to the real sidecar, than with
 * Hadoop's own DefaultSpeculator.
 *
 * <p>What is compared (see {@link SpeculatorMeter}): the AM's event-handling CPU time with Hadoop's speculator
 * (the dispatcher thread over the whole job) against the same with the shim's cost in place of Hadoop's
 * speculator's: Hadoop's is its {@code handle} calls on the dispatcher; the shim's is its {@code handle} calls
 * (the fallback's DefaultSpeculator plus the hand-off) plus all CPU of its worker and websocket threads. The
 * rest of the dispatcher's work is the job's own and the same on both sides; measured per run it swings by a
 * third on a loaded 2-core machine (other processes share caches and cores), which would drown a 10% bound,
 * so it is taken from Hadoop's runs only and both sides' raw totals are reported beside. A shim that slowed
 * the dispatcher itself would show in its {@code handle} time; a shim that made the AM wait on locks would
 * cost wall time, not CPU, and is what its incremental state avoids. All figures are thread CPU clocks, not
 * wall time; each side runs {@value #RUNS} times, alternating (and alternating which goes first), after one
 * warm-up job each, and medians are compared. DefaultSpeculator's periodic scan thread is reported but not
 * compared (not event handling; its cost follows wall time, and the shim's fallback runs none while the
 * sidecar decides).
 *
 * <p>The job ({@link OneReportJob}): 20,000 maps and no reduce, every attempt reporting progress once, then
 * succeeding; the clock stands still so that no speculator speculates, and both sides run the same job, which is
 * checked (one attempt per task). Hadoop's INFO logging is turned down to WARN for the runs: it would add the same
 * large cost to both sides and hide the speculators' share.
 *
 * <p>A benchmark, not part of the test command (the project checks speed targets by benchmarks, never by timed
 * unit tests; on a loaded 2-core machine its ratio measured 1.074-1.091 against the 1.10 bound): tagged
 * {@value #TAG}, which the pom's default surefire run excludes. {@code scripts/bench-shim-overhead.sh} runs it and
 * asserts the bound. What is not timing (both sides run the same job, the shim with the real sidecar) is checked
 * in the test command by {@link ShimSameJobMRAppTest} on a small job.
 *
 * <p>Set {@code -Dspecbridge.overhead.tasks=N} for another job size. The measured figures are written to
 * {@code target/shim-overhead.txt}.
 */
@Tag(ShimOverheadMRAppTest.TAG)
class ShimOverheadMRAppTest {
  static final int TASKS = Integer.getInteger("specbridge.overhead.tasks", 20000);
  static final int RUNS = 3;
  static final double ALLOWED = 1.10;
  /** The JUnit tag of benchmarks: excluded from the default test run (pom.xml, specbridge.test.excludedGroups). */
  static final String TAG = "benchmark";

  @TempDir
  File dir;

  @Test
  @Timeout(1800)
  void theShimCostsTheAmAtMostTenPercentMoreThanHadoopsSpeculator() throws Exception {
    try (OneReportJob.QuietLogs quiet = OneReportJob.quietLogs(); Sidecar sidecar = Sidecar.start(dir)) {
      List<SpeculatorMeter> hadoop = new ArrayList<SpeculatorMeter>();
      List<SpeculatorMeter> shim = new ArrayList<SpeculatorMeter>();
      long t0 = System.nanoTime();
      OneReportJob.run(null, Math.max(100, TASKS / 4));
      OneReportJob.run(sidecar, Math.max(100, TASKS / 4));
      for (int i = 0; i < RUNS; i++) {
        // Alternate which side goes first: later runs of a JVM are cheaper (JIT, warm caches).
        if (i % 2 == 0) {
          hadoop.add(OneReportJob.run(null, TASKS));
          shim.add(OneReportJob.run(sidecar, TASKS));
        } else {
          shim.add(OneReportJob.run(sidecar, TASKS));
          hadoop.add(OneReportJob.run(null, TASKS));
        }
      }
      long wallS = (System.nanoTime() - t0) / 1000000000L;
      // The AM's event handling with Hadoop's speculator, and the speculators' own shares of it.
      long amHadoop = median(hadoop, m -> m.dispatcherNs + m.offloadNs);
      long amShim = median(shim, m -> m.dispatcherNs + m.offloadNs);
      long specHadoop = median(hadoop, m -> m.handleNs() + m.offloadNs);
      long specShim = median(shim, m -> m.handleNs() + m.offloadNs);
      double ratio = (double) (amHadoop - specHadoop + specShim) / amHadoop;
      StringBuilder report = new StringBuilder();
      report.append(String.format(Locale.ROOT, "%d-task MRApp job, %d runs each, test wall time %d s%n", TASKS, RUNS,
          wallS));
      for (int i = 0; i < RUNS; i++) {
        report.append(line("hadoop", hadoop.get(i))).append(line("shim", shim.get(i)));
      }
      report.append(String.format(Locale.ROOT,
          "medians: AM event handling with hadoop %.0f ms, with the shim %.0f ms (raw ratio %.3f, moved by the load);"
              + " speculator's share: hadoop %.0f ms (handle), shim %.0f ms (handle + worker + websocket)%n",
          amHadoop / 1e6, amShim / 1e6, (double) amShim / amHadoop, specHadoop / 1e6, specShim / 1e6));
      report.append(String.format(Locale.ROOT,
          "AM event handling with the shim's share in place of hadoop's: ratio %.3f (allowed %.2f)%n", ratio,
          ALLOWED));
      write(report.toString());
      System.out.print(report);
      assertTrue(ratio <= ALLOWED, report.toString());
    }
  }

  private static String line(String side, SpeculatorMeter m) {
    return String.format(Locale.ROOT,
        "  %-6s dispatcher %6.0f ms (in handle %5.0f ms, %d events), off-dispatcher %5.0f ms, scan thread %5.0f ms, "
            + "threads %s%s%n",
        side, m.dispatcherNs / 1e6, m.handleNs() / 1e6, m.events, m.offloadNs / 1e6, m.scanNs / 1e6, m.threads,
        m.lookups < 0 ? "" : ", " + m.lookups + " attempt lookups");
  }

  private static long median(List<SpeculatorMeter> runs, ToLongFunction<SpeculatorMeter> f) {
    List<Long> v = new ArrayList<Long>();
    for (SpeculatorMeter m : runs) {
      v.add(f.applyAsLong(m));
    }
    Collections.sort(v);
    return v.get(v.size() / 2);
  }

  private static void write(String report) throws IOException {
    File target = new File(System.getProperty("specbridge.repo.root", ".."), "java-shim/target").getCanonicalFile();
    target.mkdirs();
    Files.write(new File(target, "shim-overhead.txt").toPath(), report.getBytes(StandardCharsets.UTF_8));
  }
}
