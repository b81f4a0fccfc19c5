package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToLongFunction;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.api.records.JobState;
import org.apache.hadoop.mapreduce.v2.api.records.Phase;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.app.MRApp;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEventType;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.speculate.Speculator;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.apache.log4j.Level;
import org.apache.log4j.LogManager;
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
 * <p>The job: 20,000 maps and no reduce. Every attempt, once launched, sends one status report (progress 0.5,
 * as a task's umbilical would), then finishes (TA_DONE) and its container completes. The clock stands still so
 * that no speculator speculates: both sides run the same job, which the test checks (one attempt per task).
 * Hadoop's INFO logging is turned down to WARN for the runs: it would add the same large cost to both sides and
 * hide the speculators' share.
 *
 * <p>Set {@code -Dspecbridge.overhead.tasks=N} for another job size. The measured figures are written to
 * {@code target/shim-overhead.txt}.
 */
class ShimOverheadMRAppTest {
  static final int TASKS = Integer.getInteger("specbridge.overhead.tasks", 20000);
  static final int RUNS = 3;
  static final double ALLOWED = 1.10;

  @TempDir
  File dir;

  @Test
  @Timeout(1800)
  void theShimCostsTheAmAtMostTenPercentMoreThanHadoopsSpeculator() throws Exception {
    Level level = LogManager.getRootLogger().getLevel();
    LogManager.getRootLogger().setLevel(Level.WARN);
    Sidecar sidecar = Sidecar.start(dir);
    try {
      List<SpeculatorMeter> hadoop = new ArrayList<SpeculatorMeter>();
      List<SpeculatorMeter> shim = new ArrayList<SpeculatorMeter>();
      long t0 = System.nanoTime();
      run(null, Math.max(100, TASKS / 4));
      run(sidecar, Math.max(100, TASKS / 4));
      for (int i = 0; i < RUNS; i++) {
        // Alternate which side goes first: later runs of a JVM are cheaper (JIT, warm caches).
        if (i % 2 == 0) {
          hadoop.add(run(null, TASKS));
          shim.add(run(sidecar, TASKS));
        } else {
          shim.add(run(sidecar, TASKS));
          hadoop.add(run(null, TASKS));
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
    } finally {
      sidecar.close();
      LogManager.getRootLogger().setLevel(level);
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

  /** Runs one job of tasks maps with the shim (sidecar given) or Hadoop's DefaultSpeculator; returns its meter. */
  private SpeculatorMeter run(Sidecar sidecar, int tasks) throws Exception {
    Configuration conf = new Configuration();
    conf.setBoolean(MRJobConfig.MAP_SPECULATIVE, true);
    if (sidecar == null) {
      conf.setClass(MRJobConfig.MR_AM_JOB_SPECULATOR, SpeculatorMeter.TimedDefaultSpeculator.class, Speculator.class);
    } else {
      conf.setClass(MRJobConfig.MR_AM_JOB_SPECULATOR, SpeculatorMeter.TimedBridgeSpeculator.class, Speculator.class);
      conf.set(ShimConfig.URL, sidecar.url);
      conf.set(ShimConfig.TOKEN, Sidecar.TOKEN);
      // A loaded 2-core machine runs the AM, the sidecar and other work: do not hand over for a slow answer.
      conf.set(ShimConfig.TIMEOUT_MS, "20000");
    }
    SpeculatorMeter.last = null;
    ControlledClock clock = new ControlledClock();
    clock.setTime(System.currentTimeMillis());
    OneReportMRApp app = new OneReportMRApp(tasks, clock);
    try {
      Job job = app.submit(conf, true, true);
      // The AM stops itself after the job; its services stop after its state says STOPPED, and the meter
      // reads the clocks when the speculator stops.
      long deadline = System.currentTimeMillis() + 600000;
      while (app.getServiceState() != Service.STATE.STOPPED || !stopped(SpeculatorMeter.last)) {
        assertTrue(System.currentTimeMillis() < deadline, "the " + tasks + "-task job did not finish and stop in "
            + "600 s: " + job.getState());
        Thread.sleep(100); // polling for the job's end
      }
      assertEquals(JobState.SUCCEEDED, job.getState(), String.valueOf(job.getDiagnostics()));
      for (Task t : job.getTasks().values()) {
        assertEquals(1, t.getAttempts().size(), t.getID() + " was speculated: the two sides ran different jobs");
      }
      SpeculatorMeter m = SpeculatorMeter.last;
      assertTrue(m != null && m.stopped, "the metered speculator was not loaded or not stopped");
      return m;
    } finally {
      if (app.getServiceState() != Service.STATE.STOPPED) {
        app.stop();
      }
    }
  }

  private static boolean stopped(SpeculatorMeter m) {
    return m != null && m.stopped;
  }

  /** MRApp whose attempts each report progress once, then succeed. */
  static final class OneReportMRApp extends MRApp {
    OneReportMRApp(int maps, ControlledClock clock) {
      super(maps, 0, false, "sb-overhead", true, clock);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    protected void attemptLaunched(TaskAttemptId id) {
      EventHandler events = getContext().getEventHandler();
      TaskAttemptStatus status = new TaskAttemptStatus();
      status.id = id;
      status.progress = 0.5f;
      status.phase = Phase.MAP;
      status.stateString = "map";
      status.taskState = TaskAttemptState.RUNNING;
      events.handle(new TaskAttemptStatusUpdateEvent(id, new AtomicReference<TaskAttemptStatus>(status)));
      events.handle(new TaskAttemptEvent(id, TaskAttemptEventType.TA_DONE));
      events.handle(new TaskAttemptEvent(id, TaskAttemptEventType.TA_CONTAINER_COMPLETED));
    }
  }
}
