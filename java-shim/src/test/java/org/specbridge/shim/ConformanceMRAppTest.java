package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormatCounter;
import org.apache.hadoop.mapreduce.v2.api.records.Phase;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.MRApp;
import org.apache.hadoop.mapreduce.v2.app.client.ClientService;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptContainerAssignedEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocator;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocatorEvent;
import org.apache.hadoop.mapreduce.v2.app.speculate.Speculator;
import org.apache.hadoop.mapreduce.v2.app.speculate.SpeculatorEvent;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.security.ContainerTokenIdentifier;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The conformance suite through Hadoop's ApplicationMaster. Each scenario of {@code sim/testdata/conformance} is
 * simulated under each policy it lists ({@code specbridge conformance-trace}, package conformance: the events the
 * simulator's engine accepted, and at each of its Decides what it decided), and the simulated run is then played
 * through MRApp with the shim, against a real {@code specbridge serve}: every attempt starts when and where the
 * simulation started it (the test holds the AM's container requests and assigns them then), reports the progress,
 * phase and counters the simulation reported, and succeeds when it succeeded, on the AM's controlled clock. At each
 * of the simulator's Decides the test waits until the shim has sent everything and the sidecar has decided on it
 * and its decisions are applied, then compares them with the simulator's. A copy the simulation starts must have
 * been asked for by the live sidecar and created by Hadoop (TaskImpl), or the run has diverged.
 *
 * <p>What differs from the Go suite (conformance_test.go, the same traces against the bridge in-process): here the
 * decisions go through the shim's translation of Hadoop's events and its DecisionApplier, and the AM itself kills a
 * task's other attempts when one succeeds. The sidecar decides when an events frame arrives (its periodic decide
 * is off: its clock is the wall clock, the AM's is controlled); at a Decide of the simulator with no new events the
 * shim has nothing to send, so the test has it send an empty events frame ({@code BridgeSpeculator.sendNoEvents}),
 * as the sidecar's own ticker would decide live. The sidecar's estimate of the AM's clock runs a few ms ahead of a
 * frame's {@code now} (the time it took to read and handle it), which can move a decision that waits on a timer
 * or a strict threshold to the next or the last Decide; so a decision may come one Decide late or
 * early here, and decisions of one Decide are compared in any order (conformance_test.go holds the sidecar's
 * clock and compares exactly). The node-failure scenario is not played here: its node events
 * come from serve's fault analyzer, which times heartbeat gaps on the wall clock (NodePauseTransitionsMRAppTest
 * checks the analyzer live against the simulator's, and the Go suite the policies' response).
 */
@SuppressWarnings({"unchecked", "rawtypes"})
class ConformanceMRAppTest extends ShimMRAppTest {
  static final String[] SCENARIOS = {"slow-nodes.txt", "heavy-tail.txt", "deadline.txt"};
  static final long AM_ZERO = 1_700_000_000_000L;
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  @Timeout(1200)
  void everyPolicyDecidesThroughHadoopsAmAsInTheSimulator() throws Exception {
    File root = new File(System.getProperty("specbridge.repo.root", "..")).getCanonicalFile();
    List<String> failures = new ArrayList<String>();
    int played = 0;
    for (String name : SCENARIOS) {
      File scenario = new File(root, "sim/testdata/conformance/" + name);
      Map<String, String> pins = new LinkedHashMap<String, String>();
      List<String> policies = new ArrayList<String>();
      for (String line : Files.readAllLines(scenario.toPath(), StandardCharsets.UTF_8)) {
        String[] f = line.trim().split("\\s+");
        if (f[0].equals("policies")) {
          for (int i = 1; i < f.length; i++) {
            policies.add(f[i]);
          }
        } else if (f[0].equals("differs") && f.length > 2) {
          pins.put(f[1], line.trim());
        }
      }
      String only = System.getProperty("conformance.only", "");
      for (String policy : policies) {
        if (!only.isEmpty() && !only.equals(name + ":" + policy)) {
          continue;
        }
        JsonNode trace = trace(root, scenario, policy);
        String diff = play(trace, policy);
        played++;
        String what = name + " " + policy;
        System.out.println("conformance through MRApp: " + what + ": " + (diff == null ? "agrees" : diff));
        // A pin is the Go suite's (exact times; it fails when a pin goes stale). Here a decision may come one
        // Decide late, which is all a pinned clone-at-launch difference is: it may agree.
        if (!pins.containsKey(policy) && diff != null) {
          failures.add(what + ": " + diff);
        }
      }
    }
    assertTrue(played >= 10 || !System.getProperty("conformance.only", "").isEmpty(), "only " + played + " scenario runs");
    assertTrue(failures.isEmpty(), "decisions through Hadoop's AM differ from the simulator's:\n  "
        + String.join("\n  ", failures));
  }

  /** The scenario simulated under policy, from the binary the tests use. */
  static JsonNode trace(File root, File scenario, String policy) throws Exception {
    File out = File.createTempFile("conformance-trace", ".json");
    out.deleteOnExit();
    Process p = new ProcessBuilder(Sidecar.binary().getPath(), "conformance-trace", scenario.getPath(), policy)
        .directory(root).redirectOutput(out).redirectErrorStream(false).start();
    byte[] err = readAll(p.getErrorStream());
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new AssertionError("conformance-trace " + scenario + " " + policy + " failed: "
          + new String(err, StandardCharsets.UTF_8));
    }
    return JSON.readTree(out);
  }

  private static byte[] readAll(InputStream in) throws Exception {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    int n;
    while ((n = in.read(buf)) > 0) {
      b.write(buf, 0, n);
    }
    return b.toByteArray();
  }

  /** Thrown when the live run cannot follow the simulated one any further. */
  static final class Diverged extends Exception {
    Diverged(String what) {
      super(what);
    }
  }

  /**
   * Plays the trace through MRApp against a fresh sidecar running policy; returns the first difference, or null
   * when every Decide agreed.
   */
  String play(JsonNode trace, String policy) throws Exception {
    JsonNode hello = trace.path("hello");
    resetClock();
    Sidecar sidecar = sidecar("--decide-interval", "1h");
    Configuration conf = shimConf(sidecar, policy);
    conf.setBoolean(ShimConfig.FALLBACK_ENABLED, false);
    java.util.Iterator<Map.Entry<String, JsonNode>> params = hello.path("params").fields();
    while (params.hasNext()) {
      Map.Entry<String, JsonNode> e = params.next();
      conf.set(ShimConfig.PARAM_PREFIX + policy + "." + e.getKey(), e.getValue().asText());
    }
    if (hello.path("slots").asInt() > 0) {
      conf.setInt(ShimConfig.CLUSTER_SLOTS, hello.path("slots").asInt());
    }
    if (hello.path("deadline").asLong() > 0) {
      conf.setLong(ShimConfig.GRASS_DEADLINE_MS, hello.path("deadline").asLong() - hello.path("start").asLong());
    }
    if (hello.path("error_bound").asDouble() > 0) {
      conf.set(ShimConfig.GRASS_ERROR, hello.path("error_bound").asText());
    }
    if (hello.path("task_mean_ms").asDouble() > 0) {
      conf.set(ShimConfig.TASK_MEAN_MS, hello.path("task_mean_ms").asText());
    }
    if (hello.path("task_tail_index").asDouble() > 0) {
      conf.set(ShimConfig.TASK_TAIL_INDEX, hello.path("task_tail_index").asText());
    }
    HoldingMRApp app = new HoldingMRApp(hello.path("maps").asInt(), hello.path("reduces").asInt(), clock);
    Job job = submit(conf, app);
    BridgeSpeculator shim = shim();
    LinkedBlockingQueue<SpeculatorEvent> seen = new LinkedBlockingQueue<SpeculatorEvent>();
    List<JsonNode> decided = Collections.synchronizedList(new ArrayList<JsonNode>());
    shim.eventTap = seen::add;
    shim.decisionTap = frame -> {
      for (JsonNode d : frame) {
        decided.add(d);
      }
    };
    long zero = app.getContext().getStartTime();
    if (clock.getTime() > zero) {
      throw new AssertionError("the AM's clock is past its start time before the run");
    }
    waitForCharge(shim, true);
    Player player = new Player(app, job, shim, sidecar, seen, decided, zero);
    try {
      return player.run(trace.path("steps"));
    } catch (Diverged d) {
      return d.getMessage();
    } finally {
      shim.eventTap = null;
      shim.decisionTap = null;
      if (app.getServiceState() != Service.STATE.STOPPED) {
        app.stop();
      }
    }
  }

  /** Plays the steps of one trace. */
  final class Player {
    final HoldingMRApp app;
    final Job job;
    final BridgeSpeculator shim;
    final Sidecar sidecar;
    final LinkedBlockingQueue<SpeculatorEvent> seen;
    final List<JsonNode> decided;
    final long zero;
    final EventHandler events;
    int decisionsRead;

    Player(HoldingMRApp app, Job job, BridgeSpeculator shim, Sidecar sidecar, LinkedBlockingQueue<SpeculatorEvent> seen,
        List<JsonNode> decided, long zero) {
      this.app = app;
      this.job = job;
      this.shim = shim;
      this.sidecar = sidecar;
      this.seen = seen;
      this.decided = decided;
      this.zero = zero;
      this.events = app.getContext().getEventHandler();
    }

    long at(long amTime) {
      return zero + (amTime - AM_ZERO);
    }

    String run(JsonNode steps) throws Exception {
      List<String> late = new ArrayList<String>(); // the simulator's decisions live still owes, one Decide late
      List<String> early = new ArrayList<String>(); // live's decisions the simulator owes, one Decide later
      for (JsonNode step : steps) {
        List<String> want = new ArrayList<String>();
        for (JsonNode w : step.path("want")) {
          want.add(normalize(w.asText()));
        }
        for (JsonNode ev : step.path("events")) {
          deliver(ev);
        }
        clock.setTime(at(step.path("now").asLong()));
        if (step.path("events").size() == 0) {
          decideNow();
        } else {
          sync();
        }
        List<String> got = new ArrayList<String>();
        synchronized (decided) {
          for (; decisionsRead < decided.size(); decisionsRead++) {
            got.add(wire(decided.get(decisionsRead)));
          }
        }
        long t = step.path("now").asLong() - AM_ZERO;
        // What live owed from the last Decide must come now, and what it decided one Decide early must be the
        // simulator's now; then this Decide's, in any order; what is left of it may still come at the next.
        List<String> extra = new ArrayList<String>(got);
        for (String w : late) {
          if (!extra.remove(w)) {
            return "at " + t + " ms: the simulator decided " + w + " one Decide earlier; live did not by now (live "
                + got + ")";
          }
        }
        late.clear();
        for (String w : want) {
          if (!early.remove(w) && !extra.remove(w)) {
            late.add(w);
          }
        }
        if (!early.isEmpty()) {
          return "at " + t + " ms: live decided " + early + " one Decide earlier; the simulator did not by now "
              + "(simulator " + want + ")";
        }
        early.addAll(extra); // the simulator must decide these at the next Decide
      }
      if (!late.isEmpty() || !early.isEmpty()) {
        return "at the end: the simulator's " + late + " never came live; live's " + early + " never in the simulator";
      }
      return null;
    }

    /**
     * Has the sidecar decide at the AM's time now: everything is sent, then an empty events frame, as the sidecar's
     * own ticker would decide live (off here: its clock is the wall clock, the AM's is controlled).
     */
    void decideNow() throws Exception {
      sync();
      if (!shim.sendNoEvents()) {
        throw new AssertionError("the shim's session is not ready for a frame");
      }
      sync();
    }

    /** One event of the simulated run, done to the AM at its time; returns once the shim has it. */
    void deliver(JsonNode ev) throws Exception {
      String kind = ev.path("kind").asText();
      long t = at(ev.path("time").asLong());
      switch (kind) {
        case "attempt-started": {
          clock.setTime(t);
          TaskAttempt a = attempt(ev.path("attempt").asText(), true);
          TaskAttemptId id = a.getID();
          waitFor("the AM to ask a container for " + id, () -> app.requests.containsKey(id));
          app.assign(id, ev.path("node").asText());
          await("the start of " + id, e -> e.getType() == Speculator.EventType.ATTEMPT_START
              && e.getReportedStatus() != null && id.equals(e.getReportedStatus().id));
          return;
        }
        case "attempt-status": {
          clock.setTime(t);
          TaskAttempt a = attempt(ev.path("attempt").asText(), false);
          TaskAttemptStatus s = new TaskAttemptStatus();
          s.id = a.getID();
          s.progress = (float) ev.path("progress").asDouble();
          s.taskState = TaskAttemptState.RUNNING;
          s.phase = Phase.valueOf(ev.path("phase").asText("MAP"));
          s.counters = counters(ev.path("counters"), a.getID().getTaskId().getTaskType());
          s.stateString = "RUNNING";
          events.handle(new TaskAttemptStatusUpdateEvent(a.getID(), new java.util.concurrent.atomic.AtomicReference<TaskAttemptStatus>(s)));
          float p = s.progress;
          await("the report of " + a.getID(), e -> e.getType() == Speculator.EventType.ATTEMPT_STATUS_UPDATE
              && e.getReportedStatus() != null && a.getID().equals(e.getReportedStatus().id)
              && e.getReportedStatus().progress == p);
          return;
        }
        case "attempt-succeeded": {
          clock.setTime(t);
          TaskAttempt a = attempt(ev.path("attempt").asText(), false);
          complete(events, a);
          waitFor("the success of " + a.getID(), () -> a.getState() == TaskAttemptState.SUCCEEDED);
          return;
        }
        case "attempt-killed": {
          // The AM kills by itself (a task's other attempts when one succeeds) or by the sidecar's decision.
          TaskAttempt a = attempt(ev.path("attempt").asText(), false);
          if (a.getState() == TaskAttemptState.RUNNING && a.getID().getTaskId() != null) {
            clock.setTime(t);
            decideNow(); // a kill decided one Decide late is made now
          }
          waitFor("the AM to kill " + a.getID() + " as the simulation did", () -> a.getState() == TaskAttemptState.KILLED);
          return;
        }
        case "container-needs":
          return; // the AM sends its own
        default:
          throw new Diverged("the simulated run has a " + kind + " event, which this harness does not play");
      }
    }

    /** The AM's attempt the simulation names (by task and number); created is whether it may have to appear. */
    TaskAttempt attempt(String wire, boolean created) throws Exception {
      String[] p = wire.split("_");
      TaskType type = "m".equals(p[3]) ? TaskType.MAP : TaskType.REDUCE;
      int index = Integer.parseInt(p[4]);
      int n = Integer.parseInt(p[5]);
      Task task = null;
      for (Task x : job.getTasks(type).values()) {
        if (x.getID().getId() == index) {
          task = x;
        }
      }
      if (task == null) {
        throw new AssertionError("the AM's job has no " + type + " " + index);
      }
      Task tk = task;
      BooleanSupplier exists = () -> {
        for (TaskAttemptId id : tk.getAttempts().keySet()) {
          if (id.getId() == n) {
            return true;
          }
        }
        return false;
      };
      if (!exists.getAsBoolean()) {
        if (!created || n == 0) {
          throw new Diverged("the AM has no attempt " + n + " of " + tk.getID() + ", which the simulation ran");
        }
        // A copy: the live sidecar asked for it (or the run diverges here); TaskImpl adds it on its dispatcher. A
        // decision one Decide late is made now, at the copy's start.
        decideNow();
        long deadline = System.currentTimeMillis() + 10000;
        while (!exists.getAsBoolean()) {
          if (System.currentTimeMillis() > deadline) {
            throw new Diverged("the live sidecar never had the AM start copy " + n + " of " + tk.getID()
                + ", which the simulation started at " + (clock.getTime() - zero) + " ms");
          }
          Thread.sleep(5); // poll interval of a condition wait
        }
      }
      for (Map.Entry<TaskAttemptId, TaskAttempt> e : tk.getAttempts().entrySet()) {
        if (e.getKey().getId() == n) {
          return e.getValue();
        }
      }
      throw new IllegalStateException("unreachable");
    }

    /** Waits until the shim was handed an event matching what (events before it are dropped). */
    void await(String what, Predicate<SpeculatorEvent> match) throws Exception {
      long deadline = System.currentTimeMillis() + 20000;
      while (true) {
        SpeculatorEvent e = seen.poll(deadline - System.currentTimeMillis(), TimeUnit.MILLISECONDS);
        if (e == null) {
          throw new AssertionError("timed out waiting for " + what + " to reach the shim");
        }
        if (match.test(e)) {
          return;
        }
      }
    }

    void waitFor(String what, BooleanSupplier cond) throws Exception {
      long deadline = System.currentTimeMillis() + 20000;
      while (!cond.getAsBoolean()) {
        if (System.currentTimeMillis() > deadline) {
          throw new Diverged("timed out waiting for " + what);
        }
        Thread.sleep(2); // poll interval of a condition wait
      }
    }

    /**
     * Waits until the shim has sent every event, the sidecar has read every frame the shim sent and decided on
     * every events frame, and the shim has received and acknowledged every decision the sidecar sent.
     */
    void sync() throws Exception {
      long deadline = System.currentTimeMillis() + 20000;
      String last = "";
      while (System.currentTimeMillis() < deadline) {
        if (shim.backlog() == 0) {
          Map<String, Double> m = metrics();
          double frames = m.getOrDefault("frames", 0.0);
          double eventFrames = m.getOrDefault("frames:events", 0.0) + m.getOrDefault("frames:resync", 0.0);
          double decides = m.getOrDefault("decides", 0.0);
          double sent = m.getOrDefault("decisions", 0.0);
          double acks = m.getOrDefault("acks", 0.0);
          last = "frames " + frames + " of " + sent() + ", decides " + decides + " of " + eventFrames
              + " events frames, decisions " + sent + " received " + decided.size() + " acked " + acks;
          if (frames == sent() && decides >= eventFrames && sent == decided.size() && acks == sent) {
            return;
          }
        }
        Thread.sleep(5); // poll interval of a condition wait
      }
      throw new AssertionError("the shim and the sidecar did not settle: " + last + "; sidecar log:\n"
          + Sidecar.read(sidecar.log));
    }

    /** Frames the shim sent (the test's empty ones included). */
    long sent() {
      return shim.framesSent();
    }

    /** The sidecar's counters this test reads, summed over their labels (frames also by type). */
    Map<String, Double> metrics() throws Exception {
      Map<String, Double> m = new ConcurrentHashMap<String, Double>();
      String text;
      try (InputStream in = new URL("http://" + sidecar.hostPort + "/metrics").openStream()) {
        text = new String(readAll(in), StandardCharsets.UTF_8);
      }
      for (String line : text.split("\n")) {
        if (line.startsWith("#")) {
          continue;
        }
        int sp = line.lastIndexOf(' ');
        if (sp < 0) {
          continue;
        }
        double v = Double.parseDouble(line.substring(sp + 1));
        String key = null;
        if (line.startsWith("specbridge_bridge_frames_received_total")) {
          key = "frames";
          int ty = line.indexOf("type=\"");
          if (ty >= 0) {
            String type = line.substring(ty + 6, line.indexOf('"', ty + 6));
            m.merge("frames:" + type, v, Double::sum);
          }
        } else if (line.startsWith("specbridge_bridge_decide_seconds_count")) {
          key = "decides";
        } else if (line.startsWith("specbridge_bridge_decisions_total")) {
          key = "decisions";
        } else if (line.startsWith("specbridge_bridge_acks_total")) {
          key = "acks";
        }
        if (key != null) {
          m.merge(key, v, Double::sum);
        }
      }
      return m;
    }
  }

  /** The simulator's counters as Hadoop's (what Wire.counters reads back). */
  static Counters counters(JsonNode c, TaskType type) {
    Counters out = new Counters();
    if (type == TaskType.MAP) {
      out.findCounter(FileInputFormatCounter.BYTES_READ).setValue(c.path("input_bytes").asLong());
      out.findCounter(TaskCounter.MAP_INPUT_RECORDS).setValue(c.path("input_records").asLong());
      out.findCounter(TaskCounter.MAP_OUTPUT_BYTES).setValue(c.path("output_bytes").asLong());
      out.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).setValue(c.path("output_records").asLong());
    } else {
      out.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).setValue(c.path("input_bytes").asLong());
      out.findCounter(TaskCounter.REDUCE_INPUT_RECORDS).setValue(c.path("input_records").asLong());
      out.findCounter(FileOutputFormatCounter.BYTES_WRITTEN).setValue(c.path("output_bytes").asLong());
      out.findCounter(TaskCounter.REDUCE_OUTPUT_RECORDS).setValue(c.path("output_records").asLong());
    }
    out.findCounter(TaskCounter.CPU_MILLISECONDS).setValue(c.path("cpu_ms").asLong());
    out.findCounter(TaskCounter.GC_TIME_MILLIS).setValue(c.path("gc_ms").asLong());
    out.findCounter(TaskCounter.SPILLED_RECORDS).setValue(c.path("spilled_records").asLong());
    return out;
  }

  /** A decision as the Go side writes it, its ids shortened to the task ("m_000002") or attempt ("m_000002_1"). */
  static String normalize(String decision) {
    StringBuilder b = new StringBuilder();
    for (String w : decision.split(" ")) {
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append(shortId(w));
    }
    return b.toString();
  }

  static String shortId(String id) {
    String[] p = id.split("_");
    if (id.startsWith("task_") && p.length == 5) {
      return p[3] + "_" + p[4];
    }
    if (id.startsWith("attempt_") && p.length == 6) {
      return p[3] + "_" + p[4] + "_" + p[5];
    }
    return id;
  }

  /** A live decision (the wire's) in the form of normalize. */
  static String wire(JsonNode d) {
    String kind = d.path("kind").asText();
    switch (kind) {
      case "speculate":
        return "speculate " + shortId(d.path("task").asText()) + " x" + Math.max(1, d.path("copies").asInt(1));
      case "kill":
      case "rerun":
        return kind + " " + shortId(d.path("attempt").asText());
      default:
        return kind + " " + shortId(d.path("task").asText());
    }
  }

  /** MRApp whose container requests wait until the test assigns them, on the node it names. */
  static final class HoldingMRApp extends MRApp {
    final Map<TaskAttemptId, ContainerAllocatorEvent> requests = new ConcurrentHashMap<TaskAttemptId, ContainerAllocatorEvent>();
    private final AtomicInteger containers = new AtomicInteger();

    HoldingMRApp(int maps, int reduces, ControlledClock clock) {
      super(maps, reduces, false, "sb-conformance", true, clock);
    }

    @Override
    protected ContainerAllocator createContainerAllocator(ClientService clientService, AppContext context) {
      return new MRAppContainerAllocator() {
        @Override
        public void handle(ContainerAllocatorEvent event) {
          if (event.getType() == ContainerAllocator.EventType.CONTAINER_REQ) {
            requests.put(event.getAttemptID(), event);
          } else if (event.getType() == ContainerAllocator.EventType.CONTAINER_DEALLOCATE) {
            requests.remove(event.getAttemptID());
          }
        }
      };
    }

    /** Gives attempt a container on node (the simulation's node name), as the RM would. */
    void assign(TaskAttemptId attempt, String node) {
      requests.remove(attempt);
      ContainerId id = ContainerId.newContainerId(getContext().getApplicationAttemptId(), containers.incrementAndGet());
      // The simulation's nodes are node0, node1, ...: NodeManager 127.0.0.1:(46000 + i) here.
      NodeId nm = NodeId.newInstance("127.0.0.1", 46000 + Integer.parseInt(node.replaceAll("\\D", "")));
      Resource resource = Resource.newInstance(1024, 1);
      ContainerTokenIdentifier ident = new ContainerTokenIdentifier(id, nm.toString(), "user", resource,
          System.currentTimeMillis() + 600000, 42, 42, Priority.newInstance(0), 0);
      Container container = Container.newInstance(id, nm, "127.0.0.1:8042", resource, null,
          MRApp.newContainerToken(nm, "password".getBytes(StandardCharsets.UTF_8), ident));
      getContext().getEventHandler().handle(new TaskAttemptContainerAssignedEvent(attempt, container, null));
    }
  }
}
