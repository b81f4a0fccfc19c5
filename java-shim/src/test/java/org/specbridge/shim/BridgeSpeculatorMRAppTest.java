package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapred.TaskStatus;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.task.reduce.MapHost;
import org.apache.hadoop.mapreduce.task.reduce.MapOutput;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleClientMetrics;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleSchedulerImpl;
import org.apache.hadoop.mapreduce.v2.api.records.JobState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.MRApp;
import org.apache.hadoop.mapreduce.v2.app.client.ClientService;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobEventType;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEventType;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocator;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocatorEvent;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.util.Progress;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shim inside Hadoop's MRApp harness (a real MRAppMaster with simulated containers), talking to the
 * real sidecar binary over a real websocket.
 */
@SuppressWarnings({"unchecked", "rawtypes"})
class BridgeSpeculatorMRAppTest extends ShimMRAppTest {
  private static final int MAPS = 5;

  private Configuration conf(Sidecar sidecar, String speculator) {
    Configuration conf = shimConf(sidecar, speculator);
    conf.set(ShimConfig.RECONNECT_MS, "200");
    conf.set(ShimConfig.RECONNECT_MAX_MS, "400");
    // Let the fallback rescan quickly, as Hadoop's own speculation tests do.
    conf.setLong(MRJobConfig.SPECULATIVE_RETRY_AFTER_NO_SPECULATE, 500L);
    conf.setLong(MRJobConfig.SPECULATIVE_RETRY_AFTER_SPECULATE, 500L);
    return conf;
  }

  private MRApp start(Configuration conf, String name) throws Exception {
    return start(conf, name, MAPS);
  }

  private MRApp start(Configuration conf, String name, int maps) throws Exception {
    return startRunning(conf, name, maps, 0);
  }

  /** Completes task's first attempt and waits for the task to succeed; returns the attempt. */
  private static TaskAttempt succeedFirstAttempt(MRApp app, Task task) throws Exception {
    TaskAttempt attempt = task.getAttempts().values().iterator().next();
    complete(app.getContext().getEventHandler(), attempt);
    app.waitForState(task, TaskState.SUCCEEDED);
    return attempt;
  }

  /** How many of tasks are in state. */
  private static int count(List<Task> tasks, TaskState state) {
    int n = 0;
    for (Task t : tasks) {
      if (t.getState() == state) {
        n++;
      }
    }
    return n;
  }

  @Test
  @Timeout(120)
  void aStragglerGetsASpeculativeAttemptBecauseTheSidecarSaidSo() throws Exception {
    Sidecar sidecar = sidecar();
    Configuration conf = conf(sidecar, "hadoop-legacy");
    conf.set("specbridge.param.hadoop-legacy.min-runtime-ms", "1000");
    MRApp app = start(conf, "sb-straggler");
    final BridgeSpeculator shim = shim();
    waitForCharge(shim, true);

    Job job = job(app);
    EventHandler events = app.getContext().getEventHandler();
    // Report progress while every attempt is younger than min-runtime-ms, wait until the shim has sent
    // the reports, and only then let the AM's clock run on: the sidecar decides on complete information.
    final Task straggler = firstTask(job);
    final long sentBefore = shim.eventsSent.get();
    for (Task t : job.getTasks().values()) {
      for (TaskAttempt a : t.getAttempts().values()) {
        progress(events, a, t == straggler ? 0.1f : 0.9f);
      }
    }
    waitFor("the progress reports sent to the sidecar", () -> shim.eventsSent.get() >= sentBefore + MAPS, false);
    clock.tickMsec(2000L);
    waitFor("a speculative attempt of " + straggler.getID(), () -> straggler.getAttempts().size() == 2, true);
    // The shim counts a decision as applied once the AM's handler has taken its event, so the new attempt
    // may show before the count does.
    waitFor("the sidecar's decision counted as applied", () -> shim.appliedDecisions() >= 1, false);
    assertEquals(0, shim.fallbackLaunches(), "the fallback launched while the sidecar was healthy");
    for (Task t : job.getTasks().values()) {
      if (t != straggler) {
        assertEquals(1, t.getAttempts().size(), t.getID() + " was speculated too");
      }
    }
    finishJob(app);
    assertTrue(Sidecar.read(sidecar.log).contains("session opened"), Sidecar.read(sidecar.log));
    // The job's counters (what JobHistory shows and the .jhist keeps) say what the sidecar did.
    org.apache.hadoop.mapreduce.Counters counters = job.getAllCounters();
    assertEquals(1, counters.findCounter(SpecbridgeCounter.SPECULATIVE_ATTEMPTS).getValue());
    assertEquals(0, counters.findCounter(SpecbridgeCounter.FALLBACK_SPECULATIVE_ATTEMPTS).getValue());
    assertEquals(0, counters.findCounter(SpecbridgeCounter.HANDOVERS).getValue());
    assertEquals("specbridge", counters.getGroup(SpecbridgeCounter.class.getName()).getDisplayName());
    assertEquals("Speculative attempts on the sidecar's decision",
        counters.findCounter(SpecbridgeCounter.SPECULATIVE_ATTEMPTS).getDisplayName());
    waitFor("the AM's bye with the job's final state", () -> {
      String log = Sidecar.read(sidecar.log);
      return log.contains("the AM says the job is over") && log.contains("state=SUCCEEDED");
    }, false);
  }

