package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.Phase;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator;
import org.apache.hadoop.mapreduce.v2.app.speculate.LegacyTaskRuntimeEstimator;
import org.apache.hadoop.mapreduce.v2.app.speculate.SpeculatorEvent;
import org.apache.hadoop.mapreduce.v2.app.speculate.TaskRuntimeEstimator;
import org.apache.hadoop.yarn.event.Event;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Conformance of the sidecar's {@code hadoop} policy with Hadoop's own DefaultSpeculator and
 * LegacyTaskRuntimeEstimator: one recorded job (src/test/resources/conformance) is fed, event by event, to
 * Hadoop's real DefaultSpeculator on a controlled clock, and, as the shim's protocol frames over a real
 * websocket, to the real sidecar binary running {@code hadoop}. The speculations (which task, at which scan,
 * in which order) must be the same.
 *
 * <p>Scans. DefaultSpeculator's background thread scans, then waits retry-after-no-speculate (1 s) or
 * retry-after-speculate (15 s). The test plays that thread: scan k happens at t(k) = t(k-1) + wait + slack, on
 * Hadoop by calling its computeSpeculations (private: by reflection) with the clock at t(k), on the sidecar by
 * an {@code events} frame whose {@code now} is t(k) (the sidecar decides after every events frame). The slack
 * (fixture {@code scan_slack_ms}, a thread's wake-up latency) absorbs the millisecond or two the sidecar's
 * estimate of the AM's clock runs ahead of the frame's {@code now}. Between scans the sidecar also gets a frame
 * every 250 ms of AM time (with the events up to then): a policy that scanned more often than Hadoop would
 * speculate at one of those, and show up as a difference. The sidecar's periodic decide is turned off
 * ({@code --decide-interval 1h}) so that it decides only at times the test chose.
 *
 * <p>Copies. When a side speculates a task, what TaskImpl does follows on that side: a copy attempt is
 * created (STARTING) and asks for a container (container needs +1), the container arrives
 * {@code copy_start_delay_ms} later (needs -1, the copy starts and never reports), and the copy is killed
 * when the original succeeds (or its request withdrawn if it has not started).
 */
class HadoopPolicyConformanceTest extends SidecarTest {
  static final String FIXTURE = "/conformance/hadoop-job-20-maps.json";
  static final long TICK_MS = 250;
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  @Timeout(300)
  void theSidecarsHadoopPolicySpeculatesWhatHadoopsDefaultSpeculatorDoes() throws Exception {
    Fixture f = Fixture.load(FIXTURE);

    List<Speculation> hadoop = new Driver(f, new HadoopSide(f)).run();
    System.out.println("DefaultSpeculator speculated: " + hadoop);
    // The recording must exercise the policy: several speculations, of maps and of reduces.
    int maps = 0;
    int reduces = 0;
    for (Speculation s : hadoop) {
      if (s.task.contains("_m_")) {
        maps++;
      } else {
        reduces++;
      }
    }
    assertTrue(maps >= 2 && reduces >= 1, "the fixture no longer makes Hadoop speculate maps and reduces: " + hadoop);

    Sidecar sidecar = sidecar("--decide-interval", "1h");
    SidecarSide side = new SidecarSide(f, sidecar);
    cleanup.add(0, side);
    List<Speculation> ours = new Driver(f, side).run();
    System.out.println("sidecar hadoop policy speculated: " + ours);

    if (!hadoop.equals(ours)) {
      int i = 0;
      while (i < hadoop.size() && i < ours.size() && hadoop.get(i).equals(ours.get(i))) {
        i++;
      }
      throw new AssertionError("the sidecar's hadoop policy differs from Hadoop's DefaultSpeculator at speculation #"
          + (i + 1) + " (task@ms after job start):\n  Hadoop:  " + hadoop + "\n  sidecar: " + ours
          + "\n  sidecar log: " + sidecar.log);
    }
  }

  // ---- the recording ----

  /** One recorded event (or one the driver derived from a speculation). */
  static final class Ev {
    static final int NEEDS = 0;
    static final int START = 1;
    static final int STATUS = 2;
    static final int SUCCEEDED = 3;
    static final int KILLED = 4;
    /** A copy's container request withdrawn before it started: the attempt is KILLED in the AM, unknown to the shim. */
    static final int WITHDRAWN = 5;

    final long t;
    final int kind;
    final TaskId task; // for NEEDS: any task of the type
    final int attempt;
    final float progress;
    final int delta;
    long seq;

    Ev(long t, int kind, TaskId task, int attempt, float progress, int delta) {
      this.t = t;
      this.kind = kind;
      this.task = task;
      this.attempt = attempt;
      this.progress = progress;
      this.delta = delta;
    }

    TaskAttemptId attemptId() {
      return Wire.parseAttemptId(Wire.taskId(task).replace("task_", "attempt_") + "_" + attempt);
    }
  }

  static final class Fixture {
    JobId job;
    long start;
    int maps;
    int reduces;
    long end;
    long copyDelay;
    long slack;
    long retryNoSpeculate;
    long retrySpeculate;
    final Map<String, String> params = new LinkedHashMap<String, String>();
    final List<Ev> events = new ArrayList<Ev>();

    static Fixture load(String resource) throws Exception {
      JsonNode n;
      try (InputStream in = HadoopPolicyConformanceTest.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException("missing test resource " + resource);
        }
        n = JSON.readTree(in);
      }
      Fixture f = new Fixture();
      String job = n.path("job").asText();
      f.job = Wire.parseTaskId(job.replace("job_", "task_") + "_m_000000").getJobId();
      f.start = n.path("start").asLong();
      f.maps = n.path("maps").asInt();
      f.reduces = n.path("reduces").asInt();
      f.end = n.path("end_ms").asLong();
      f.copyDelay = n.path("copy_start_delay_ms").asLong();
      f.slack = n.path("scan_slack_ms").asLong();
      Iterator<Map.Entry<String, JsonNode>> it = n.path("params").fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        f.params.put(e.getKey(), e.getValue().asText());
      }
      f.retryNoSpeculate = Long.parseLong(f.params.get("mapreduce.job.speculative.retry-after-no-speculate"));
      f.retrySpeculate = Long.parseLong(f.params.get("mapreduce.job.speculative.retry-after-speculate"));
      for (JsonNode e : n.path("events")) {
        String kind = e.path("kind").asText();
        long t = e.path("t").asLong();
        if ("needs".equals(kind)) {
          f.events.add(new Ev(t, Ev.NEEDS, f.task("map".equals(e.path("type").asText()) ? "m_000000" : "r_000000"), 0, 0,
              e.path("delta").asInt()));
          continue;
        }
        TaskId task = f.task(e.path("task").asText());
        if ("start".equals(kind)) {
          f.events.add(new Ev(t, Ev.START, task, 0, 0, 0));
        } else if ("status".equals(kind)) {
          f.events.add(new Ev(t, Ev.STATUS, task, 0, (float) e.path("progress").asDouble(), 0));
        } else if ("succeeded".equals(kind)) {
          f.events.add(new Ev(t, Ev.SUCCEEDED, task, 0, 1f, 0));
        } else {
          throw new IllegalArgumentException(resource + ": unknown event kind " + kind);
        }
      }
      return f;
    }

    TaskId task(String shortId) {
      return Wire.parseTaskId(Wire.jobId(job).replace("job_", "task_") + "_" + shortId);
    }
  }

  /** A speculation: the task, at the scan at ms after the job start. */
  static final class Speculation {
    final long at;
    final String task;

    Speculation(long at, String task) {
      this.at = at;
      this.task = task;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Speculation && ((Speculation) o).at == at && ((Speculation) o).task.equals(task);
    }

    @Override
    public int hashCode() {
      return task.hashCode() * 31 + (int) at;
    }

    @Override
    public String toString() {
      return task.substring(task.length() - 8) + "@" + at;
    }
  }

  // ---- the driver: DefaultSpeculator's thread and TaskImpl's response to a speculation ----

  /** What the driver needs of Hadoop's speculator or of the sidecar. */
  interface Side {
    void apply(Ev e) throws Exception;

    /** A scan at t (ms after the job start); the tasks speculated, in order. */
    List<TaskId> scan(long t) throws Exception;

    /** A moment between scans at which the side must not speculate; what it speculated anyway. */
    List<TaskId> between(long t) throws Exception;
  }

  static final class Driver {
    private final Fixture f;
    private final Side side;
    private long seq;
    private final PriorityQueue<Ev> queue = new PriorityQueue<Ev>(64, (a, b) -> a.t != b.t ? Long.compare(a.t, b.t)
        : a.seq != b.seq ? Long.compare(a.seq, b.seq) : 0);
    /** Copies by task: the pending start event until it starts, then the attempt number. */
    private final Map<TaskId, Ev> pendingCopies = new HashMap<TaskId, Ev>();
    private final Map<TaskId, Integer> runningCopies = new HashMap<TaskId, Integer>();

    Driver(Fixture f, Side side) {
      this.f = f;
      this.side = side;
      for (Ev e : f.events) {
        add(e);
      }
    }

    private void add(Ev e) {
      e.seq = seq++;
      queue.add(e);
    }

    List<Speculation> run() throws Exception {
      List<Speculation> out = new ArrayList<Speculation>();
      long scanAt = 0;
      long last = Long.MIN_VALUE;
      while (scanAt <= f.end) {
        if (last != Long.MIN_VALUE) {
          for (long t = last + TICK_MS; t < scanAt - f.slack; t += TICK_MS) {
            deliver(t);
            for (TaskId task : side.between(t)) {
              out.add(new Speculation(t, Wire.taskId(task) + " (between scans)"));
            }
          }
        }
        deliver(scanAt);
        List<TaskId> speculated = side.scan(scanAt);
        for (TaskId task : speculated) {
          out.add(new Speculation(scanAt, Wire.taskId(task)));
          copy(task, scanAt);
        }
        last = scanAt;
        scanAt += (speculated.isEmpty() ? f.retryNoSpeculate : f.retrySpeculate) + f.slack;
      }
      return out;
    }

    private void deliver(long upTo) throws Exception {
      while (!queue.isEmpty() && queue.peek().t <= upTo) {
        Ev e = queue.poll();
        if (e.kind == Ev.START && e.attempt > 0) {
          if (pendingCopies.get(e.task) != e) {
            continue; // withdrawn: the original succeeded first
          }
          pendingCopies.remove(e.task);
          runningCopies.put(e.task, e.attempt);
          side.apply(new Ev(e.t, Ev.NEEDS, e.task, 0, 0, -1));
        }
        side.apply(e);
        if (e.kind == Ev.SUCCEEDED) {
          if (pendingCopies.remove(e.task) != null) {
            side.apply(new Ev(e.t, Ev.WITHDRAWN, e.task, 1, 0, 0));
            side.apply(new Ev(e.t, Ev.NEEDS, e.task, 0, 0, -1));
          }
          Integer copy = runningCopies.remove(e.task);
          if (copy != null) {
            side.apply(new Ev(e.t, Ev.KILLED, e.task, copy, 0, 0));
          }
        }
      }
    }

    /** TaskImpl's T_ADD_SPEC_ATTEMPT: a copy asks for a container now and starts once it has one. */
    private void copy(TaskId task, long at) throws Exception {
      if (pendingCopies.containsKey(task) || runningCopies.containsKey(task)) {
        throw new AssertionError("speculated " + Wire.taskId(task) + " again while its copy is pending or running");
      }
      side.apply(new Ev(at, Ev.NEEDS, task, 0, 0, +1));
      Ev start = new Ev(at + f.copyDelay, Ev.START, task, 1, 0, 0);
      pendingCopies.put(task, start);
      add(start);
    }
  }

  // ---- Hadoop's side: the real DefaultSpeculator over a mock AppContext ----

  static final class MockAttempt {
    final TaskAttemptId id;
    TaskAttemptState state;
    float progress;

    MockAttempt(TaskAttemptId id, TaskAttemptState state) {
      this.id = id;
      this.state = state;
    }
  }

  static final class MockTask {
    final TaskId id;
    final Map<TaskAttemptId, MockAttempt> attempts = new LinkedHashMap<TaskAttemptId, MockAttempt>();
    final Map<TaskAttemptId, TaskAttempt> views = new LinkedHashMap<TaskAttemptId, TaskAttempt>();
    TaskState state = TaskState.SCHEDULED;

    MockTask(TaskId id) {
      this.id = id;
    }

    MockAttempt attempt(TaskAttemptId a, TaskAttemptState initial) {
      MockAttempt m = attempts.get(a);
      if (m == null) {
        m = new MockAttempt(a, initial);
        attempts.put(a, m);
        views.put(a, proxy(TaskAttempt.class, attemptView(m)));
      }
      return m;
    }
  }

  /** Answers the TaskAttempt methods DefaultSpeculator and its estimator call. */
  static View attemptView(MockAttempt a) {
    return new View("AttemptView")
        .on("getID", args -> a.id)
        .on("getState", args -> a.state)
        .on("getProgress", args -> a.progress);
  }

  static View taskView(MockTask t) {
    return new View("TaskView")
        .on("getID", args -> t.id)
        .on("getType", args -> t.id.getTaskType())
        .on("getAttempts", args -> Collections.unmodifiableMap(t.views))
        .on("getAttempt", args -> t.views.get(args[0]))
        .on("getState", args -> t.state)
        .on("isFinished", args -> t.state == TaskState.SUCCEEDED);
  }

  static final class JobView extends View {
    final Fixture f;
    final Map<TaskType, Map<TaskId, Task>> tasks = new HashMap<TaskType, Map<TaskId, Task>>();
    final Map<TaskId, MockTask> mocks = new HashMap<TaskId, MockTask>();
    final int[] completed = new int[2];

    JobView(Fixture f) {
      super("JobView");
      this.f = f;
      add(TaskType.MAP, f.maps, "m_");
      add(TaskType.REDUCE, f.reduces, "r_");
      on("getID", args -> f.job);
      on("getTask", args -> {
        TaskId id = (TaskId) args[0];
        return tasks.get(id.getTaskType()).get(id);
      });
      on("getTasks", args -> {
        if (args == null || args.length == 0) {
          Map<TaskId, Task> all = new LinkedHashMap<TaskId, Task>(tasks.get(TaskType.MAP));
          all.putAll(tasks.get(TaskType.REDUCE));
          return all;
        }
        return Collections.unmodifiableMap(tasks.get((TaskType) args[0]));
      });
      on("getTotalMaps", args -> f.maps);
      on("getTotalReduces", args -> f.reduces);
      on("getCompletedMaps", args -> completed[0]);
      on("getCompletedReduces", args -> completed[1]);
    }

    private void add(TaskType type, int n, String prefix) {
      // Index order: the Go policy breaks ties by the lowest index, so the fixture avoids ties and the mock
      // lists tasks in that order.
      Map<TaskId, Task> m = new LinkedHashMap<TaskId, Task>();
      for (int i = 0; i < n; i++) {
        MockTask t = new MockTask(f.task(prefix + String.format("%06d", i)));
        mocks.put(t.id, t);
        m.put(t.id, proxy(Task.class, taskView(t)));
      }
      tasks.put(type, m);
    }
  }

  static View contextView(Job job, JobId id, ControlledClock clock, EventHandler<Event> events) {
    return new View("ContextView")
        .on("getJob", args -> id.equals(args[0]) ? job : null)
        .on("getAllJobs", args -> Collections.singletonMap(id, job))
        .on("getClock", args -> clock)
        .on("getEventHandler", args -> events);
  }

  /**
   * A java.lang.reflect.Proxy handler for the few methods of Hadoop's interfaces the speculator uses: each
   * answers from a table of method names (whatever the arguments); any other method throws.
   */
  static class View implements InvocationHandler {
    private final String name;
    private final Map<String, Function<Object[], Object>> answers = new HashMap<String, Function<Object[], Object>>();

    View(String name) {
      this.name = name;
    }

    /** Answers method with answer, given the call's arguments. */
    View on(String method, Function<Object[], Object> answer) {
      answers.put(method, answer);
      return this;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
      String m = method.getName();
      if ("equals".equals(m) && args != null && args.length == 1) {
        return proxy == args[0];
      } else if ("hashCode".equals(m) && (args == null || args.length == 0)) {
        return System.identityHashCode(proxy);
      } else if ("toString".equals(m) && (args == null || args.length == 0)) {
        return name;
      }
      Function<Object[], Object> answer = answers.get(m);
      if (answer == null) {
        throw new UnsupportedOperationException(method + " is not mocked by HadoopPolicyConformanceTest");
      }
      return answer.apply(args);
    }
  }

  static <T> T proxy(Class<T> type, InvocationHandler h) {
    return type.cast(Proxy.newProxyInstance(HadoopPolicyConformanceTest.class.getClassLoader(), new Class<?>[] {type}, h));
  }

  /** Hadoop's DefaultSpeculator with LegacyTaskRuntimeEstimator, scanned by the driver. */
  static final class HadoopSide implements Side {
    final Fixture f;
    final ControlledClock clock = new ControlledClock();
    final JobView job;
    final Reference speculator;
    final Method computeSpeculations;

    HadoopSide(Fixture f) throws Exception {
      this.f = f;
      this.job = new JobView(f);
      clock.setTime(f.start);
      Job jobProxy = proxy(Job.class, job);
      EventHandler<Event> ignore = new EventHandler<Event>() {
        @Override
        public void handle(Event event) {
          // T_ADD_SPEC_ATTEMPT: the driver plays TaskImpl (see Reference.addSpeculativeAttempt).
        }
      };
      AppContext context = proxy(AppContext.class, contextView(jobProxy, f.job, clock, ignore));
      Configuration conf = new Configuration(false);
      for (Map.Entry<String, String> e : f.params.entrySet()) {
        conf.set(e.getKey(), e.getValue());
      }
      conf.setClass("yarn.app.mapreduce.am.job.task.estimator.class", LegacyTaskRuntimeEstimator.class,
          TaskRuntimeEstimator.class);
      speculator = new Reference(conf, context, clock, job);
      speculator.init(conf); // no start: the driver is the background thread
      computeSpeculations = DefaultSpeculator.class.getDeclaredMethod("computeSpeculations");
      computeSpeculations.setAccessible(true);
      speculator.handle(new SpeculatorEvent(f.job, f.start));
    }

    @Override
    public void apply(Ev e) {
      long at = f.start + e.t;
      clock.setTime(Math.max(clock.getTime(), at));
      MockTask task = job.mocks.get(e.task);
      switch (e.kind) {
        case Ev.NEEDS:
          speculator.handle(new SpeculatorEvent(e.task, e.delta));
          return;
        case Ev.START: {
          MockAttempt a = task.attempt(e.attemptId(), TaskAttemptState.RUNNING);
          a.state = TaskAttemptState.RUNNING;
          task.state = TaskState.RUNNING;
          speculator.handle(new SpeculatorEvent(a.id, true, at));
          return;
        }
        case Ev.STATUS: {
          MockAttempt a = task.attempts.get(e.attemptId());
          a.progress = e.progress;
          speculator.handle(new SpeculatorEvent(status(a, e.task), at));
          return;
        }
        case Ev.SUCCEEDED: {
          MockAttempt a = task.attempts.get(e.attemptId());
          a.state = TaskAttemptState.SUCCEEDED;
          a.progress = 1f;
          task.state = TaskState.SUCCEEDED;
          job.completed[e.task.getTaskType() == TaskType.MAP ? 0 : 1]++;
          speculator.handle(new SpeculatorEvent(status(a, e.task), at));
          return;
        }
        case Ev.KILLED:
        case Ev.WITHDRAWN:
          task.attempts.get(e.attemptId()).state = TaskAttemptState.KILLED;
          return;
        default:
          throw new IllegalArgumentException("kind " + e.kind);
      }
    }

    private static TaskAttemptStatus status(MockAttempt a, TaskId task) {
      TaskAttemptStatus s = new TaskAttemptStatus();
      s.id = a.id;
      s.progress = a.progress;
      s.taskState = a.state;
      s.phase = task.getTaskType() == TaskType.MAP ? Phase.MAP : Phase.REDUCE;
      return s;
    }

    @Override
    public List<TaskId> scan(long t) throws Exception {
      clock.setTime(f.start + t);
      speculator.speculated.clear();
      try {
        computeSpeculations.invoke(speculator);
      } catch (InvocationTargetException e) {
        throw new AssertionError("DefaultSpeculator.computeSpeculations failed at " + t + " ms", e.getCause());
      }
      return new ArrayList<TaskId>(speculator.speculated);
    }

    @Override
    public List<TaskId> between(long t) {
      return Collections.emptyList(); // the thread sleeps
    }
  }

  /** DefaultSpeculator, recording its speculations and adding the copy attempt as TaskImpl does (STARTING). */
  static final class Reference extends DefaultSpeculator {
    final List<TaskId> speculated = new ArrayList<TaskId>();
    final JobView job;

    Reference(Configuration conf, AppContext context, ControlledClock clock, JobView job) {
      super(conf, context, clock);
      this.job = job;
    }

    @Override
    protected void addSpeculativeAttempt(TaskId taskID) {
      speculated.add(taskID);
      MockTask t = job.mocks.get(taskID);
      t.attempt(Wire.parseAttemptId(Wire.taskId(taskID).replace("task_", "attempt_") + "_" + t.attempts.size()),
          TaskAttemptState.STARTING);
      super.addSpeculativeAttempt(taskID);
    }
  }

  // ---- the sidecar's side: the shim's frames over a real websocket ----

  static final class SidecarSide implements Side, AutoCloseable {
    final Fixture f;
    final SidecarSocket socket;
    final LinkedBlockingQueue<JsonNode> frames = new LinkedBlockingQueue<JsonNode>();
    final int[] needs = new int[2];
    ArrayNode pending = Wire.NODES.arrayNode();
    long seq;
    long nonce;

    SidecarSide(Fixture f, Sidecar sidecar) throws Exception {
      this.f = f;
      socket = new SidecarSocket(new URI(sidecar.url), 10000, new SidecarSocket.Listener() {
        @Override
        public void opened(SidecarSocket s) {
        }

        @Override
        public void frame(SidecarSocket s, String text) {
          try {
            frames.add(JSON.readTree(text));
          } catch (Exception e) {
            frames.add(Wire.NODES.objectNode().put("type", "unreadable").put("text", text));
          }
        }

        @Override
        public void closed(SidecarSocket s, int code, String reason) {
          frames.add(Wire.NODES.objectNode().put("type", "closed").put("text", code + " " + reason));
        }
      });
      socket.setTcpNoDelay(true); // one small frame and a ping per step: no Nagle delays
      assertTrue(socket.connectBlocking(10, TimeUnit.SECONDS), "could not connect to " + sidecar.url);
      ObjectNode hello = frame("hello", f.start);
      hello.put("version", Wire.VERSION);
      hello.put("token", Sidecar.TOKEN);
      hello.put("job", Wire.jobId(f.job));
      hello.put("user", "conformance");
      hello.put("queue", "default");
      hello.put("speculator", "hadoop");
      ObjectNode params = hello.putObject("params");
      for (Map.Entry<String, String> e : f.params.entrySet()) {
        params.put(e.getKey(), e.getValue());
      }
      hello.put("maps", f.maps);
      hello.put("reduces", f.reduces);
      hello.put("start", f.start);
      send(hello);
      JsonNode welcome = next();
      if (!"welcome".equals(welcome.path("type").asText())) {
        throw new AssertionError("the sidecar answered the hello with " + welcome);
      }
    }

    private static ObjectNode frame(String type, long now) {
      ObjectNode n = Wire.NODES.objectNode();
      n.put("type", type);
      n.put("now", now);
      return n;
    }

    private void send(ObjectNode frame) throws Exception {
      socket.send(JSON.writeValueAsString(frame));
    }

    private JsonNode next() throws InterruptedException {
      JsonNode n = frames.poll(10, TimeUnit.SECONDS);
      if (n == null) {
        throw new AssertionError("the sidecar sent nothing for 10 s");
      }
      return n;
    }

    @Override
    public void apply(Ev e) {
      if (e.kind == Ev.WITHDRAWN) {
        return; // the shim only hears of attempts that started
      }
      long at = f.start + e.t;
      ObjectNode n = pending.addObject();
      n.put("time", at);
      TaskType type = e.task.getTaskType();
      switch (e.kind) {
        case Ev.NEEDS: {
          int i = type == TaskType.MAP ? 0 : 1;
          needs[i] = Math.max(0, needs[i] + e.delta);
          n.put("kind", "container-needs");
          n.put("task_type", i == 0 ? "map" : "reduce");
          n.put("count", needs[i]);
          return;
        }
        case Ev.START:
          n.put("kind", "attempt-started");
          n.put("attempt", Wire.attemptId(e.attemptId()));
          n.put("node", "node-" + e.task.getId() % 10);
          n.put("speculative", e.attempt > 0);
          return;
        case Ev.STATUS:
          n.put("kind", "attempt-status");
          n.put("attempt", Wire.attemptId(e.attemptId()));
          // As the shim does: the float Hadoop reports, written by Jackson.
          n.put("progress", Math.max(0f, Math.min(1f, e.progress)));
          n.put("phase", Wire.phase(type == TaskType.MAP ? Phase.MAP : Phase.REDUCE, type));
          n.set("counters", Wire.NODES.objectNode());
          return;
        case Ev.SUCCEEDED:
          n.put("kind", "attempt-succeeded");
          n.put("attempt", Wire.attemptId(e.attemptId()));
          return;
        case Ev.KILLED:
          n.put("kind", "attempt-killed");
          n.put("attempt", Wire.attemptId(e.attemptId()));
          return;
        default:
          throw new IllegalArgumentException("kind " + e.kind);
      }
    }

    /** Sends the pending events with now = t, then a ping, and returns what was decided before the pong. */
    private List<TaskId> flush(long t) throws Exception {
      long now = f.start + t;
      ObjectNode events = frame("events", now);
      events.put("seq", ++seq);
      events.set("events", pending);
      pending = Wire.NODES.arrayNode();
      send(events);
      ObjectNode ping = frame("ping", now);
      ping.put("nonce", ++nonce);
      send(ping);
      List<TaskId> out = new ArrayList<TaskId>();
      while (true) {
        JsonNode n = next();
        String type = n.path("type").asText();
        if ("pong".equals(type) && n.path("nonce").asLong() == nonce) {
          return out;
        } else if ("decisions".equals(type)) {
          long time = n.path("time").asLong();
          if (time < now || time >= now + f.slack) {
            throw new AssertionError("decisions at " + (time - f.start) + " ms for a frame at " + t
                + " ms: the sidecar's clock estimate is off by more than the scan slack");
          }
          ObjectNode ack = frame("ack", now);
          ArrayNode acks = ack.putArray("acks");
          for (JsonNode d : n.path("decisions")) {
            if (!"speculate".equals(d.path("kind").asText()) || d.path("copies").asInt(1) != 1) {
              throw new AssertionError("the hadoop policy decided something Hadoop never does: " + d);
            }
            out.add(Wire.parseTaskId(d.path("task").asText()));
            acks.addObject().put("id", d.path("id").asLong()).put("result", "applied");
          }
          send(ack);
        } else if ("error".equals(type) || "closed".equals(type) || "unreadable".equals(type)) {
          throw new AssertionError("the sidecar answered the frame at " + t + " ms with " + n);
        }
      }
    }

    @Override
    public List<TaskId> scan(long t) throws Exception {
      return flush(t);
    }

    @Override
    public List<TaskId> between(long t) throws Exception {
      return flush(t);
    }

    @Override
    public void close() {
      socket.close();
    }
  }
}
