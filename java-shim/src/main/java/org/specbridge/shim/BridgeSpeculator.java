package org.specbridge.shim;

import java.lang.reflect.Method;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.split.JobSplit;
import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.speculate.Speculator;
import org.apache.hadoop.mapreduce.v2.app.speculate.SpeculatorEvent;
import org.apache.hadoop.service.AbstractService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The Speculator MRAppMaster loads through {@code yarn.app.mapreduce.am.job.speculator.class}: it forwards the
 * AM's speculator events to the specbridge sidecar and applies the sidecar's decisions, and fails open to
 * Hadoop's DefaultSpeculator when the sidecar is unreachable, refuses the token, or stops answering.
 *
 * <p>Threads: {@link #handle} runs on the AM's dispatcher thread and only feeds the fallback and offers the
 * event to a bounded queue, never blocking. A worker thread batches, enriches from the AppContext, sends,
 * pings, watches health and reconnects. Decisions are applied on the socket's thread (AppContext reads and
 * eventHandler.handle are thread-safe).
 */
public class BridgeSpeculator extends AbstractService implements Speculator {
  static final Logger LOG = LoggerFactory.getLogger(BridgeSpeculator.class);
  private static final int QUEUE_CAPACITY = 100000;

  private final Configuration conf;
  private final AppContext context;
  private final ShimConfig settings;
  private final FallbackSpeculator fallback;
  private final ObjectMapper json = new ObjectMapper();
  private final LinkedBlockingQueue<SpeculatorEvent> queue = new LinkedBlockingQueue<SpeculatorEvent>(QUEUE_CAPACITY);
  private final Set<TaskId> pendingSpeculation = Collections.newSetFromMap(new ConcurrentHashMap<TaskId, Boolean>());
  private final DecisionApplier applier;

  // Owned by the worker thread.
  private final Map<TaskAttemptId, Boolean> liveAttempts = new HashMap<TaskAttemptId, Boolean>();
  private final Map<TaskAttemptId, Boolean> succeededMaps = new HashMap<TaskAttemptId, Boolean>();
  private final int[] containerNeeds = new int[2];
  private long nextPing;
  private long nextConnect;
  private long pingNonce;
  private long seq;

  private volatile JobId jobId;
  private volatile SidecarSocket socket;
  private volatile boolean sidecarInCharge;
  private volatile boolean stopped;
  private volatile boolean overflowed;
  private volatile String lastUnhealthyReason = "not connected yet";
  private Thread worker;

  final AtomicInteger applied = new AtomicInteger();
  final AtomicInteger refused = new AtomicInteger();
  final AtomicLong dropped = new AtomicLong();
  final AtomicInteger handovers = new AtomicInteger();
  final AtomicLong fallbackErrors = new AtomicLong();
  final AtomicLong eventsSent = new AtomicLong();

  public BridgeSpeculator(Configuration conf, AppContext context) {
    super(BridgeSpeculator.class.getName());
    this.conf = conf;
    this.context = context;
    ShimConfig s;
    try {
      s = ShimConfig.from(conf);
    } catch (IllegalArgumentException e) {
      LOG.error("specbridge: bad configuration, running Hadoop's DefaultSpeculator only: " + e.getMessage());
      s = ShimConfig.from(new Configuration(false));
    }
    this.settings = s;
    int mapFailuresMaxPercent = mapFailuresMaxPercent(conf);
    this.applier = new DecisionApplier(context, pendingSpeculation, mapFailuresMaxPercent);
    String warning = s.approximationWarning(conf.getInt(MRJobConfig.NUM_REDUCES, 1), mapFailuresMaxPercent);
    if (warning != null && s.sidecarConfigured()) {
      LOG.warn(warning);
    }
    FallbackSpeculator.Gate gate = new FallbackSpeculator.Gate() {
      @Override
      public boolean sidecarInCharge() {
        return sidecarInCharge;
      }

      @Override
      public boolean claimSpeculation(TaskId task) {
        return pendingSpeculation.add(task);
      }
    };
    this.fallback = s.fallbackEnabled ? new FallbackSpeculator(conf, context, gate) : null;
  }