  /**
   * A job killed with tasks still running: as the AM stops, the shim's bye tells the sidecar the job is KILLED,
   * and the sidecar ends it in its fault analyzer at once (without the bye, only after --cfa-job-grace, 10 min,
   * since a killed job's tasks never all finish).
   */
  @Test
  @Timeout(120)
  void aKilledJobSaysByeAndIsEndedInTheAnalyzerAtOnce() throws Exception {
    Sidecar sidecar = sidecar();
    final MRApp app = start(conf(sidecar, "late"), "sb-killed");
    waitForCharge(shim(), true);
    Job job = job(app);
    app.getContext().getEventHandler().handle(new JobEvent(job.getID(), JobEventType.JOB_KILL));
    waitFor("the killed job's AM to stop", () -> app.getServiceState() == Service.STATE.STOPPED, true);
    assertEquals(JobState.KILLED, job.getState());
    waitFor("the sidecar to end the job on the AM's bye", () -> {
      String log = Sidecar.read(sidecar.log);
      return log.contains("the AM says the job is over: the job is ended in the fault analyzer")
          && log.contains("state=KILLED");
    }, false);
  }

  @Test
  @Timeout(120)
  void aDecisionForATaskThatIsNotRunningIsRefused() throws Exception {
    Sidecar sidecar = sidecar();
    MRApp app = start(conf(sidecar, "none"), "sb-refuse");
    Task done = firstTask(job(app));
    TaskAttempt attempt = succeedFirstAttempt(app, done);

    DecisionApplier applier = new DecisionApplier(app.getContext(), new java.util.HashSet<TaskId>());
    String refusal = applier.apply("speculate", Wire.taskId(done.getID()), "", 1, "test");
    assertEquals("task is SUCCEEDED, not RUNNING", refusal);
    refusal = applier.apply("kill", "", Wire.attemptId(attempt.getID()), 1, "test");
    assertEquals("attempt is SUCCEEDED, not running", refusal);
    refusal = applier.apply("speculate", "task_1_2_m_000000", "", 1, "test");
    assertEquals("the job has no such task", refusal);
    assertEquals(1, done.getAttempts().size());

    finishJob(app);
  }

