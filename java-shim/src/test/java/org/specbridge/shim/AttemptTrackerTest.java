package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.junit.jupiter.api.Test;

/** The incremental attempt state behind the shim's end detection, against a fake AM. */
class AttemptTrackerTest {
  private final Map<TaskAttemptId, TaskAttemptState> states = new HashMap<TaskAttemptId, TaskAttemptState>();
  private final Map<TaskAttemptId, Long> finish = new HashMap<TaskAttemptId, Long>();
  private int lookups;
  private final AttemptTracker tracker = new AttemptTracker(new AttemptTracker.States() {
    @Override
    public TaskAttemptState state(TaskAttemptId id) {
      lookups++;
      return states.get(id);
    }

    @Override
    public long finishTime(TaskAttemptId id) {
      Long f = finish.get(id);
      return f == null ? 0 : f;
    }
  });

  private TaskAttemptId running(String type, int task, int attempt) {
    TaskAttemptId id = Wire.parseAttemptId(String.format("attempt_1_0001_%s_%06d_%d", type, task, attempt));
    states.put(id, TaskAttemptState.RUNNING);
    return id;
  }

  @Test
  void aSecondLiveAttemptOfATaskIsSpeculative() {
    TaskAttemptId a0 = running("m", 1, 0);
    TaskAttemptId a1 = running("m", 1, 1);
    TaskAttemptId other = running("m", 2, 0);
    assertFalse(tracker.started(a0));
    assertFalse(tracker.started(other));
    assertTrue(tracker.started(a1));
    assertEquals(3, tracker.liveAttempts());
    assertEquals(0, lookups, "starting attempts looks nothing up");
  }

  @Test
  void aCheckOfOneTaskLooksAtThatTaskOnly() {
    List<TaskAttemptId> all = new ArrayList<TaskAttemptId>();
    for (int i = 0; i < 1000; i++) {
      TaskAttemptId id = running("m", i, 0);
      tracker.started(id);
      all.add(id);
    }
    states.put(all.get(7), TaskAttemptState.SUCCEEDED);
    finish.put(all.get(7), 1234L);
    List<AttemptTracker.End> out = new ArrayList<AttemptTracker.End>();
    tracker.check(all.get(7).getTaskId(), false, 99L, out);
    assertEquals(1, out.size());
    assertEquals("attempt-succeeded", out.get(0).kind);
    assertEquals(1234L, out.get(0).time);
    assertEquals(1, lookups, "a per-event check must not walk the job");
    assertEquals(999, tracker.liveAttempts());
    assertEquals(1, tracker.succeededMaps());
  }

  @Test
  void theSweepFindsKilledAndFailedAttemptsAndNeverLooksAtSucceededMaps() {
    TaskAttemptId done = running("m", 1, 0);
    TaskAttemptId killed = running("m", 2, 0);
    TaskAttemptId failed = running("r", 0, 0);
    TaskAttemptId alive = running("m", 3, 0);
    for (TaskAttemptId id : new TaskAttemptId[] {done, killed, failed, alive}) {
      tracker.started(id);
    }
    states.put(done, TaskAttemptState.SUCCEEDED);
    List<AttemptTracker.End> out = new ArrayList<AttemptTracker.End>();
    tracker.check(done.getTaskId(), false, 5L, out);
    out.clear();
    states.put(killed, TaskAttemptState.KILLED);
    states.put(failed, TaskAttemptState.FAILED);
    lookups = 0;
    tracker.sweep(50L, out);
    assertEquals(2, out.size(), out.toString());
    assertEquals("attempt-killed", out.get(0).kind);
    assertEquals(50L, out.get(0).time, "no finish time known: the sweep's time");
    assertEquals("attempt-failed", out.get(1).kind);
    assertEquals(3, lookups, "the sweep looks at the 3 live attempts, not at the succeeded map");
    assertEquals(1, tracker.liveAttempts());
  }

  @Test
  void anAttemptTheAmNoLongerKnowsEndsKilled() {
    TaskAttemptId id = running("m", 1, 0);
    tracker.started(id);
    states.remove(id);
    List<AttemptTracker.End> out = new ArrayList<AttemptTracker.End>();
    tracker.sweep(7L, out);
    assertEquals(1, out.size());
    assertEquals("attempt-killed", out.get(0).kind);
  }

  @Test
  void aLostMapOutputIsReportedWhenTheTaskAsksForAContainerAgain() {
    TaskAttemptId first = running("m", 4, 0);
    tracker.started(first);
    states.put(first, TaskAttemptState.SUCCEEDED);
    List<AttemptTracker.End> out = new ArrayList<AttemptTracker.End>();
    tracker.check(first.getTaskId(), false, 10L, out);
    assertEquals(1, out.size());
    out.clear();

    // Still SUCCEEDED: nothing to report, and the sweep does not look.
    tracker.check(first.getTaskId(), true, 20L, out);
    tracker.sweep(20L, out);
    assertTrue(out.isEmpty());

    // Fetch failures: the attempt is FAILED after success and the map asks for a new container.
    states.put(first, TaskAttemptState.FAILED);
    tracker.sweep(30L, out);
    assertTrue(out.isEmpty(), "the sweep does not watch succeeded maps");
    tracker.check(first.getTaskId(), true, 40L, out);
    assertEquals(1, out.size());
    assertEquals("attempt-failed", out.get(0).kind);
    assertEquals(40L, out.get(0).time);
    assertEquals(0, tracker.succeededMaps());

    // The re-run succeeds; the next loss is a kill (a lost node).
    out.clear();
    TaskAttemptId second = running("m", 4, 1);
    assertFalse(tracker.started(second), "the failed first attempt is not live");
    states.put(second, TaskAttemptState.SUCCEEDED);
    tracker.check(second.getTaskId(), false, 50L, out);
    states.put(second, TaskAttemptState.KILLED);
    out.clear();
    tracker.check(second.getTaskId(), true, 60L, out);
    assertEquals("attempt-killed", out.get(0).kind);
  }

  @Test
  void aResyncRebuildsTheState() {
    TaskAttemptId a = running("m", 1, 0);
    tracker.started(a);
    tracker.clear();
    assertEquals(0, tracker.liveAttempts());
    TaskAttemptId b = running("m", 2, 0);
    TaskAttemptId c = running("m", 3, 0);
    tracker.live(b);
    tracker.succeededMap(c);
    states.put(c, TaskAttemptState.KILLED);
    List<AttemptTracker.End> out = new ArrayList<AttemptTracker.End>();
    tracker.check(c.getTaskId(), true, 1L, out);
    assertEquals(1, out.size());
    assertEquals(1, tracker.liveAttempts());
  }
}