  /** The job's mapreduce.map.failures.maxpercent as JobImpl reads it (default 0); 0 when unreadable. */
  private static int mapFailuresMaxPercent(Configuration conf) {
    try {
      return conf.getInt(MRJobConfig.MAP_FAILURES_MAX_PERCENT, 0);
    } catch (NumberFormatException e) {
      LOG.warn("specbridge: " + MRJobConfig.MAP_FAILURES_MAX_PERCENT + " is not a whole number: " + e.getMessage());
      return 0;
    }
  }

  @Override
  protected void serviceInit(Configuration c) throws Exception {
    if (fallback != null) {
      fallback.init(c);
    }
    super.serviceInit(c);
  }

  @Override
  protected void serviceStart() throws Exception {
    if (fallback != null) {
      fallback.start();
    }
    if (settings.sidecarConfigured()) {
      worker = new Thread(new Runnable() {
        @Override
        public void run() {
          work();
        }
      }, "specbridge shim");
      worker.setDaemon(true);
      worker.start();
      LOG.info("specbridge: speculator " + settings.speculator + " at " + settings.url + ", fallback "
          + (fallback != null ? "on" : "off") + ", timeout " + settings.timeoutMs + " ms"
          + (settings.approximate() ? ", approximation job: deadline " + settings.deadlineMs + " ms, error bound "
              + settings.errorBound : ""));
    } else {
      LOG.warn("specbridge: " + ShimConfig.URL + " is not set; Hadoop's DefaultSpeculator decides alone");
    }
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    stopped = true;
    if (worker != null) {
      worker.interrupt();
      worker.join(5000);
    }
    SidecarSocket s = socket;
    if (s != null) {
      s.close();
    }
    if (fallback != null) {
      fallback.stop();
    }
    super.serviceStop();
  }

  /** Called on the AM's dispatcher thread: never blocks. */
  @Override
  public void handle(SpeculatorEvent event) {
    if (fallback != null) {
      try {
        fallback.handle(event);
      } catch (RuntimeException e) {
        // DefaultSpeculator throws on a status event whose attempt id is not yet set (Hadoop's MRApp
        // harness produces them); the shim must never take the dispatcher down with it.
        if (fallbackErrors.getAndIncrement() == 0) {
          LOG.warn("specbridge: the fallback speculator failed on " + event.getType() + "; skipping such events", e);
        }
      }
    }
    if (settings.sidecarConfigured() && !queue.offer(event)) {
      dropped.incrementAndGet();
      overflowed = true;
    }
  }

  @Override
  public void handleAttempt(TaskAttemptStatus status) {
    if (fallback != null) {
      fallback.handleAttempt(status);
    }
  }

  /** True while the sidecar, not the fallback, decides. */
  public boolean sidecarInCharge() {
    return sidecarInCharge;
  }

  public int appliedDecisions() {
    return applied.get();
  }

  public int refusedDecisions() {
    return refused.get();
  }

  public int fallbackLaunches() {
    return fallback == null ? 0 : fallback.launched.get();
  }

  // ---- worker thread ----

  private void work() {
    List<SpeculatorEvent> drained = new ArrayList<SpeculatorEvent>();
    long wait = Math.max(10, Math.min(settings.batchMs, settings.pingMs));
    while (!stopped) {
      try {
        SpeculatorEvent first = queue.poll(wait, TimeUnit.MILLISECONDS);
        if (first != null) {
          drained.add(first);
          queue.drainTo(drained, settings.batchMax - 1);
        }
        step(drained);
      } catch (InterruptedException e) {
        if (!stopped) {
          LOG.warn("specbridge: worker interrupted", e);
        }
        return;
      } catch (RuntimeException e) {
        // Nothing here may take the AM down: log, drop the connection, carry on with the fallback.
        LOG.error("specbridge: worker error; reconnecting", e);
        SidecarSocket s = socket;
        if (s != null) {
          s.close();
        }
      } finally {
        drained.clear();
      }
    }
  }

