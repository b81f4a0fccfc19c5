package org.specbridge.shim;

import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator;

/**
 * Hadoop's own DefaultSpeculator, fed every event, whose launches are suppressed while the sidecar is
 * healthy. When the sidecar is gone it speculates as stock Hadoop would, except that it never adds a copy
 * of a task that already has a speculative attempt pending (from either side of a handover).
 */
class FallbackSpeculator extends DefaultSpeculator {
  /** What the fallback asks of the shim. */
  interface Gate {
    /** True while the sidecar is in charge. */
    boolean sidecarInCharge();

    /** Claims the task for one speculative attempt; false if one is already pending. */
    boolean claimSpeculation(TaskId task);
  }

  private final Gate gate;
  final AtomicInteger suppressed = new AtomicInteger();
  final AtomicInteger launched = new AtomicInteger();

  FallbackSpeculator(Configuration conf, AppContext context, Gate gate) {
    super(conf, context);
    this.gate = gate;
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
