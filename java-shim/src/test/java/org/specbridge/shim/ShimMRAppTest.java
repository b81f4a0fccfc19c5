package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.api.records.JobState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskState;
import org.apache.hadoop.mapreduce.v2.app.MRApp;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEventType;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.speculate.Speculator;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.util.ControlledClock;

/**
 * What the tests of the shim inside Hadoop's MRApp harness share: the AM's controlled clock, the shim's
 * configuration against a sidecar, submitting a job, and the shim instance the AM loaded.
 */
@SuppressWarnings({"unchecked", "rawtypes"})
abstract class ShimMRAppTest extends SidecarTest {
  final ControlledClock clock = new ControlledClock();

  /** The AM's configuration to load the shim (recording its instance) for speculator on sidecar. */
  static Configuration shimConf(Sidecar sidecar, String speculator) {
    Configuration conf = new Configuration();
    conf.setClass(MRJobConfig.MR_AM_JOB_SPECULATOR, RecordingBridgeSpeculator.class, Speculator.class);
    conf.set(ShimConfig.URL, sidecar.url);
    conf.set(ShimConfig.TOKEN, Sidecar.TOKEN);
    conf.set(ShimConfig.SPECULATOR, speculator);
    conf.set(ShimConfig.TIMEOUT_MS, "1500");
    conf.set(ShimConfig.BATCH_MS, "20");
    return conf;
  }

  /** Sets the clock to now and forgets the last shim instance; before each new MRApp. */
  void resetClock() {
    clock.setTime(System.currentTimeMillis());
    RecordingBridgeSpeculator.last = null;
  }

  /** Submits conf on app, which the test's cleanup stops, and waits until the job is RUNNING. */
  Job submit(Configuration conf, final MRApp app) throws Exception {
    cleanup.add(0, () -> {
      if (app.getServiceState() != Service.STATE.STOPPED) {
        app.stop();
      }
    });
    Job job = app.submit(conf, true, true);
    app.waitForState(job, JobState.RUNNING);
    return job;
  }

  /** Runs a job of maps and reduces on a new MRApp until it and every task are RUNNING; returns the app. */
  MRApp startRunning(Configuration conf, String name, int maps, int reduces) throws Exception {
    resetClock();
    MRApp app = new MRApp(maps, reduces, false, name, true, clock);
    Job job = submit(conf, app);
    for (Task t : job.getTasks().values()) {
      app.waitForState(t, TaskState.RUNNING);
    }
    return app;
  }

  /** The job app runs. */
  static Job job(MRApp app) {
    return app.getContext().getAllJobs().values().iterator().next();
  }

  /** The shim the AM loaded last. */
  static BridgeSpeculator shim() {
    BridgeSpeculator s = RecordingBridgeSpeculator.last;
    assertNotNull(s, "MRAppMaster did not load the shim");
    return s;
  }

  static Task firstTask(Job job) {
    Task first = null;
    for (Map.Entry<TaskId, Task> e : job.getTasks().entrySet()) {
      if (first == null || e.getKey().getId() < first.getID().getId()) {
        first = e.getValue();
      }
    }
    return first;
  }

  static void complete(EventHandler events, TaskAttempt a) {
    events.handle(new TaskAttemptEvent(a.getID(), TaskAttemptEventType.TA_DONE));
    events.handle(new TaskAttemptEvent(a.getID(), TaskAttemptEventType.TA_CONTAINER_COMPLETED));
  }

  /** Reports progress for attempt a, as its task's status update would. */
  static void progress(EventHandler events, TaskAttempt a, float progress) {
    TaskAttemptStatus status = new TaskAttemptStatus();
    status.id = a.getID();
    status.progress = progress;
    status.taskState = TaskAttemptState.RUNNING;
    events.handle(new TaskAttemptStatusUpdateEvent(a.getID(), new AtomicReference<TaskAttemptStatus>(status)));
  }

  /**
   * The scenario of Hadoop's TestSpeculativeExecutionWithMRApp: after 1 s every attempt reports 0.8, then
   * every task but the first finishes, and the clock moves on 2 s. Returns the straggler, the first task.
   */
  Task leaveOneStraggler(MRApp app, Job job, EventHandler events) throws Exception {
    clock.tickMsec(1000L);
    for (Task t : job.getTasks().values()) {
      for (TaskAttempt a : t.getAttempts().values()) {
        progress(events, a, 0.8f);
      }
    }
    Task straggler = firstTask(job);
    for (Task t : job.getTasks().values()) {
      if (t != straggler) {
        TaskAttempt a = t.getAttempts().values().iterator().next();
        complete(events, a);
        app.waitForState(a, TaskAttemptState.SUCCEEDED);
      }
    }
    clock.tickMsec(2000L);
    return straggler;
  }

  /** Completes the first attempt of every unfinished task of app's job, waits for it to stop, asserts it SUCCEEDED. */
  void finishJob(final MRApp app) throws Exception {
    Job job = job(app);
    EventHandler events = app.getContext().getEventHandler();
    for (Task t : job.getTasks().values()) {
      if (t.getState() == TaskState.SUCCEEDED) {
        continue;
      }
      TaskAttemptId first = null;
      for (TaskAttemptId id : t.getAttempts().keySet()) {
        if (first == null || id.getId() < first.getId()) {
          first = id;
        }
      }
      complete(events, t.getAttempt(first));
    }
    waitFor("the job to finish", () -> app.getServiceState() == Service.STATE.STOPPED, true);
    assertEquals(JobState.SUCCEEDED, job.getState(), String.valueOf(job.getDiagnostics()));
  }

  void waitForCharge(BridgeSpeculator shim, boolean sidecar) throws InterruptedException {
    waitFor(sidecar ? "the sidecar in charge" : "the fallback in charge", () -> shim.sidecarInCharge() == sidecar, false);
  }

  /** Waits up to 60 s for cond, moving the AM's clock on by 250 ms per check when tick is set. */
  void waitFor(String what, BooleanSupplier cond, boolean tick) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60000;
    while (!cond.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      if (tick) {
        clock.tickMsec(250L);
      }
      Thread.sleep(50); // poll interval of a condition wait
    }
  }
}
