package org.specbridge.shim;

import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;

/**
 * Decides whether a sidecar decision may be applied to the AM in the state the task and attempt are in.
 * Pure: no AppContext, so that every combination can be tested.
 *
 * <p>The rule that matters most: {@code T_ADD_SPEC_ATTEMPT} goes only to a task in state RUNNING. Sent to a
 * task in NEW or SCHEDULED, Hadoop's TaskImpl has no transition for it and the whole job goes to ERROR.
 */
public final class DecisionGuard {
  /** Decision kinds of the protocol. */
  public enum Kind {
    SPECULATE(Protocol.DECISION_SPECULATE), KILL(Protocol.DECISION_KILL), RERUN(Protocol.DECISION_RERUN),
    DROP(Protocol.DECISION_DROP);

    public final String wire;

    Kind(String wire) {
      this.wire = wire;
    }

    /** The kind for a wire name, or null. */
    public static Kind of(String wire) {
      for (Kind k : values()) {
        if (k.wire.equals(wire)) {
          return k;
        }
      }
      return null;
    }
  }

  private DecisionGuard() {
  }

  /**
   * Returns null when the decision may be applied, else the reason it is refused.
   *
   * @param kind the decision
   * @param taskState the task's state, null when the job has no such task
   * @param attemptState the named attempt's state (kill, rerun), null when there is no such attempt
   * @param taskType the task's type
   * @param speculationPending a speculative attempt of this task was added and has not started yet
   */
  public static String refusal(Kind kind, TaskState taskState, TaskAttemptState attemptState, TaskType taskType,
      boolean speculationPending) {
    if (kind == null) {
      return "unknown decision kind";
    }
    if (taskState == null) {
      return "the job has no such task";
    }
    switch (kind) {
      case SPECULATE:
        if (taskState != TaskState.RUNNING) {
          return "task is " + taskState + ", not RUNNING";
        }
        if (speculationPending) {
          return "a speculative attempt of this task is already pending";
        }
        return null;
      case KILL:
        if (attemptState == null) {
          return "the task has no such attempt";
        }
        switch (attemptState) {
          case STARTING:
          case RUNNING:
          case COMMIT_PENDING:
            return null;
          default:
            return "attempt is " + attemptState + ", not running";
        }
      case RERUN:
        if (taskType != TaskType.MAP) {
          return "only a map's output can be re-run";
        }
        if (attemptState != TaskAttemptState.SUCCEEDED) {
          return "attempt is " + attemptState + ", not SUCCEEDED";
        }
        if (taskState != TaskState.SUCCEEDED) {
          return "task is " + taskState + ", not SUCCEEDED";
        }
        return null;
      case DROP:
        switch (taskState) {
          case NEW:
          case SCHEDULED:
          case RUNNING:
            return null;
          default:
            return "task is already " + taskState;
        }
      default:
        return "unknown decision kind";
    }
  }
}
