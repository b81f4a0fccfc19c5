package org.specbridge.shim;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator;
import org.apache.hadoop.mapreduce.v2.app.speculate.Speculator;
import org.apache.hadoop.mapreduce.v2.app.speculate.SpeculatorEvent;
import org.apache.hadoop.service.CompositeService;
import org.apache.hadoop.service.Service;

/**
 * CPU time an AM spends on speculation, measured from inside the speculator MRAppMaster loads, with the JVM's
 * per-thread CPU clocks (ThreadMXBean): robust on a loaded machine, where wall time is not.
 *
 * <ul>
 * <li>{@code dispatcherNs}: the AM's central dispatcher thread over the whole job, read when the speculator
 * stops (MRAppMaster stops its services in reverse order, so the dispatcher is still alive then). This is the
 * AM's event handling: every Job/Task/TaskAttempt transition, and the speculator's {@code handle} calls.</li>
 * <li>{@code handleNs}: the part of it spent inside the speculator's {@code handle}.</li>
 * <li>{@code offloadNs}: the speculator's own threads that process events off the dispatcher (the shim's worker
 * and its websocket threads), started after the speculator was made.</li>
 * <li>{@code scanNs}: DefaultSpeculator's periodic background scan thread(s) (the shim's fallback runs one only
 * while it is in charge). Reported, not compared: it is not event handling, and its cost grows with the job's
 * wall-clock duration, so on a loaded machine it measures the load.</li>
 * </ul>
 */
final class SpeculatorMeter {
  static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
  static volatile SpeculatorMeter last;

  private final Set<Long> before = new HashSet<Long>();
  private volatile long dispatcher = -1;
  /** Written by the dispatcher thread only. */
  private long handleNs;
  long events;
  long dispatcherNs;
  long offloadNs;
  long scanNs;
  /** The shim's AppContext lookups to find ended attempts; -1 for Hadoop's speculator. */
  long lookups = -1;
  final Map<String, Long> threads = new TreeMap<String, Long>();
  volatile boolean stopped;
  /** The speculator measured (set by its {@link Timed} wrapper), for a test's checks after the job. */
  volatile Speculator speculator;

  SpeculatorMeter() {
    if (!MX.isThreadCpuTimeEnabled()) {
      MX.setThreadCpuTimeEnabled(true);
    }
    for (long id : MX.getAllThreadIds()) {
      before.add(id);
    }
    last = this;
  }

  long handleNs() {
    return handleNs;
  }

  /** Runs the speculator's handle on the dispatcher thread and counts its CPU time. */
  void handle(Runnable r) {
    if (dispatcher < 0) {
      dispatcher = Thread.currentThread().getId();
    }
    long t0 = MX.getCurrentThreadCpuTime();
    r.run();
    handleNs += MX.getCurrentThreadCpuTime() - t0;
    events++;
  }

  /** Reads the threads' CPU clocks; call before the speculator's threads end. */
  void snapshot() {
    if (dispatcher >= 0) {
      dispatcherNs = MX.getThreadCpuTime(dispatcher);
    }
    long[] ids = MX.getAllThreadIds();
    for (java.lang.management.ThreadInfo info : MX.getThreadInfo(ids)) {
      if (info == null || before.contains(info.getThreadId())) {
        continue;
      }
      String name = info.getThreadName();
      long cpu = MX.getThreadCpuTime(info.getThreadId());
      if (cpu < 0) {
        continue;
      }
      if (name.startsWith("DefaultSpeculator background")) {
        scanNs += cpu;
      } else if (name.startsWith("specbridge") || name.startsWith("WebSocket")) {
        offloadNs += cpu;
      } else {
        continue;
      }
      threads.merge(name.replaceAll("-?\\d+$", ""), cpu, Long::sum);
    }
    stopped = true;
  }

  /**
   * A speculator MRAppMaster loads by class name, metered: it wraps the speculator it measures, which runs as its
   * child service (initialised, started and stopped with it) and gets every event through the meter. The meter
   * reads the threads' clocks as the wrapper stops, before the wrapped speculator stops.
   */
  abstract static class Timed<S extends Speculator & Service> extends CompositeService implements Speculator {
    final S speculator;
    final SpeculatorMeter meter;

    Timed(S speculator) {
      super("Timed" + speculator.getClass().getSimpleName());
      this.speculator = speculator;
      this.meter = new SpeculatorMeter();
      this.meter.speculator = speculator;
      addService(speculator);
    }

    @Override
    public void handle(final SpeculatorEvent event) {
      meter.handle(() -> speculator.handle(event));
    }

    /** Forwarded, not metered (the AM itself does not call it). */
    @Override
    public void handleAttempt(TaskAttemptStatus status) {
      speculator.handleAttempt(status);
    }

    /** What to do before the meter reads the clocks: nothing by default. */
    void beforeSnapshot() throws Exception {
    }

    @Override
    protected void serviceStop() throws Exception {
      beforeSnapshot();
      meter.snapshot();
      super.serviceStop();
    }
  }

  /** Hadoop's DefaultSpeculator, metered. */
  public static class TimedDefaultSpeculator extends Timed<DefaultSpeculator> {
    public TimedDefaultSpeculator(Configuration conf, AppContext context) {
      super(new DefaultSpeculator(conf, context));
    }
  }

  /** The shim, metered. */
  public static class TimedBridgeSpeculator extends Timed<BridgeSpeculator> {
    public TimedBridgeSpeculator(Configuration conf, AppContext context) {
      super(new BridgeSpeculator(conf, context));
    }

    /** Lets the worker finish the job's events first, so that all its work is counted. */
    @Override
    void beforeSnapshot() throws Exception {
      long deadline = System.currentTimeMillis() + 120000;
      while (speculator.backlog() > 0 && System.currentTimeMillis() < deadline) {
        Thread.sleep(10); // polling the shim's queue
      }
      meter.lookups = speculator.attemptLookups();
    }
  }
}
