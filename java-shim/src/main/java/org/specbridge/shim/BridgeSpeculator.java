package org.specbridge.shim;

import java.util.Collections;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.speculate.Speculator;
import org.apache.hadoop.mapreduce.v2.app.speculate.SpeculatorEvent;
import org.apache.hadoop.service.AbstractService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The Speculator MRAppMaster loads through {@code yarn.app.mapreduce.am.job.speculator.class}: it forwards the
 * AM's speculator events to the specbridge sidecar and applies the sidecar's decisions, and fails open to
 * Hadoop's DefaultSpeculator when the sidecar is unreachable, refuses the token, or stops answering.
 *
 * <p>This class wires the roles together (docs/shim.md):
 * <ul>
 * <li>{@link ShimWorker}: the worker thread; who is in charge, the sidecar or the fallback;</li>
 * <li>{@link EventBatcher}: the hand-off from the dispatcher and the batching ({@code batch.ms}, {@code batch.max});</li>
 * <li>{@link EventTranslator} with its {@link AttemptTracker}: speculator events to protocol frames;</li>
 * <li>{@link SidecarConnection}: the websocket session (hello, resync, pings, timeout, reconnect);</li>
 * <li>{@link DecisionApplier} with {@link DecisionGuard}: decisions to AM events;</li>
 * <li>{@link FallbackSpeculator}: Hadoop's DefaultSpeculator while the sidecar is not in charge.</li>
 * </ul>
 *
 * <p>Threads: {@link #handle} runs on the AM's dispatcher thread and only feeds the fallback and offers the
 * event to the batcher, never blocking. The worker thread ({@link ShimWorker}) takes batches, translates, sends,
 * sweeps for ended attempts once a second, keeps the connection and decides who is in charge. Decisions are
 * applied on the socket's thread (AppContext reads and eventHandler.handle are thread-safe).
 *
 * <p>Scope ({@link Scope}): whether the sidecar decides for this job at all is settled in {@link #serviceStart},
 * the first moment the job's queue as the ResourceManager placed it is known (MRAppMaster starts its container
 * allocator, which registers with the ResourceManager, before the speculator). A job outside the scope runs
 * Hadoop's DefaultSpeculator alone, whatever {@code specbridge.fallback.enabled} says, and never contacts the
 * sidecar. Events that reach {@link #handle} before that (JOB_CREATE) are queued as for any job and dropped with
 * the queue.
 */
public class BridgeSpeculator extends AbstractService implements Speculator {
  static final Logger LOG = LoggerFactory.getLogger(BridgeSpeculator.class);
  private static final int QUEUE_CAPACITY = 100000;

  private final ShimConfig settings;
  private final AppContext context;
  /** Hadoop's speculator inside the shim; null when there is none (fallback off and every job in scope). */
  private volatile FallbackSpeculator fallback;
  /** Events go to the sidecar: a sidecar is configured and the job is in scope (settled at start). */
  private volatile boolean bridged;
  private final String confUser;
  private final String confQueue;
  private final Set<TaskId> pendingSpeculation = Collections.newSetFromMap(new ConcurrentHashMap<TaskId, Boolean>());
  private final DecisionApplier applier;
  private final EventBatcher<SpeculatorEvent> batcher;
  private final EventTranslator translator;
  private final SidecarConnection connection;
  private final ShimWorker worker;

  final AtomicInteger handovers;
  final AtomicLong eventsSent;

  public BridgeSpeculator(Configuration conf, AppContext context) {
    super(BridgeSpeculator.class.getName());
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
    this.applier = new DecisionApplier(context, pendingSpeculation, mapFailuresMaxPercent,
        intSetting(conf, MRJobConfig.MAP_MAX_ATTEMPTS, DecisionApplier.DEFAULT_MAX_ATTEMPTS),
        intSetting(conf, MRJobConfig.REDUCE_MAX_ATTEMPTS, DecisionApplier.DEFAULT_MAX_ATTEMPTS));
    // Hadoop's own key defaults (mapred-default.xml) are true; a conf without them keeps copies allowed.
    this.applier.speculationOn(conf.getBoolean(MRJobConfig.MAP_SPECULATIVE, true),
        conf.getBoolean(MRJobConfig.REDUCE_SPECULATIVE, true));
    String warning = s.approximationWarning(conf.getInt(MRJobConfig.NUM_REDUCES, 1), mapFailuresMaxPercent);
    if (warning != null && s.sidecarConfigured()) {
      LOG.warn(warning);
    }
    this.bridged = s.sidecarConfigured() && s.scope.enabled();
    this.confUser = conf.get(MRJobConfig.USER_NAME);
    this.confQueue = conf.get(MRJobConfig.QUEUE_NAME, "default");
    this.batcher = new EventBatcher<SpeculatorEvent>(QUEUE_CAPACITY, s.batchMs, s.batchMax);
    this.translator = new EventTranslator(context, s);
    this.connection = new SidecarConnection(s, new SidecarConnection.Peer() {
      @Override
      public ObjectNode hello() {
        return translator.hello();
      }

      @Override
      public ObjectNode decisions(JsonNode decisions, boolean inCharge) {
        Consumer<JsonNode> tap = decisionTap;
        if (tap != null) {
          tap.accept(decisions);
        }
        return applier.ack(decisions, inCharge, now());
      }

      @Override
      public long now() {
        return BridgeSpeculator.this.context.getClock().getTime();
      }
    });
    this.eventsSent = connection.eventsSent;
    ShimWorker w = new ShimWorker(s, context, batcher, translator, connection);
    this.worker = w;
    this.handovers = w.handovers;
    FallbackSpeculator.Gate gate = FallbackSpeculator.Gate.of(w::sidecarInCharge, pendingSpeculation);
    // A job left out of the scope runs Hadoop's speculator even with the fallback off, so one exists until start.
    this.fallback = s.fallbackEnabled || s.scope.restricts() ? new FallbackSpeculator(conf, context, gate) : null;
  }

  /** The job's mapreduce.map.failures.maxpercent as JobImpl reads it (default 0); 0 when unreadable. */
  private static int mapFailuresMaxPercent(Configuration conf) {
    return intSetting(conf, MRJobConfig.MAP_FAILURES_MAX_PERCENT, 0);
  }

  /** The job's whole-number setting key, or def (with a warning) when it is not a whole number. */
  private static int intSetting(Configuration conf, String key, int def) {
    try {
      return conf.getInt(key, def);
    } catch (NumberFormatException e) {
      LOG.warn("specbridge: " + key + " is not a whole number: " + e.getMessage());
      return def;
    }
  }

  /** Each map's input split size by task index, or null (see HelloFrame.mapInputBytes). */
  static long[] mapInputBytes(Job job) {
    return HelloFrame.mapInputBytes(job);
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
    long startedAt = System.currentTimeMillis();
    String excluded = outOfScope();
    if (excluded != null) {
      bridged = false;
      batcher.clear();
      LOG.info("specbridge: not for this job (" + excluded + "): Hadoop's DefaultSpeculator decides alone and the"
          + " sidecar is not contacted");
      fallback.takeOver();
    } else if (settings.sidecarConfigured()) {
      if (!settings.fallbackEnabled && fallback != null) {
        FallbackSpeculator unused = fallback; // kept only for a job out of scope
        fallback = null;
        unused.stop();
      }
      worker.start(fallback, startedAt);
      LOG.info("specbridge: speculator " + settings.speculator + " at " + settings.url + ", fallback "
          + (fallback != null ? "on" : "off") + ", timeout " + settings.timeoutMs + " ms, batches of "
          + settings.batchMs + " ms or " + settings.batchMax + " events"
          + (settings.approximate() ? ", approximation job: deadline " + settings.deadlineMs + " ms, error bound "
              + settings.errorBound : ""));
    } else {
      LOG.warn("specbridge: " + ShimConfig.URL + " is not set; Hadoop's DefaultSpeculator decides alone");
      if (fallback != null) {
        fallback.takeOver();
      }
    }
    super.serviceStart();
  }

  /**
   * Null when the sidecar decides for this job, else why not: the job's user and queue (as the ResourceManager
   * placed it, see the class comment) against the scope.
   */
  private String outOfScope() {
    if (!settings.scope.restricts()) {
      return null;
    }
    String user = confUser;
    String queue = confQueue;
    String job = "";
    Iterator<Job> jobs = context.getAllJobs().values().iterator();
    if (jobs.hasNext()) {
      Job j = jobs.next();
      job = j.getID() + ": ";
      user = j.getUserName() != null ? j.getUserName() : user;
      queue = j.getQueueName() != null ? j.getQueueName() : queue;
    }
    String why = settings.scope.excludes(user, queue);
    return why == null ? null : job + "user " + user + ", queue " + queue + "; " + why;
  }

  @Override
  protected void serviceStop() throws Exception {
    if (worker.started()) {
      worker.stop();
      LOG.info("specbridge: sent " + eventsSent.get() + " events in " + connection.framesSent.get() + " frames, "
          + batcher.dropped.get() + " dropped, " + handovers.get() + " handovers, " + applier.applied.get()
          + " decisions applied, " + applier.refused.get() + " refused; worker CPU "
          + (worker.cpuNs() < 0 ? "unknown" : worker.cpuNs() / 1000000 + " ms") + ", " + attemptLookups()
          + " attempt lookups; the fallback skipped " + fallbackSkipped() + " events it could not place and failed"
          + " on " + fallbackErrors());
      String state = jobState();
      if (state != null) {
        connection.bye(state);
      }
    }
    connection.close();
    if (fallback != null) {
      fallback.stop();
    }
    super.serviceStop();
  }

  /**
   * Called on the AM's dispatcher thread: never blocks, never throws (an exception here would make the AM's
   * dispatcher exit the JVM). The fallback skips what Hadoop's DefaultSpeculator cannot take (see
   * FallbackSpeculator); the worker skips what names no attempt, task or job.
   */
  @Override
  public void handle(SpeculatorEvent event) {
    if (event == null) {
      return; // nothing to forward, and the batcher's queue holds no nulls
    }
    FallbackSpeculator f = fallback;
    if (f != null) {
      f.feed(event);
    }
    if (bridged) {
      batcher.offer(event);
    }
    Consumer<SpeculatorEvent> tap = eventTap;
    if (tap != null) {
      tap.accept(event);
    }
  }

  /**
   * Tests only (the conformance harness, ConformanceMRAppTest): shown every event handed to the shim, after it
   * is queued, on the AM's dispatcher thread; and every decisions frame before it is applied, on the socket's
   * thread. Null (always, outside tests): nothing is shown.
   */
  volatile Consumer<SpeculatorEvent> eventTap;
  volatile Consumer<JsonNode> decisionTap;

  /** Tests only: an events frame with no events, so that the sidecar decides now (SidecarConnection.sendNoEvents). */
  boolean sendNoEvents() {
    return connection.sendNoEvents();
  }

  @Override
  public void handleAttempt(TaskAttemptStatus status) {
    FallbackSpeculator f = fallback;
    if (f != null) {
      f.feedAttempt(status);
    }
  }

  /** The job's state by Hadoop's JobState name, for the bye frame; null if the AM has no job (or will not say). */
  private String jobState() {
    try {
      Iterator<Job> jobs = context.getAllJobs().values().iterator();
      return jobs.hasNext() ? String.valueOf(jobs.next().getState()) : null;
    } catch (RuntimeException e) {
      return null; // stopping: nothing here may throw
    }
  }

  /** True while the sidecar, not the fallback, decides. */
  public boolean sidecarInCharge() {
    return worker.sidecarInCharge();
  }

  public int appliedDecisions() {
    return applier.applied.get();
  }

  public int refusedDecisions() {
    return applier.refused.get();
  }

  public int fallbackLaunches() {
    FallbackSpeculator f = fallback;
    return f == null ? 0 : f.launched.get();
  }

  /** Events the fallback did not give Hadoop's DefaultSpeculator, which could not place them. */
  public long fallbackSkipped() {
    FallbackSpeculator f = fallback;
    return f == null ? 0 : f.skipped.get();
  }

  /** Events the fallback's DefaultSpeculator threw on (caught). */
  public long fallbackErrors() {
    FallbackSpeculator f = fallback;
    return f == null ? 0 : f.errors.get();
  }

  /** Frames sent to the sidecar (hello, resync, events, acks). */
  long framesSent() {
    return connection.framesSent.get();
  }

  /** False when the sidecar is not contacted for this job (none configured, or the job is out of scope). */
  public boolean bridged() {
    return bridged;
  }

  /** AppContext lookups the worker made to find ended attempts (logged at stop). */
  long attemptLookups() {
    return translator.tracker().lookups;
  }

  /** Events handed to the shim that its worker has not sent (or dropped) yet, the batch it is working on included. */
  int backlog() {
    return batcher.unfinished();
  }
}