  /**
   * A decision that names its member (auto's, PROTOCOL.md "member") adds one to that member's counter in the
   * job's "specbridge auto member" group once applied, through the AM's own JobImpl; a refused one adds nothing,
   * a member name the shim does not know counts as other, a decision without one counts nowhere (issue 27).
   */
  @Test
  @Timeout(120)
  void appliedDecisionsAreCountedPerMemberInTheJobsCounters() throws Exception {
    Sidecar sidecar = sidecar();
    MRApp app = start(conf(sidecar, "none"), "sb-member");
    Job job = job(app);
    List<Task> maps = sorted(job.getTasks(TaskType.MAP).values());
    Task done = maps.get(0);
    succeedFirstAttempt(app, done);
    DecisionApplier applier = new DecisionApplier(app.getContext(), new java.util.HashSet<TaskId>());
    com.fasterxml.jackson.databind.node.ArrayNode ds = new com.fasterxml.jackson.databind.ObjectMapper().createArrayNode();
    String[] members = {"sca", "sca", "a-policy-of-tomorrow", null, "late"};
    Task[] tasks = {maps.get(1), maps.get(2), maps.get(3), maps.get(4), done};
    for (int i = 0; i < tasks.length; i++) {
      com.fasterxml.jackson.databind.node.ObjectNode d = ds.addObject();
      d.put("id", i + 1).put("kind", "speculate").put("task", Wire.taskId(tasks[i].getID()));
      if (members[i] != null) {
        d.put("member", members[i]);
      }
    }
    com.fasterxml.jackson.databind.JsonNode ack = applier.ack(ds, true, 1L);
    assertEquals(4, applier.applied.get(), ack.toString());
    assertEquals("refused", ack.path("acks").get(4).path("result").asText());
    for (int i = 1; i <= 4; i++) {
      final Task t = maps.get(i);
      waitFor("the speculative attempt of " + t.getID(), () -> t.getAttempts().size() == 2, true);
    }
    finishJob(app);
    org.apache.hadoop.mapreduce.Counters counters = job.getAllCounters();
    assertEquals(2, counters.findCounter(SpecbridgeMember.SCA).getValue());
    assertEquals(1, counters.findCounter(SpecbridgeMember.OTHER).getValue());
    assertEquals(0, counters.findCounter(SpecbridgeMember.LATE).getValue(), "a refused decision was counted");
    long sum = 0;
    for (org.apache.hadoop.mapreduce.Counter c : counters.getGroup(SpecbridgeMember.class.getName())) {
      sum += c.getValue();
    }
    assertEquals(3, sum, "the decision without a member was counted");
    assertEquals("specbridge auto member", counters.getGroup(SpecbridgeMember.class.getName()).getDisplayName());
    assertEquals("sca", counters.findCounter(SpecbridgeMember.SCA).getDisplayName());
    assertEquals("hadoop-legacy", counters.findCounter(SpecbridgeMember.HADOOP_LEGACY).getDisplayName());
  }

  @Test
  @Timeout(120)
  void killingTheSidecarHandsOverToTheFallbackAndTheJobSucceeds() throws Exception {
    Sidecar sidecar = sidecar();
    MRApp app = start(conf(sidecar, "none"), "sb-failover");
    final BridgeSpeculator shim = shim();
    waitForCharge(shim, true);

    sidecar.kill();
    final long killed = System.currentTimeMillis();
    waitForCharge(shim, false);
    long handover = System.currentTimeMillis() - killed;
    assertTrue(handover < 1500 + 1000, "handover took " + handover + " ms");

    // The scenario of Hadoop's TestSpeculativeExecutionWithMRApp: all but one task finish.
    Job job = job(app);
    EventHandler events = app.getContext().getEventHandler();
    final Task straggler = leaveOneStraggler(app, job, events);
    waitFor("the fallback to speculate " + straggler.getID(), () -> straggler.getAttempts().size() == 2, true);
    assertTrue(shim.fallbackLaunches() >= 1);

    // The sidecar comes back on the same address: the shim reconnects, resyncs and hands back.
    Sidecar restarted = Sidecar.startAt(dir, sidecar.hostPort);
    cleanup.add(restarted);
    waitForCharge(shim, true);
    // The shim is in charge at the welcome; the sidecar logs the resync as it folds it, a moment later.
    waitFor("the restarted sidecar to log the resync", () -> Sidecar.read(restarted.log).contains("state rebuilt from a resync"), false);
    String log = Sidecar.read(restarted.log);
    assertTrue(log.contains("attempts=6"), log);
    assertEquals(2, straggler.getAttempts().size(), "the straggler was speculated twice across the handover");

    finishJob(app);
    org.apache.hadoop.mapreduce.Counters counters = job.getAllCounters();
    assertEquals(1, counters.findCounter(SpecbridgeCounter.HANDOVERS).getValue());
    assertEquals(1, counters.findCounter(SpecbridgeCounter.FALLBACK_SPECULATIVE_ATTEMPTS).getValue());
    assertEquals(0, counters.findCounter(SpecbridgeCounter.SPECULATIVE_ATTEMPTS).getValue());
  }

