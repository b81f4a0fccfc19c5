package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskEventType;
import org.apache.hadoop.mapreduce.v2.app.speculate.SpeculatorEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fail-open role alone: Hadoop's real DefaultSpeculator behind the shim's gate, on a fake AM. */
class FallbackSpeculatorTest {
  private final FakeAm am = new FakeAm();
  private volatile boolean sidecarInCharge = true;
  private final Set<TaskId> pending = Collections.newSetFromMap(new ConcurrentHashMap<TaskId, Boolean>());
  private final FallbackSpeculator fallback = new FallbackSpeculator(new Configuration(false), am.context,
      FallbackSpeculator.Gate.of(() -> sidecarInCharge, pending));

  @Test
  void itsLaunchesAreSuppressedWhileTheSidecarIsInChargeAndNeverDoubled() {
    TaskId task = am.attempt("m", 3, 0).id.getTaskId();
    fallback.addSpeculativeAttempt(task);
    assertEquals(1, fallback.suppressed.get());
    assertTrue(am.dispatched.isEmpty(), "a launch went out while the sidecar was in charge");

    sidecarInCharge = false;
    fallback.addSpeculativeAttempt(task);
    assertEquals(1, fallback.launched.get());
    assertEquals(1, am.dispatched.size());
    TaskEvent e = (TaskEvent) am.dispatched.get(0);
    assertEquals(TaskEventType.T_ADD_SPEC_ATTEMPT, e.getType());
    assertEquals(task, e.getTaskID());

    fallback.addSpeculativeAttempt(task);
    assertEquals(1, am.dispatched.size(), "a second copy while the first is pending");
  }

  @Test
  @Timeout(60)
  void itsScanStartsOnlyWhenItTakesOver() throws Exception {
    fallback.init(new Configuration(false));
    try {
      assertFalse(fallback.scanning());
      assertTrue(fallback.takeOver());
      assertTrue(fallback.scanning());
      assertFalse(fallback.takeOver(), "a second takeover starts nothing");
    } finally {
      fallback.stop();
    }
    assertFalse(fallback.takeOver(), "a stopped fallback does not start again");
  }

  @Test
  void anEventDefaultSpeculatorThrowsOnIsSkippedAndCounted() {
    fallback.init(new Configuration(false));
    TaskAttemptStatus noId = new TaskAttemptStatus();
    fallback.feed(new SpeculatorEvent(noId, 1L));
    fallback.feed(new SpeculatorEvent(noId, 2L));
    assertEquals(2, fallback.errors.get());
    fallback.stop();
  }
}
