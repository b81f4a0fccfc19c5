package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.junit.jupiter.api.Test;

/** The guard over every combination of states: the property the issue asks to prove. */
class DecisionGuardTest {
  private static final TaskAttemptState[] ATTEMPT_STATES;

  static {
    TaskAttemptState[] all = TaskAttemptState.values();
    ATTEMPT_STATES = new TaskAttemptState[all.length + 1]; // and "no such attempt"
    System.arraycopy(all, 0, ATTEMPT_STATES, 0, all.length);
  }

  @Test
  void speculationGoesOnlyToARunningTaskWithoutAPendingCopy() {
    int allowed = 0;
    for (TaskState task : TaskState.values()) {
      for (TaskAttemptState attempt : ATTEMPT_STATES) {
        for (TaskType type : TaskType.values()) {
          for (boolean pending : new boolean[] {false, true}) {
            String refusal = DecisionGuard.refusal(DecisionGuard.Kind.SPECULATE, task, attempt, type, pending);
            if (task == TaskState.RUNNING && !pending) {
              assertNull(refusal, task + " " + attempt + " " + type);
              allowed++;
            } else {
              assertNotNull(refusal, "T_ADD_SPEC_ATTEMPT would go to a " + task + " task (pending " + pending + ")");
            }
          }
        }
      }
    }
    assertEquals(ATTEMPT_STATES.length * TaskType.values().length, allowed);
    assertEquals("task is SCHEDULED, not RUNNING",
        DecisionGuard.refusal(DecisionGuard.Kind.SPECULATE, TaskState.SCHEDULED, null, TaskType.MAP, false));
    assertEquals("task is NEW, not RUNNING",
        DecisionGuard.refusal(DecisionGuard.Kind.SPECULATE, TaskState.NEW, null, TaskType.REDUCE, false));
  }

  @Test
  void killsGoOnlyToLiveAttempts() {
    for (TaskState task : TaskState.values()) {
      for (TaskAttemptState attempt : ATTEMPT_STATES) {
        String refusal = DecisionGuard.refusal(DecisionGuard.Kind.KILL, task, attempt, TaskType.MAP, false);
        boolean live = attempt == TaskAttemptState.STARTING || attempt == TaskAttemptState.RUNNING
            || attempt == TaskAttemptState.COMMIT_PENDING;
        assertEquals(live, refusal == null, task + " " + attempt + ": " + refusal);
      }
    }
  }

  @Test
  void rerunsGoOnlyToTheSucceededAttemptOfASucceededMap() {
    for (TaskState task : TaskState.values()) {
      for (TaskAttemptState attempt : ATTEMPT_STATES) {
        for (TaskType type : TaskType.values()) {
          String refusal = DecisionGuard.refusal(DecisionGuard.Kind.RERUN, task, attempt, type, false);
          boolean ok = task == TaskState.SUCCEEDED && attempt == TaskAttemptState.SUCCEEDED && type == TaskType.MAP;
          assertEquals(ok, refusal == null, task + " " + attempt + " " + type + ": " + refusal);
        }
      }
    }
  }

  @Test
  void dropsGoOnlyToUnfinishedTasks() {
    for (TaskState task : TaskState.values()) {
      String refusal = DecisionGuard.refusal(DecisionGuard.Kind.DROP, task, null, TaskType.MAP, false);
      boolean ok = task == TaskState.NEW || task == TaskState.SCHEDULED || task == TaskState.RUNNING;
      assertEquals(ok, refusal == null, task + ": " + refusal);
    }
  }

  @Test
  void unknownTasksAndKindsAreRefused() {
    for (DecisionGuard.Kind kind : DecisionGuard.Kind.values()) {
      assertEquals("the job has no such task", DecisionGuard.refusal(kind, null, null, TaskType.MAP, false));
      assertEquals(kind, DecisionGuard.Kind.of(kind.wire));
    }
    assertNull(DecisionGuard.Kind.of("teleport"));
    assertNotNull(DecisionGuard.refusal(null, TaskState.RUNNING, null, TaskType.MAP, false));
  }
}