  /**
   * An approximation job (issue 4, live): error bound 20% from the job configuration, 10 maps of which 2 never
   * finish by themselves. Once 8 maps have succeeded the sidecar's GRASS drops the other 2, the shim kills them
   * as tasks (T_KILL), and the job completes SUCCEEDED on the data it has: Hadoop counts KILLED tasks as
   * completed, not failed, so no mapreduce.map.failures.maxpercent is needed. The sidecar runs with --data-dir,
   * and the job's GRASS sample (xi = 1: every job is sampled) is on disk afterwards.
   */
  @Test
  @Timeout(120)
  void anErrorBoundJobSucceedsAfterEightyPercentOfItsMaps() throws Exception {
    File data = new File(dir, "data");
    Sidecar sidecar = sidecar("--data-dir", data.getPath());
    Configuration conf = conf(sidecar, "grass");
    conf.set(ShimConfig.GRASS_ERROR, "0.2");
    conf.set("specbridge.param.grass.xi", "1");
    conf.setInt(MRJobConfig.NUM_REDUCES, 0);
    MRApp app = start(conf, "sb-approx", 10);
    final BridgeSpeculator shim = shim();
    waitForCharge(shim, true);
    Job job = job(app);
    EventHandler events = app.getContext().getEventHandler();

    List<Task> maps = new ArrayList<Task>(job.getTasks().values());
    maps.sort((a, b) -> Integer.compare(a.getID().getId(), b.getID().getId()));
    List<Task> stragglers = maps.subList(8, 10);
    completeFirstEight(app, events, maps);
    waitFor("the job to finish", () -> app.getServiceState() == Service.STATE.STOPPED, true);

    assertEquals(JobState.SUCCEEDED, job.getState(), String.valueOf(job.getDiagnostics()));
    assertEquals(8, count(maps, TaskState.SUCCEEDED), "maps done");
    for (Task t : stragglers) {
      assertEquals(TaskState.KILLED, t.getState(), t.getID() + " was not dropped");
    }
    assertTrue(shim.appliedDecisions() >= 2, "the drops were not applied by the shim");
    // The hello's map input sizes come from each MapTaskImpl's split info (MRApp's splits are empty).
    long[] sizes = BridgeSpeculator.mapInputBytes(job);
    assertNotNull(sizes, "map input sizes not readable from the AM");
    assertEquals(10, sizes.length);
    String log = Sidecar.read(sidecar.log);
    File samples = new File(data, "grass-samples.jsonl");
    assertTrue(samples.length() > 0, "no GRASS sample kept under --data-dir: " + log);
  }

  /**
   * The same approximation job with a reduce (issue 4, live, jobs with reduces): 10 maps and 1 reduce, error bound
   * 20%, mapreduce.map.failures.maxpercent=20 as the README tells a user to set. Map 8 runs and never finishes;
   * map 9 never even gets a container (the allocator holds its request back, as a full cluster would), so its
   * task is SCHEDULED with an UNASSIGNED attempt. Once maps 0-7 have succeeded, GRASS drops 8 and 9 and the shim
   * fails both at once, without retries. What a reduce sees is the job's map completion events: they must say
   * TIPFAILED for both maps, which Hadoop's own ShuffleSchedulerImpl (fed the events as the reduce's
   * EventFetcher feeds them) takes as "done, no output": its shuffle completes on the 8 outputs, where the same
   * events with KILLED (what the map-only route gives) leave it waiting. Then the reduce finishes and the job is
   * SUCCEEDED with 8 maps SUCCEEDED and 2 FAILED, and map 9's container request was withdrawn.
   */
  @Test
  @Timeout(120)
  void anErrorBoundJobWithAReduceSucceedsAfterEightyPercentOfItsMaps() throws Exception {
    Sidecar sidecar = sidecar();
    Configuration conf = conf(sidecar, "grass");
    conf.set(ShimConfig.GRASS_ERROR, "0.2");
    conf.setInt(MRJobConfig.MAP_FAILURES_MAX_PERCENT, 20);
    conf.setInt(MRJobConfig.NUM_REDUCES, 1);
    resetClock();
    final HoldingMRApp app = new HoldingMRApp(10, 1, "sb-approx-reduce", clock, 9);
    final Job job = submit(conf, app);
    List<Task> maps = sorted(job.getTasks(TaskType.MAP).values());
    Task reduce = job.getTasks(TaskType.REDUCE).values().iterator().next();
    for (Task t : maps.subList(0, 9)) {
      app.waitForState(t, TaskState.RUNNING);
    }
    app.waitForState(reduce, TaskState.RUNNING);
    final Task running = maps.get(8);
    final Task unplaced = maps.get(9);
    assertEquals(TaskState.SCHEDULED, unplaced.getState());
    assertEquals(TaskAttemptState.STARTING, unplaced.getAttempts().values().iterator().next().getState(),
        "map 9's attempt should be waiting for a container");
    final BridgeSpeculator shim = shim();
    waitForCharge(shim, true);
    EventHandler events = app.getContext().getEventHandler();

    completeFirstEight(app, events, maps);
    waitFor("maps 8 and 9 to be dropped",
        () -> running.getState() == TaskState.FAILED && unplaced.getState() == TaskState.FAILED, true);
    waitFor("every attempt of the dropped maps to end", () -> allFinished(running) && allFinished(unplaced), true);
    int[] attemptsAtDrop = {running.getAttempts().size(), unplaced.getAttempts().size()};
    assertEquals(1, unplaced.getAttempts().size(), "the unplaced map was retried");
    assertTrue(app.withdrawn.contains(unplaced.getID()), "map 9's container request was not withdrawn");

    // What the reduce sees.
    TaskCompletionEvent[] seen = job.getMapAttemptCompletionEvents(0, 100);
    Map<Integer, TaskCompletionEvent.Status> last = new java.util.TreeMap<Integer, TaskCompletionEvent.Status>();
    for (TaskCompletionEvent e : seen) {
      last.put(e.getTaskAttemptId().getTaskID().getId(), e.getTaskStatus());
    }
    assertEquals(TaskCompletionEvent.Status.TIPFAILED, last.get(8), "completion events: " + last);
    assertEquals(TaskCompletionEvent.Status.TIPFAILED, last.get(9), "completion events: " + last);
    for (int i = 0; i < 8; i++) {
      assertEquals(TaskCompletionEvent.Status.SUCCEEDED, last.get(i), "completion events: " + last);
    }
    assertTrue(shuffleCompletes(seen, 10, false), "Hadoop's ShuffleSchedulerImpl still waits on the events " + last);
    assertFalse(shuffleCompletes(seen, 10, true),
        "with the dropped maps KILLED instead, the shuffle should wait for ever, which is why they are failed");
    assertEquals(TaskState.RUNNING, reduce.getState(), "the reduce ended before its shuffle could");

    TaskAttempt r = reduce.getAttempts().values().iterator().next();
    complete(events, r);
    waitFor("the job to finish", () -> app.getServiceState() == Service.STATE.STOPPED, true);
    assertEquals(JobState.SUCCEEDED, job.getState(), String.valueOf(job.getDiagnostics()));
    assertEquals(8, count(maps, TaskState.SUCCEEDED), "maps done");
    assertEquals(TaskState.SUCCEEDED, reduce.getState());
    assertEquals(attemptsAtDrop[0], running.getAttempts().size(), "map 8 was retried after its drop");
    assertEquals(attemptsAtDrop[1], unplaced.getAttempts().size(), "map 9 was retried after its drop");
    assertTrue(shim.appliedDecisions() >= 2, "the drops were not applied by the shim");
  }

