package org.specbridge.shim;

import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
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
 * <li>It is given only the events DefaultSpeculator can place ({@link #placeable}); the others are skipped and
 * counted. Hadoop 3.5's AM sends one it cannot: when an attempt succeeds (TA_DONE) before any status report of
 * it was processed, TaskAttemptImpl sends the speculator its initial status, whose attempt id is null
 * (TaskAttemptImpl's constructor fills in progress, phase, state and counters, not the id; the id arrives with
 * the first report, TaskAttemptListenerImpl's). DefaultSpeculator's statusUpdate then throws
 * NullPointerException, and on a real AM an exception out of a handler makes the dispatcher (AsyncDispatcher,
 * exit-on-error by default) exit the JVM. A real task's {@code done} sends its last status report before
 * TA_DONE, so a real AM sees it rarely if ever; Hadoop's MRApp harness, whose attempts succeed without reporting,
 * sends one per attempt. Choice: skip rather than forward and catch, because DefaultSpeculator throws before it
 * changes any state (the event carries nothing it could use) and an exception per attempt costs the dispatcher
 * a stack trace each. Anything else DefaultSpeculator throws on is caught, logged once and counted: the
 * dispatcher never sees an exception from the fallback. That includes a LinkageError (NoSuchMethodError,
 * NoClassDefFoundError...): the shim runs in AMs of several Hadoop lines, and DefaultSpeculator loads its
 * runtime estimator (mapreduce.job.speculative.estimator.class, possibly an operator's own) and that
 * estimator's dependencies lazily, so a mismatch between lines surfaces at the first event, not at load.
 * Choice: catch LinkageError but no other Error: a missing class makes the fallback useless, not the AM
 * unsound, while an OutOfMemoryError or a StackOverflowError must still reach the AM's own handling.</li>
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
  /** Events DefaultSpeculator could not place, not given to it (see {@link #placeable}). */
  final AtomicLong skipped = new AtomicLong();
  /** Events DefaultSpeculator threw on. */
  final AtomicLong errors = new AtomicLong();

  private final AppContext context;

  FallbackSpeculator(Configuration conf, AppContext context, Gate gate) {
    super(conf, context);
    this.context = context;
    this.gate = gate;
  }

  /**
   * Feeds the event to DefaultSpeculator if it can place it (else skips and counts it); an exception from it is
   * logged once and counted, never thrown.
   */
  void feed(SpeculatorEvent event) {
    String why = placeable(event);
    if (why != null) {
      if (skipped.getAndIncrement() == 0) {
        BridgeSpeculator.LOG.info("specbridge: not giving Hadoop's DefaultSpeculator " + why
            + " (it would throw); skipping such events");
      }
      return;
    }
    try {
      handle(event);
    } catch (RuntimeException | LinkageError e) {
      if (errors.getAndIncrement() == 0) {
        BridgeSpeculator.LOG.warn("specbridge: the fallback speculator failed on " + event.getType()
            + "; skipping such events", e);
      }
    }
  }

  /** Feeds a status the way DefaultSpeculator's own scan does, with the same guard as {@link #feed}. */
  void feedAttempt(TaskAttemptStatus status) {
    String why = placeableStatus(status);
    if (why != null) {
      skipped.incrementAndGet();
      return;
    }
    try {
      handleAttempt(status);
    } catch (RuntimeException | LinkageError e) {
      if (errors.getAndIncrement() == 0) {
        BridgeSpeculator.LOG.warn("specbridge: the fallback speculator failed on a status of " + status.id
            + "; skipping such statuses", e);
      }
    }
  }

  /**
   * Null when Hadoop 3.5's DefaultSpeculator can take the event, else what is missing: the fields its
   * processSpeculatorEvent reads without a null check (a status's attempt id and state, a start's attempt id, a
   * container need's task; JOB_CREATE reads nothing from the event).
   */
  static String placeable(SpeculatorEvent event) {
    if (event == null) {
      return "a null event";
    }
    if (event.getType() == null) {
      return "an event without a type";
    }
    switch (event.getType()) {
      case ATTEMPT_STATUS_UPDATE: {
        String why = placeableStatus(event.getReportedStatus());
        return why == null ? null : "an ATTEMPT_STATUS_UPDATE with " + why;
      }
      case ATTEMPT_START:
        return event.getReportedStatus() == null || event.getReportedStatus().id == null
            ? "an ATTEMPT_START without an attempt id" : null;
      case TASK_CONTAINER_NEED_UPDATE:
        return event.getTaskID() == null ? "a TASK_CONTAINER_NEED_UPDATE without a task id" : null;
      default:
        return null;
    }
  }

  private static String placeableStatus(TaskAttemptStatus status) {
    if (status == null) {
      return "no status";
    }
    if (status.id == null) {
      return "a status without an attempt id (an attempt that succeeded before any report of it was processed)";
    }
    if (status.id.getTaskId() == null || status.id.getTaskId().getJobId() == null) {
      return "a status whose attempt id names no task or job";
    }
    if (status.taskState == null) {
      return "a status without an attempt state";
    }
    return null;
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
    SpecbridgeCounter.FALLBACK_SPECULATIVE_ATTEMPTS.add(context, taskID.getJobId(), 1);
  }
}
