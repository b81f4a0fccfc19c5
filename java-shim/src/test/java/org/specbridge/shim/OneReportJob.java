package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;

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

/**
 * The job of the shim's overhead benchmark ({@link ShimOverheadMRAppTest}) and of its functional check
 * ({@link ShimSameJobMRAppTest}): a map-only job in Hadoop's MRApp (a real MRAppMaster with simulated containers)
 * whose every attempt, once launched, sends one status report (progress 0.5, as a task's umbilical would), then
 * finishes (TA_DONE) and its container completes. The clock stands still so that no speculator speculates: with
 * Hadoop's DefaultSpeculator and with the shim the AM runs the same job, which {@link #run} checks (the job
 * succeeds with one attempt per task).
 */
final class OneReportJob {
  private OneReportJob() {
  }

  /**
   * Turns Hadoop's INFO logging down to WARN until closed: it would add the same large cost to both sides of a
   * comparison and hide the speculators' share.
   */
  static QuietLogs quietLogs() {
    return new QuietLogs();
  }

  /** The root logger's level before {@link #quietLogs}, restored on close. */
  static final class QuietLogs implements AutoCloseable {
    private final Level level = LogManager.getRootLogger().getLevel();

    private QuietLogs() {
      LogManager.getRootLogger().setLevel(Level.WARN);
    }

    @Override
    public void close() {
      LogManager.getRootLogger().setLevel(level);
    }
  }

  /**
   * Runs one job of tasks maps with the shim talking to sidecar (metered: {@link SpeculatorMeter}), or with
   * Hadoop's DefaultSpeculator when sidecar is null; returns the meter, read when the speculator stopped.
   */
  static SpeculatorMeter run(Sidecar sidecar, int tasks) throws Exception {
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
