package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.api.records.Phase;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskEventType;
import org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator;
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
    assertEquals(1, am.counter(SpecbridgeCounter.FALLBACK_SPECULATIVE_ATTEMPTS), "the job's fallback counter");
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

  /**
   * The events Hadoop's DefaultSpeculator throws on for want of a field, each given to a plain DefaultSpeculator
   * (which throws NullPointerException, as it does on the AM's dispatcher) and to the fallback (which skips and
   * counts it). The first is what TaskAttemptImpl sends when an attempt succeeds before any report of it was
   * processed (UnreportedSuccessMRAppTest has it from a real AM): its initial status, id null.
   */
  @Test
  void anEventDefaultSpeculatorCannotPlaceIsSkippedAndCountedNotThrown() {
    fallback.init(new Configuration(false));
    DefaultSpeculator plain = new DefaultSpeculator(new Configuration(false), am.context);
    plain.init(new Configuration(false));
    TaskAttemptStatus initial = new TaskAttemptStatus(); // as TaskAttemptImpl's constructor fills it in
    initial.progress = 1f;
    initial.phase = Phase.STARTING;
    initial.stateString = "NEW";
    initial.taskState = TaskAttemptState.NEW;
    TaskAttemptStatus noState = new TaskAttemptStatus();
    noState.id = am.attempt("m", 1, 0).id;
    List<SpeculatorEvent> events = Arrays.asList(new SpeculatorEvent(initial, 1L),
        new SpeculatorEvent((TaskAttemptStatus) null, 2L), new SpeculatorEvent(noState, 3L),
        new SpeculatorEvent((TaskId) null, 1));
    for (SpeculatorEvent e : events) {
      assertThrows(NullPointerException.class, () -> plain.handle(e), "Hadoop's DefaultSpeculator on " + e.getType());
      assertDoesNotThrow(() -> fallback.feed(e), "the fallback on " + e.getType());
    }
    assertDoesNotThrow(() -> fallback.feed(null));
    assertEquals(events.size() + 1, fallback.skipped.get());
    assertEquals(0, fallback.errors.get());
    assertDoesNotThrow(() -> fallback.feedAttempt(initial));
    assertEquals(events.size() + 2, fallback.skipped.get());
    fallback.stop();
    plain.stop();
  }

  @Test
  void aWellFormedEventIsForwardedAndWhatDefaultSpeculatorThrowsOnIsCaught() {
    fallback.init(new Configuration(false));
    fallback.feed(new SpeculatorEvent(am.jobId, 1L));
    TaskAttemptStatus running = new TaskAttemptStatus();
    running.id = am.attempt("m", 2, 0).id;
    running.progress = 0.5f;
    running.taskState = TaskAttemptState.RUNNING;
    fallback.feed(new SpeculatorEvent(running.id, true, 1L));
    fallback.feed(new SpeculatorEvent(running, 2L));
    assertEquals(0, fallback.skipped.get());
    assertEquals(0, fallback.errors.get());

    // An attempt the AM has no record of: placeable, but Hadoop's estimator looks the attempt up and throws.
    TaskAttemptStatus unknown = new TaskAttemptStatus();
    unknown.id = Wire.parseAttemptId("attempt_1700000000000_0001_m_000007_3");
    unknown.taskState = TaskAttemptState.RUNNING;
    DefaultSpeculator plain = new DefaultSpeculator(new Configuration(false), am.context);
    plain.init(new Configuration(false));
    plain.handle(new SpeculatorEvent(am.jobId, 1L));
    assertThrows(NullPointerException.class, () -> plain.handle(new SpeculatorEvent(unknown, 3L)));
    assertDoesNotThrow(() -> fallback.feed(new SpeculatorEvent(unknown, 3L)));
    assertEquals(1, fallback.errors.get());
    assertEquals(0, fallback.skipped.get());
    fallback.stop();
    plain.stop();
  }

  @Test
  void aLinkageErrorFromAnotherHadoopLineIsCaughtAndCounted() {
    // A DefaultSpeculator whose estimator was built against another Hadoop line: it links lazily and throws
    // NoSuchMethodError at the first event. The fallback must swallow it (the AM's dispatcher would exit),
    // count it, and keep going; an OutOfMemoryError is not its to swallow.
    FallbackSpeculator mismatched = new FallbackSpeculator(new Configuration(false), am.context,
        FallbackSpeculator.Gate.of(() -> true, ConcurrentHashMap.newKeySet())) {
      @Override
      public void handle(SpeculatorEvent event) {
        throw new NoSuchMethodError("TaskRuntimeEstimator.enrollAttempt");
      }

      @Override
      public void handleAttempt(TaskAttemptStatus status) {
        throw new OutOfMemoryError("the AM's heap");
      }
    };
    mismatched.init(new Configuration(false));
    assertDoesNotThrow(() -> mismatched.feed(new SpeculatorEvent(am.jobId, 1L)));
    assertDoesNotThrow(() -> mismatched.feed(new SpeculatorEvent(am.jobId, 2L)));
    assertEquals(2, mismatched.errors.get());
    TaskAttemptStatus running = new TaskAttemptStatus();
    running.id = am.attempt("m", 2, 0).id;
    running.taskState = TaskAttemptState.RUNNING;
    assertThrows(OutOfMemoryError.class, () -> mismatched.feedAttempt(running));
    mismatched.stop();
  }
}