  /**
   * Without the failure allowance a drop in a job with reduces would fail the job, so the shim refuses it and
   * says why; the map runs on and the job still succeeds.
   */
  @Test
  @Timeout(120)
  void aDropThatWouldFailAJobWithReducesIsRefused() throws Exception {
    Sidecar sidecar = sidecar();
    Configuration conf = conf(sidecar, "none");
    conf.setInt(MRJobConfig.NUM_REDUCES, 1);
    MRApp app = startRunning(conf, "sb-drop-refused", 2, 1);
    Job job = job(app);
    Task map = sorted(job.getTasks(TaskType.MAP).values()).get(0);
    DecisionApplier none = new DecisionApplier(app.getContext(), new java.util.HashSet<TaskId>(), 0);
    assertEquals("dropping it would fail the job: 0 of 2 maps failed or dropped already and "
        + "mapreduce.map.failures.maxpercent=0 allows 0 (a job with reduces loses a dropped map as a failed one)",
        none.apply("drop", Wire.taskId(map.getID()), "", 1, "test"));
    assertEquals(TaskState.RUNNING, map.getState());
    finishJob(app);
  }

  /**
   * MRApp whose allocator never gives a container to the maps named, gives containers only to container requests,
   * and records withdrawn requests.
   */
  static final class HoldingMRApp extends MRApp {
    private final Set<Integer> held = new HashSet<Integer>();
    final Set<TaskId> withdrawn = Collections.newSetFromMap(new ConcurrentHashMap<TaskId, Boolean>());

    HoldingMRApp(int maps, int reduces, String name, ControlledClock clock, Integer... heldMaps) {
      super(maps, reduces, false, name, true, clock);
      held.addAll(Arrays.asList(heldMaps));
    }

    private boolean held(TaskAttemptId id) {
      return id.getTaskId().getTaskType() == TaskType.MAP && held.contains(id.getTaskId().getId());
    }