  private void step(List<SpeculatorEvent> drained) {
    long wall = System.currentTimeMillis();
    ArrayNode events = Wire.NODES.arrayNode();
    for (SpeculatorEvent ev : drained) {
      translate(ev, events);
    }
    scanEnded(events);
    SidecarSocket s = socket;
    if (jobId != null && (s == null || s.gone) && wall >= nextConnect) {
      nextConnect = wall + settings.reconnectMs;
      connect();
      s = socket;
    }
    if (s != null && s.welcomed && !s.resynced && !s.gone) {
      sendResync(s);
      events = Wire.NODES.arrayNode(); // the snapshot holds them
    }
    if (overflowed && s != null && s.ready()) {
      overflowed = false;
      LOG.warn("specbridge: event queue overflowed (" + dropped.get() + " dropped); resyncing");
      s.resynced = false;
    }
    if (s != null && s.ready() && events.size() > 0) {
      ObjectNode f = frame("events");
      f.put("seq", ++seq);
      f.set("events", events);
      send(s, f);
      eventsSent.addAndGet(events.size());
    }
    if (s != null && s.welcomed && s.isOpen() && wall >= nextPing) {
      nextPing = wall + settings.pingMs;
      ObjectNode f = frame("ping");
      f.put("nonce", ++pingNonce);
      send(s, f);
    }
    checkHealth(s, wall);
  }

  private void checkHealth(SidecarSocket s, long wall) {
    boolean healthy;
    String reason;
    if (s == null || s.gone) {
      healthy = false;
      reason = lastUnhealthyReason;
    } else if (wall - s.lastHeard.get() > settings.timeoutMs) {
      healthy = false;
      reason = "no frame from the sidecar for " + (wall - s.lastHeard.get()) + " ms";
      s.close();
    } else {
      healthy = s.ready();
      reason = "handshake not complete";
    }
    if (healthy != sidecarInCharge) {
      sidecarInCharge = healthy;
      if (healthy) {
        LOG.info("specbridge: sidecar " + settings.url + " is in charge of speculation");
      } else {
        handovers.incrementAndGet();
        LOG.warn("specbridge: sidecar unhealthy (" + reason + "); "
            + (fallback != null ? "Hadoop's DefaultSpeculator takes over" : "no speculation until it is back"));
        if (fallback != null) {
          fallback.scanForSpeculations();
        }
      }
    }
  }

  private void connect() {
    try {
      SidecarSocket s = new SidecarSocket(new URI(settings.url), (int) Math.min(settings.timeoutMs, Integer.MAX_VALUE),
          new SidecarSocket.Listener() {
            @Override
            public void opened(SidecarSocket socket) {
              send(socket, hello());
            }

            @Override
            public void frame(SidecarSocket socket, String text) {
              onFrame(socket, text);
            }

            @Override
            public void closed(SidecarSocket socket, int code, String reason) {
              String why = "connection closed (" + code + (reason == null || reason.isEmpty() ? "" : ": " + reason) + ")";
              // Log the first failure after a working session; repeated refusals while reconnecting at debug.
              if (socket.welcomed || !why.equals(lastUnhealthyReason)) {
                LOG.info("specbridge: " + why);
              } else {
                LOG.debug("specbridge: " + why);
              }
              lastUnhealthyReason = why;
            }
          });
      socket = s;
      s.connect();
    } catch (Exception e) {
      lastUnhealthyReason = "cannot connect: " + e;
      LOG.warn("specbridge: cannot connect to " + settings.url + ": " + e);
    }
  }

  private ObjectNode frame(String type) {
    ObjectNode f = Wire.NODES.objectNode();
    f.put("type", type);
    f.put("now", context.getClock().getTime());
    return f;
  }

  private void send(SidecarSocket s, ObjectNode f) {
    try {
      s.send(json.writeValueAsString(f));
    } catch (Exception e) {
      LOG.debug("specbridge: send failed", e);
    }
  }

