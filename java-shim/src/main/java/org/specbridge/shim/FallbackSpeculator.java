package org.specbridge.shim;

import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator;
import org.apache.hadoop.mapreduce.v2.app.speculate.SpeculatorEvent;
import org.apache.hadoop.service.Service;

/**
 * The fail-open side of the shim: Hadoop's own DefaultSpeculator, fed every event, which speculates as stock
 * Hadoop would whenever the sidecar is not in charge.
 *
 * <ul>
 * <li>It is fed every event from the start (on the dispatcher thread, as Hadoop feeds its speculator), so its
 * estimates are complete when it takes over.</li>
 * <li>Its background scan (DefaultSpeculator's thread, which visits every task of the job each
 * {@code mapreduce.job.speculative.retry-after-no-speculate} ms) starts only when the fallback first
 * {@link #takeOver takes over}: while the sidecar decides from the start, the AM does not pay for a scan whose
 * launches would all be suppressed. Starting the thread runs its first scan at once. Once started it keeps
 * scanning; its launches are suppressed while the sidecar is in charge, and a later handover is acted on at its
 * next scan (at most {@code retry-after-speculate}, 15 s by default, after a suppressed launch). Choice: Hadoop
 * offers no wake-up for that scan but a test-only method ({@code scanForSpeculations}, which prints to
 * System.out), and the shim calls no test-only code.</li>
 * <li>It never adds a copy of a task that already has a speculative attempt pending, from either side of a
 * handover (the {@link Gate}'s shared claim).</li>
 * <li>An event DefaultSpeculator throws on (a status without an attempt id, which Hadoop's MRApp harness
 * produces) is skipped and counted; the dispatcher never sees the exception.</li>
 * </ul>
 */
class FallbackSpeculator extends DefaultSpeculator {
  /** What the fallback asks of the shim. */
  interface Gate {
    /** True while the sidecar is in charge. */
    boolean sidecarInCharge();

    /** Claims the task for one speculative attempt; false if one is already pending. */
    boolean claimSpeculation(TaskId task);

    /** The gate of a shim whose charge inCharge reads and whose pending speculative attempts are pending. */
    static Gate of(BooleanSupplier inCharge, Set<TaskId> pending) {
      return new Gate() {
        @Override
        public boolean sidecarInCharge() {
          return inCharge.getAsBoolean();
        }

        @Override
        public boolean claimSpeculation(TaskId task) {
          return pending.add(task);
        }
      };
    }
  }

  private final Gate gate;
  final AtomicInteger suppressed = new AtomicInteger();
  final AtomicInteger launched = new AtomicInteger();
  final AtomicLong errors = new AtomicLong();

  FallbackSpeculator(Configuration conf, AppContext context, Gate gate) {
    super(conf, context);
    this.gate = gate;
  }

  /** Feeds the event to DefaultSpeculator; an exception from it is logged once and counted, never thrown. */
  void feed(SpeculatorEvent event) {
    try {
      handle(event);
    } catch (RuntimeException e) {
      if (errors.getAndIncrement() == 0) {
        BridgeSpeculator.LOG.warn("specbridge: the fallback speculator failed on " + event.getType()
            + "; skipping such events", e);
      }
    }
  }

  /** Starts the background scan if it is not running yet (its first scan runs at once); idempotent. */
  synchronized boolean takeOver() {
    if (getServiceState() != Service.STATE.INITED) {
      return false;
    }
    start();
    return true;
  }

  /** True once the background scan runs. */
  boolean scanning() {
    return getServiceState() == Service.STATE.STARTED;
  }

  @Override
  protected void addSpeculativeAttempt(TaskId taskID) {
    if (gate.sidecarInCharge()) {
      suppressed.incrementAndGet();
      return;
    }
    if (!gate.claimSpeculation(taskID)) {
      return;
    }
    launched.incrementAndGet();
    super.addSpeculativeAttempt(taskID);
  }
}
