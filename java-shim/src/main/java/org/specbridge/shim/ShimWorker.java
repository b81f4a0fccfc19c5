package org.specbridge.shim;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.speculate.SpeculatorEvent;

/**
 * The shim's worker thread (docs/shim.md): takes the batcher's batches, translates and sends them, sweeps for
 * ended attempts once a second, keeps the connection, and decides who is in charge of speculation, the sidecar or
 * the fallback. {@link BridgeSpeculator} builds it with the roles it drives and starts it once the job is known
 * to be in scope.
 */
final class ShimWorker {
  /** How often the live attempts are swept for kills and failures (see AttemptTracker). */
  static final long SWEEP_MS = 1000;

  private final ShimConfig settings;
  private final AppContext context;
  private final EventBatcher<SpeculatorEvent> batcher;
  private final EventTranslator translator;
  private final SidecarConnection connection;

  /** Hadoop's speculator inside the shim, as it stands at start; null when there is none. */
  private FallbackSpeculator fallback;
  private volatile boolean sidecarInCharge;
  private volatile boolean stopped;
  private Thread thread;
  private long startedAt;
  private long nextSweep;
  private volatile long cpuNs = -1;

  final AtomicInteger handovers = new AtomicInteger();

  ShimWorker(ShimConfig settings, AppContext context, EventBatcher<SpeculatorEvent> batcher,
      EventTranslator translator, SidecarConnection connection) {
    this.settings = settings;
    this.context = context;
    this.batcher = batcher;
    this.translator = translator;
    this.connection = connection;
  }

  /** Starts the thread; fallback (may be null) is the one that takes over while the sidecar is not in charge. */
  void start(FallbackSpeculator fallback, long startedAt) {
    this.fallback = fallback;
    this.startedAt = startedAt;
    thread = new Thread(this::run, "specbridge shim");
    thread.setDaemon(true);
    thread.start();
  }

  /** True once start was called. */
  boolean started() {
    return thread != null;
  }

  /** Stops the thread and waits for it (at most 5 s). */
  void stop() throws InterruptedException {
    stopped = true;
    if (thread != null) {
      thread.interrupt();
      thread.join(5000);
    }
  }

  /** True while the sidecar, not the fallback, decides. */
  boolean sidecarInCharge() {
    return sidecarInCharge;
  }

  /** The thread's CPU time in ns once it ended; -1 before, or when the JVM does not measure it. */
  long cpuNs() {
    return cpuNs;
  }

  private void run() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    boolean cpu = mx.isCurrentThreadCpuTimeSupported() && mx.isThreadCpuTimeEnabled();
    long wait = Math.max(10, Math.min(settings.pingMs, SWEEP_MS));
    try {
      while (!stopped) {
        try {
          List<SpeculatorEvent> batch = batcher.next(wait);
          step(batch, System.currentTimeMillis());
        } catch (InterruptedException e) {
          if (!stopped) {
            BridgeSpeculator.LOG.warn("specbridge: worker interrupted", e);
          }
          return;
        } catch (RuntimeException e) {
          // Nothing here may take the AM down: log, drop the connection, carry on with the fallback.
          BridgeSpeculator.LOG.error("specbridge: worker error; reconnecting", e);
          connection.drop("worker error: " + e);
        }
      }
    } finally {
      if (cpu) {
        cpuNs = mx.getCurrentThreadCpuTime();
      }
    }
  }

  private void step(List<SpeculatorEvent> batch, long wall) {
    translator.translate(batch);
    if (wall >= nextSweep) {
      nextSweep = wall + SWEEP_MS;
      translator.sweep();
    }
    if (translator.jobId() != null) {
      connection.maintain(wall);
    }
    if (batcher.takeOverflow()) {
      BridgeSpeculator.LOG.warn(
          "specbridge: event queue overflowed (" + batcher.dropped.get() + " dropped); resyncing");
      connection.requestResync();
    }
    if (connection.needsResync()) {
      translator.dropEvents(); // the snapshot holds them
      connection.resync(translator.resync());
    } else if (translator.pendingEvents() > 0) {
      int n = translator.pendingEvents();
      byte[] events = translator.takeEvents();
      if (connection.ready()) {
        connection.sendEvents(events, n);
      } // else no session: the next one starts from a snapshot
    }
    updateCharge(wall);
  }

  /** Hands speculation to the sidecar when its session is ready, and to the fallback when it is not. */
  private void updateCharge(long wall) {
    boolean healthy = connection.ready();
    if (healthy != sidecarInCharge) {
      sidecarInCharge = healthy;
      if (healthy) {
        BridgeSpeculator.LOG.info("specbridge: sidecar " + connection.address() + " is in charge of speculation");
      } else {
        handovers.incrementAndGet();
        SpecbridgeCounter.HANDOVERS.add(context, translator.jobId(), 1);
        BridgeSpeculator.LOG.warn("specbridge: sidecar unhealthy (" + connection.unhealthyReason() + "); "
            + (fallback != null ? "Hadoop's DefaultSpeculator takes over" : "no speculation until it is back"));
        if (fallback != null) {
          fallback.takeOver();
        }
      }
    } else if (!healthy && fallback != null && !fallback.scanning() && wall - startedAt >= settings.timeoutMs) {
      BridgeSpeculator.LOG.warn("specbridge: no sidecar session within " + settings.timeoutMs + " ms ("
          + connection.unhealthyReason() + "); Hadoop's DefaultSpeculator decides until there is one");
      fallback.takeOver();
    }
  }
}