  private ObjectNode hello() {
    ObjectNode h = frame("hello");
    h.put("version", Wire.VERSION);
    h.put("token", settings.token);
    JobId id = jobId;
    h.put("job", Wire.jobId(id));
    Job job = context.getJob(id);
    if (job != null) {
      h.put("user", job.getUserName());
      h.put("queue", job.getQueueName());
      h.put("maps", job.getTotalMaps());
      h.put("reduces", job.getTotalReduces());
      long[] sizes = mapInputBytes(job);
      if (sizes != null) {
        ArrayNode a = h.putArray("map_input_bytes");
        for (long b : sizes) {
          a.add(b);
        }
      }
    }
    // "slots" (PROTOCOL.md, hello) stays 0, unknown: the AM learns the cluster's capacity only as the RM's
    // headroom for this application, inside RMContainerAllocator, which the AppContext does not expose
    // (ClusterInfo holds only the largest container), and that headroom moves with every other queue's
    // load. The policies that use slots say what they do without (LATE's cap counts running attempts, GRASS
    // takes one free slot per Decide, as one allocator heartbeat would give).
    h.put("speculator", settings.speculator);
    ObjectNode params = h.putObject("params");
    for (Map.Entry<String, String> e : settings.params.entrySet()) {
      params.put(e.getKey(), e.getValue());
    }
    long start = context.getStartTime();
    h.put("start", start);
    // Approximation bounds (PROTOCOL.md, hello): the deadline is absolute on the AM's clock.
    if (settings.deadlineMs > 0) {
      h.put("deadline", start + settings.deadlineMs);
    }
    if (settings.errorBound > 0) {
      h.put("error_bound", settings.errorBound);
    }
    return h;
  }

  private static volatile Method splitInfoGetter;

