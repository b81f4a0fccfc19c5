package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.api.records.JobState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.MRApp;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEventType;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.event.EventHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Cloning at launch, live (issue 11): Dolly and Xu and Lau's SCA and ESE clone a small job's tasks (ESE only when
 * it knows the job's mean task time a priori, from {@code specbridge.job.task-mean-ms}). Hadoop lets the
 * speculator add attempts to RUNNING tasks only, so the sidecar asks for each task's copies the moment its first
 * attempt runs. In Hadoop's MRApp harness with the real sidecar, a job of 4 maps whose map 3 never gets a
 * container (the allocator holds it back, as a full cluster would) gets the copies of maps 0-2 and none for map
 * 3, which stays SCHEDULED; the shim refuses nothing, so the sidecar never asked for a task that was not running.
 */
class CloningMRAppTest extends ShimMRAppTest {
  private static final int MAPS = 4;
  /** The sidecar and the app of the last startHeldJob. */
  private Sidecar heldSidecar;
  private BridgeSpeculatorMRAppTest.HoldingMRApp heldApp;

  @Test
  @Timeout(120)
  void dollyClonesTheRunningTasksOfASmallJobAtOnce() throws Exception {
    List<Task> maps = runHeldJob("dolly", "sb-dolly");
    for (Task t : maps.subList(0, 3)) {
      assertEquals(2, t.getAttempts().size(), t.getID() + ": Dolly's default is 2 copies");
    }
  }

  @Test
  @Timeout(120)
  void scaClonesTheRunningTasksOfASmallJobAtOnce() throws Exception {
    List<Task> maps = runHeldJob("sca", "sb-sca");
    int copies = maps.get(0).getAttempts().size();
    assertTrue(copies >= 2 && copies <= 8, "SCA's P2 gives between 2 and r = 8 copies, got " + copies);
    for (Task t : maps.subList(0, 3)) {
      assertEquals(copies, t.getAttempts().size(), t.getID() + ": every task of the job gets P2's copies");
    }
  }

  /**
   * A task keeps one of its max attempts in reserve (DecisionApplier.copyRoom): SCA's clones of a job whose
   * {@code mapreduce.map.maxattempts} is 3 are cut to one copy a task (P2 gives 2 or more), since copies failing
   * with their original would fail the job (live-bench's sca run). The reserve never goes below the one copy
   * Hadoop's own speculator would start: with 2 max attempts each task still gets one copy, and no more.
   */
  @Test
  @Timeout(120)
  void scaClonesKeepOneAttemptOfEachTaskInReserve() throws Exception {
    List<Task> maps = runHeldJob("sca", "sb-sca-reserve3", MRJobConfig.MAP_MAX_ATTEMPTS, "3");
    for (Task t : maps.subList(0, 3)) {
      assertEquals(2, t.getAttempts().size(), t.getID() + ": 3 max attempts leave room for one copy");
    }
    final List<Task> two = runHeldJob("sca", "sb-sca-reserve2", MRJobConfig.MAP_MAX_ATTEMPTS, "2");
    for (Task t : two.subList(0, 3)) {
      assertEquals(2, t.getAttempts().size(), t.getID() + ": 2 max attempts still leave Hadoop's one copy");
    }
  }

  /**
   * ESE clones a job that is small by Xu and Lau's §VI-C test: m = 4 tasks below eta N(l)/|chi(l)| = 0.1 x 1000
   * free slots ({@code specbridge.cluster.slots}), and E[x] = 2 s ({@code specbridge.job.task-mean-ms}) below xi =
   * 1 unit of 10 s (ESE's unit-s). Each running task gets eq. (29)'s c* copies at once; held map 3 none.
   */
  @Test
  @Timeout(120)
  void eseClonesTheRunningTasksOfASmallJobGivenItsTaskMean() throws Exception {
    List<Task> maps = runHeldJob("ese", "sb-ese", ShimConfig.CLUSTER_SLOTS, "1000", ShimConfig.TASK_MEAN_MS, "2000");
    int copies = maps.get(0).getAttempts().size();
    assertTrue(copies >= 2 && copies <= 8, "ESE's c* of eq. (29) gives between 2 and r = 8 copies, got " + copies);
    for (Task t : maps.subList(0, 3)) {
      assertEquals(copies, t.getAttempts().size(), t.getID() + ": every running task of the job gets c* copies");
    }
    String log = Sidecar.read(heldSidecar.log);
    assertTrue(log.contains("task_mean_ms=2000") && log.contains("task_model=job-property"), log);
  }

  /**
   * Without {@code specbridge.job.task-mean-ms} (and a sidecar with no prior) ESE does not know E[x], so the same
   * small job is not cloned: its running maps keep one attempt each. To know that the sidecar has decided with
   * them running, map 0 succeeds (E[x] becomes its run time) and map 1 reports 1% progress, which makes it a
   * straggler of ESE's backup set D(l): its one backup copy arrives after any clone would have (decisions are
   * applied in order), and map 2, which never reported, still has one attempt.
   */
  @Test
  @Timeout(120)
  void eseWithoutATaskMeanDoesNotClone() throws Exception {
    final List<Task> maps = startHeldJob("ese", "sb-ese-none", ShimConfig.CLUSTER_SLOTS, "1000");
    MRApp app = heldApp;
    final BridgeSpeculator shim = shim();
    waitFor("the sidecar in charge", shim::sidecarInCharge);
    clock.tickMsec(2000L);
    EventHandler events = app.getContext().getEventHandler();
    complete(events, maps.get(0).getAttempts().values().iterator().next());
    app.waitForState(maps.get(0), TaskState.SUCCEEDED);
    clock.tickMsec(2000L);
    progress(events, maps.get(1).getAttempts().values().iterator().next(), 0.01f);
    waitFor("ESE's backup of map 1", () -> maps.get(1).getAttempts().size() >= 2);
    // The shim counts a decision as applied once the AM's handler has taken its event, so the new attempt
    // may show before the count does (a CI run read 0 here).
    waitFor("ESE's backup counted as applied", () -> shim.appliedDecisions() >= 1);

    assertEquals(1, maps.get(2).getAttempts().size(), "map 2 was cloned without a task mean");
    assertEquals(2, maps.get(1).getAttempts().size(), "map 1 should have its original and one backup");
    assertEquals(1, maps.get(3).getAttempts().size(), "map 3 was speculated while not RUNNING");
    assertEquals(0, shim.refusedDecisions(), "the sidecar asked for something the shim refused");
    assertEquals(1, shim.appliedDecisions(), "ESE asked for more than map 1's backup");
    String log = Sidecar.read(heldSidecar.log);
    assertTrue(log.contains("task_model=none"), log);
  }

  /**
   * SDA and ESE through the shim: a job of 4 maps runs to SUCCEEDED with the sidecar in charge; neither clones
   * (ESE's small-job rule needs the cluster's capacity and the job's mean task time, which this job does not
   * give), and with every task finishing at once no task straggles, so no copy is asked for and none is refused.
   */
  @Test
  @Timeout(120)
  void sdaAndEseRunAJobThroughTheShim() throws Exception {
    for (String speculator : new String[] {"sda", "ese"}) {
      File own = new File(dir, speculator);
      assertTrue(own.mkdirs(), "could not create " + own);
      Sidecar sidecar = Sidecar.start(own);
      cleanup.add(sidecar);
      resetClock();
      final MRApp app = new MRApp(MAPS, 0, false, "sb-" + speculator, true, clock);
      Job job = submit(conf(sidecar, speculator), app);
      for (Task t : job.getTasks().values()) {
        app.waitForState(t, TaskState.RUNNING);
      }
      final BridgeSpeculator shim = shim();
      waitFor(speculator + ": the sidecar in charge", shim::sidecarInCharge);
      EventHandler events = app.getContext().getEventHandler();
      for (Task t : job.getTasks().values()) {
        TaskAttempt a = t.getAttempts().values().iterator().next();
        events.handle(new TaskAttemptEvent(a.getID(), TaskAttemptEventType.TA_DONE));
        events.handle(new TaskAttemptEvent(a.getID(), TaskAttemptEventType.TA_CONTAINER_COMPLETED));
      }
      waitFor(speculator + ": the job to finish", () -> app.getServiceState() == Service.STATE.STOPPED);
      assertEquals(JobState.SUCCEEDED, job.getState(), speculator);
      assertEquals(0, shim.refusedDecisions(), speculator + ": the shim refused a decision");
      assertEquals(0, shim.fallbackLaunches(), speculator + ": the fallback launched while the sidecar was healthy");
      for (Task t : job.getTasks().values()) {
        assertEquals(1, t.getAttempts().size(), speculator + ": " + t.getID() + " was copied");
      }
      assertTrue(Sidecar.read(sidecar.log).contains("session opened"), Sidecar.read(sidecar.log));
    }
  }

  private static Configuration conf(Sidecar sidecar, String speculator) {
    Configuration conf = shimConf(sidecar, speculator);
    conf.setInt(MRJobConfig.NUM_REDUCES, 0);
    return conf;
  }

  /**
   * Starts a 4-map job under speculator with map 3 held back (no container, as on a full cluster) and waits until
   * maps 0-2 are RUNNING; settings are more key, value pairs for the job. Returns the maps in index order; the
   * sidecar and the app are in heldSidecar and heldApp.
   */
  private List<Task> startHeldJob(String speculator, String name, String... settings) throws Exception {
    heldSidecar = sidecar();
    Configuration conf = conf(heldSidecar, speculator);
    for (int i = 0; i < settings.length; i += 2) {
      conf.set(settings[i], settings[i + 1]);
    }
    resetClock();
    heldApp = new BridgeSpeculatorMRAppTest.HoldingMRApp(MAPS, 0, name, clock, 3);
    List<Task> maps = sortedMaps(submit(conf, heldApp));
    for (Task t : maps.subList(0, 3)) {
      heldApp.waitForState(t, TaskState.RUNNING);
    }
    assertEquals(TaskState.SCHEDULED, maps.get(3).getState(), "map 3 should wait for a container");
    return maps;
  }

  /**
   * Runs startHeldJob's job, waits until maps 0-2 have their clones, then lets map 0 succeed and waits until the
   * sidecar has seen it, and checks that map 3 got nothing and the shim refused nothing. Returns the maps in
   * index order.
   */
  private List<Task> runHeldJob(String speculator, String name, String... settings) throws Exception {
    final List<Task> maps = startHeldJob(speculator, name, settings);
    MRApp app = heldApp;
    Sidecar sidecar = heldSidecar;
    final Task held = maps.get(3);
    final BridgeSpeculator shim = shim();

    waitFor("clones of maps 0-2", () -> {
      for (Task t : maps.subList(0, 3)) {
        if (t.getAttempts().size() < 2) {
          return false;
        }
      }
      return true;
    });
    for (Task t : maps.subList(0, 3)) {
      for (TaskAttempt a : t.getAttempts().values()) {
        app.waitForState(a, TaskAttemptState.RUNNING);
      }
    }
    // Let map 0's original finish and wait until the sidecar has been told: by then it has had decide rounds
    // with map 3 not running.
    EventHandler events = app.getContext().getEventHandler();
    final long sentBefore = shim.eventsSent.get();
    TaskAttempt first = maps.get(0).getAttempts().values().iterator().next();
    for (TaskAttempt a : maps.get(0).getAttempts().values()) {
      if (a.getID().getId() < first.getID().getId()) {
        first = a;
      }
    }
    events.handle(new TaskAttemptEvent(first.getID(), TaskAttemptEventType.TA_DONE));
    events.handle(new TaskAttemptEvent(first.getID(), TaskAttemptEventType.TA_CONTAINER_COMPLETED));
    app.waitForState(maps.get(0), TaskState.SUCCEEDED);
    waitFor("the sidecar to hear of map 0's end", () -> shim.eventsSent.get() > sentBefore);

    assertEquals(TaskState.SCHEDULED, held.getState(), "map 3 should still wait for a container");
    assertEquals(1, held.getAttempts().size(), "map 3 was speculated while not RUNNING");
    assertEquals(0, shim.refusedDecisions(), "the sidecar asked for something the shim refused");
    assertEquals(0, shim.fallbackLaunches(), "the fallback launched while the sidecar was healthy");
    assertTrue(shim.appliedDecisions() >= 3, "fewer than 3 clone decisions applied: " + shim.appliedDecisions());
    assertTrue(Sidecar.read(sidecar.log).contains("session opened"), Sidecar.read(sidecar.log));
    return maps;
  }

  /** The job's maps in index order. */
  private static List<Task> sortedMaps(Job job) {
    List<Task> maps = new ArrayList<Task>(job.getTasks(TaskType.MAP).values());
    maps.sort((a, b) -> Integer.compare(a.getID().getId(), b.getID().getId()));
    return maps;
  }

  /** Waits up to 60 s for cond, moving the AM's clock on by 250 ms per check. */
  private void waitFor(String what, BooleanSupplier cond) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 60000;
    while (!cond.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      clock.tickMsec(250L);
      Thread.sleep(50); // poll interval of a condition wait
    }
  }
}