    @Override
    protected ContainerAllocator createContainerAllocator(ClientService clientService, AppContext context) {
      return new MRAppContainerAllocator() {
        @Override
        public void handle(ContainerAllocatorEvent event) {
          if (event.getType() != ContainerAllocator.EventType.CONTAINER_REQ) {
            // Withdrawn requests and failed containers get no container, as with the RM's allocator
            // (MRApp's own allocator answers every event with one).
            if (event.getType() == ContainerAllocator.EventType.CONTAINER_DEALLOCATE) {
              withdrawn.add(event.getAttemptID().getTaskId());
            }
            return;
          }
          if (!held(event.getAttemptID())) {
            super.handle(event);
          }
        }
      };
    }
  }

  /**
   * Feeds a reduce's view of the map completion events to Hadoop's ShuffleSchedulerImpl as its EventFetcher
   * would (resolve per event), copying each SUCCEEDED map's output at once (copySucceeded, as a Fetcher would
   * after fetching), and says whether the shuffle is complete. killedInsteadOfTipFailed rewrites TIPFAILED to
   * KILLED, the status a dropped map of the map-only route (T_KILL) would have.
   */
  private static boolean shuffleCompletes(TaskCompletionEvent[] events, int maps, boolean killedInsteadOfTipFailed)
      throws Exception {
    JobConf jobConf = new JobConf(false);
    jobConf.setNumMapTasks(maps);
    TaskStatus status = new TaskStatus() {
      @Override
      public boolean getIsMap() {
        return false;
      }

      @Override
      public void addFetchFailedMap(org.apache.hadoop.mapred.TaskAttemptID mapTaskId) {
      }
    };
    org.apache.hadoop.mapreduce.TaskAttemptID reduceId = new org.apache.hadoop.mapreduce.TaskAttemptID(
        "1", 1, org.apache.hadoop.mapreduce.TaskType.REDUCE, 0, 0);
    ShuffleSchedulerImpl<Object, Object> scheduler = new ShuffleSchedulerImpl<Object, Object>(jobConf, status,
        reduceId, null, new Progress(), new Counters.Counter(), new Counters.Counter(), new Counters.Counter());
    try {
      MapHost host = new MapHost("node", "http://node:13562/");
      for (TaskCompletionEvent e : events) {
        TaskCompletionEvent.Status st = e.getTaskStatus();
        if (killedInsteadOfTipFailed && st == TaskCompletionEvent.Status.TIPFAILED) {
          e = new TaskCompletionEvent(e.getEventId(), e.getTaskAttemptId(), e.idWithinJob(), e.isMapTask(),
              TaskCompletionEvent.Status.KILLED, e.getTaskTrackerHttp());
        }
        if (e.getTaskStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
          scheduler.copySucceeded(e.getTaskAttemptId(), host, 1, 0, 1, new CopiedOutput(e.getTaskAttemptId()));
        } else {
          scheduler.resolve(e);
        }
      }
      return scheduler.waitUntilDone(1);
    } finally {
      scheduler.close();
    }
  }

  /** A map output already copied: commit and abort have nothing to do. */
  private static final class CopiedOutput extends MapOutput<Object, Object> {
    CopiedOutput(org.apache.hadoop.mapreduce.TaskAttemptID id) {
      super(id, 1, true);
    }

    @Override
    public void shuffle(MapHost host, InputStream input, long compressedLength, long decompressedLength,
        ShuffleClientMetrics metrics, Reporter reporter) {
      throw new UnsupportedOperationException("already copied");
    }

    @Override
    public void commit() {
    }

    @Override
    public void abort() {
    }

    @Override
    public String getDescription() {
      return "copied";
    }
  }

  private static boolean allFinished(Task t) {
    for (TaskAttempt a : t.getAttempts().values()) {
      if (!a.isFinished()) {
        return false;
      }
    }
    return true;
  }

  private static List<Task> sorted(java.util.Collection<Task> tasks) {
    List<Task> out = new ArrayList<Task>(tasks);
    out.sort((a, b) -> Integer.compare(a.getID().getId(), b.getID().getId()));
    return out;
  }

  // ---- helpers ----

  /** After 3 s, lets maps 0-7 of an approximation job succeed in turn, 100 ms apart on the AM's clock. */
  private void completeFirstEight(MRApp app, EventHandler events, List<Task> maps) throws Exception {
    clock.tickMsec(3000L);
    for (Task t : maps.subList(0, 8)) {
      TaskAttempt a = t.getAttempts().values().iterator().next();
      complete(events, a);
      app.waitForState(a, TaskAttemptState.SUCCEEDED);
      clock.tickMsec(100L);
    }
  }
}