  /**
   * Each map's input split size in bytes ({@code TaskSplitMetaInfo.getInputDataLength}, what JobImpl read from
   * the job's split meta info), by task index, or null when it cannot be read. Hadoop keeps it in
   * {@code MapTaskImpl} behind a protected getter and offers it nowhere public in the AM, so it is read by
   * reflection (present in Hadoop 3.4 and 3.5); on any failure the hello simply carries no sizes and the
   * policies estimate t_new without normalising by input, as before.
   */
  static long[] mapInputBytes(Job job) {
    int n = job.getTotalMaps();
    Map<TaskId, Task> maps = job.getTasks(TaskType.MAP);
    if (n <= 0 || maps == null || maps.size() != n) {
      return null;
    }
    long[] out = new long[n];
    boolean[] seen = new boolean[n];
    try {
      for (Task t : maps.values()) {
        int i = t.getID().getId();
        if (i < 0 || i >= n || seen[i]) {
          return null;
        }
        Method m = splitInfoGetter;
        if (m == null) {
          m = findMethod(t.getClass(), "getTaskSplitMetaInfo");
          if (m == null) {
            return null;
          }
          m.setAccessible(true);
          splitInfoGetter = m;
        }
        Object info = m.invoke(t);
        if (!(info instanceof JobSplit.TaskSplitMetaInfo)) {
          return null;
        }
        out[i] = Math.max(0, ((JobSplit.TaskSplitMetaInfo) info).getInputDataLength());
        seen[i] = true;
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("specbridge: map input sizes not readable", e);
      return null;
    }
    return out;
  }

  private static Method findMethod(Class<?> c, String name) {
    for (; c != null; c = c.getSuperclass()) {
      try {
        return c.getDeclaredMethod(name);
      } catch (NoSuchMethodException e) {
        // look further up
      }
    }
    return null;
  }

  private void onFrame(SidecarSocket s, String text) {
    JsonNode f;
    try {
      f = json.readTree(text);
    } catch (Exception e) {
      LOG.warn("specbridge: unreadable frame from the sidecar: " + e.getMessage());
      return;
    }
    String type = f.path("type").asText();
    if ("welcome".equals(type)) {
      LOG.info("specbridge: session " + f.path("session").asText() + " with " + f.path("speculator").asText()
          + " " + f.path("params"));
      s.welcomed = true;
    } else if ("decisions".equals(type)) {
      onDecisions(s, f.path("decisions"));
    } else if ("error".equals(type)) {
      String line = "specbridge: sidecar error " + f.path("code").asText() + ": " + f.path("text").asText();
      if (f.path("fatal").asBoolean()) {
        lastUnhealthyReason = "sidecar said " + f.path("code").asText() + ": " + f.path("text").asText();
        LOG.warn(line);
      } else {
        LOG.debug(line);
      }
    } else if ("ping".equals(type)) {
      ObjectNode pong = frame("pong");
      pong.put("nonce", f.path("nonce").asLong());
      send(s, pong);
    }
  }

  private void onDecisions(SidecarSocket s, JsonNode decisions) {
    ObjectNode ack = frame("ack");
    ArrayNode acks = ack.putArray("acks");
    for (JsonNode d : decisions) {
      ObjectNode a = acks.addObject();
      a.put("id", d.path("id").asLong());
      String refusal = s == socket && s.ready()
          ? applier.apply(d.path("kind").asText(), d.path("task").asText(), d.path("attempt").asText(),
              Math.max(1, d.path("copies").asInt(1)), d.path("reason").asText())
          : "the sidecar is not in charge (fallback active)";
      if (refusal == null) {
        applied.incrementAndGet();
        a.put("result", "applied");
      } else {
        refused.incrementAndGet();
        a.put("result", "refused");
        a.put("reason", refusal);
        LOG.info("specbridge: refused decision " + d + ": " + refusal);
      }
    }
    send(s, ack);
  }

  // ---- events ----

  private void translate(SpeculatorEvent ev, ArrayNode out) {
    switch (ev.getType()) {
      case JOB_CREATE:
        if (jobId == null) {
          jobId = ev.getJobID();
        }
        return;
      case ATTEMPT_START: {
        TaskAttemptId id = ev.getReportedStatus() != null ? ev.getReportedStatus().id : null;
        if (id == null) {
          return;
        }
        noteJob(id.getTaskId().getJobId());
        pendingSpeculation.remove(id.getTaskId());
        TaskAttempt ta = attempt(id);
        ObjectNode e = out.addObject();
        e.put("kind", "attempt-started");
        e.put("time", ta != null && ta.getLaunchTime() > 0 ? ta.getLaunchTime() : ev.getTimestamp());
        e.put("attempt", Wire.attemptId(id));
        if (ta != null) {
          e.put("node", Wire.node(ta.getNodeId(), ta.getNodeHttpAddress(), settings.nodeHostPort));
          if (ta.getAssignedContainerID() != null) {
            e.put("container", ta.getAssignedContainerID().toString());
          }
        }
        e.put("speculative", hasOtherLiveAttempt(id));
        liveAttempts.put(id, Boolean.TRUE);
        return;
      }
      case ATTEMPT_STATUS_UPDATE: {
        TaskAttemptStatus st = ev.getReportedStatus();
        if (st == null || st.id == null) {
          return;
        }
        noteJob(st.id.getTaskId().getJobId());
        TaskType type = st.id.getTaskId().getTaskType();
        ObjectNode e = out.addObject();
        e.put("kind", "attempt-status");
        e.put("time", ev.getTimestamp());
        e.put("attempt", Wire.attemptId(st.id));
        e.put("progress", Math.max(0f, Math.min(1f, st.progress)));
        e.put("phase", Wire.phase(st.phase, type));
        e.set("counters", Wire.counters(st.counters, type));
        if (st.fetchFailedMaps != null && !st.fetchFailedMaps.isEmpty()) {
          e.set("fetch_failed_maps", Wire.fetchFailedMaps(st.fetchFailedMaps));
        }
        return;
      }
      case TASK_CONTAINER_NEED_UPDATE: {
        TaskId task = ev.getTaskID();
        if (task == null) {
          return;
        }
        noteJob(task.getJobId());
        int i = task.getTaskType() == TaskType.MAP ? 0 : 1;
        containerNeeds[i] = Math.max(0, containerNeeds[i] + ev.containersNeededChange());
        ObjectNode e = out.addObject();
        e.put("kind", "container-needs");
        e.put("time", ev.getTimestamp());
        e.put("task_type", i == 0 ? "map" : "reduce");
        e.put("count", containerNeeds[i]);
        return;
      }
      default:
    }
  }

  private void noteJob(JobId id) {
    if (jobId == null) {
      jobId = id;
    }
  }

  private TaskAttempt attempt(TaskAttemptId id) {
    Job job = context.getJob(id.getTaskId().getJobId());
    Task task = job == null ? null : job.getTask(id.getTaskId());
    return task == null ? null : task.getAttempt(id);
  }

  private boolean hasOtherLiveAttempt(TaskAttemptId id) {
    for (TaskAttemptId other : liveAttempts.keySet()) {
      if (!other.equals(id) && other.getTaskId().equals(id.getTaskId())) {
        return true;
      }
    }
    return false;
  }

  /** Hadoop sends no speculator event when an attempt ends; find the ends by looking. */
  private void scanEnded(ArrayNode out) {
    long now = context.getClock().getTime();
    for (Iterator<TaskAttemptId> it = liveAttempts.keySet().iterator(); it.hasNext();) {
      TaskAttemptId id = it.next();
      TaskAttempt ta = attempt(id);
      TaskAttemptState st = ta == null ? TaskAttemptState.KILLED : ta.getState();
      String kind = Wire.endKind(st);
      if (kind == null) {
        continue;
      }
      it.remove();
      ObjectNode e = out.addObject();
      e.put("kind", kind);
      e.put("time", ta != null && ta.getFinishTime() > 0 ? ta.getFinishTime() : now);
      e.put("attempt", Wire.attemptId(id));
      if (st == TaskAttemptState.SUCCEEDED && id.getTaskId().getTaskType() == TaskType.MAP) {
        succeededMaps.put(id, Boolean.TRUE);
      }
    }
    for (Iterator<TaskAttemptId> it = succeededMaps.keySet().iterator(); it.hasNext();) {
      TaskAttemptId id = it.next();
      TaskAttempt ta = attempt(id);
      TaskAttemptState st = ta == null ? TaskAttemptState.KILLED : ta.getState();
      if (st == TaskAttemptState.SUCCEEDED) {
        continue;
      }
      it.remove(); // output lost: the map runs again
      ObjectNode e = out.addObject();
      e.put("kind", st == TaskAttemptState.FAILED ? "attempt-failed" : "attempt-killed");
      e.put("time", now);
      e.put("attempt", Wire.attemptId(id));
    }
  }

  private void sendResync(SidecarSocket s) {
    ObjectNode r = frame("resync");
    ArrayNode attempts = r.putArray("attempts");
    Job job = context.getJob(jobId);
    liveAttempts.clear();
    succeededMaps.clear();
    long now = context.getClock().getTime();
    if (job != null) {
      for (Task task : job.getTasks().values()) {
        TaskType type = task.getID().getTaskType();
        for (TaskAttempt ta : task.getAttempts().values()) {
          String state = Wire.snapshotState(ta.getState());
          if (state == null || ta.getLaunchTime() <= 0) {
            continue;
          }
          ObjectNode a = attempts.addObject();
          a.put("attempt", Wire.attemptId(ta.getID()));
          a.put("state", state);
          a.put("node", Wire.node(ta.getNodeId(), ta.getNodeHttpAddress(), settings.nodeHostPort));
          if (ta.getAssignedContainerID() != null) {
            a.put("container", ta.getAssignedContainerID().toString());
          }
          a.put("speculative", ta.getID().getId() > 0 && task.getAttempts().size() > 1);
          a.put("start", ta.getLaunchTime());
          a.put("progress", Math.max(0f, Math.min(1f, ta.getProgress())));
          a.put("phase", Wire.phase(ta.getPhase(), type));
          a.set("counters", Wire.counters(ta.getCounters(), type));
          if ("RUNNING".equals(state)) {
            a.put("last_report", Math.max(now, ta.getLaunchTime()));
            liveAttempts.put(ta.getID(), Boolean.TRUE);
          } else {
            a.put("finish", Math.max(ta.getFinishTime(), ta.getLaunchTime()));
            if ("SUCCEEDED".equals(state) && type == TaskType.MAP) {
              succeededMaps.put(ta.getID(), Boolean.TRUE);
            }
          }
        }
      }
    }
    ArrayNode needs = r.putArray("container_needs");
    needs.addObject().put("task_type", "map").put("count", containerNeeds[0]);
    needs.addObject().put("task_type", "reduce").put("count", containerNeeds[1]);
    send(s, r);
    s.resynced = true;
  }
}
