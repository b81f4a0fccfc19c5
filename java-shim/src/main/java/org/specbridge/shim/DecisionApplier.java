package org.specbridge.shim;

import java.util.Set;

import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskState;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptKillEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskEventType;

/** Applies one sidecar decision to the AM, after DecisionGuard allows it. */
final class DecisionApplier {
  private final AppContext context;
  private final Set<TaskId> pendingSpeculation;

  DecisionApplier(AppContext context, Set<TaskId> pendingSpeculation) {
    this.context = context;
    this.pendingSpeculation = pendingSpeculation;
  }

  /** Applies the decision; returns null when applied, else why it was refused. */
  @SuppressWarnings("unchecked")
  String apply(String kindName, String taskName, String attemptName, int copies, String reason) {
    DecisionGuard.Kind kind = DecisionGuard.Kind.of(kindName);
    if (kind == null) {
      return "unknown decision kind " + kindName;
    }
    TaskId taskId;
    TaskAttemptId attemptId = null;
    try {
      if (kind == DecisionGuard.Kind.KILL || kind == DecisionGuard.Kind.RERUN) {
        attemptId = Wire.parseAttemptId(attemptName);
        taskId = attemptId.getTaskId();
      } else {
        taskId = Wire.parseTaskId(taskName);
      }
    } catch (RuntimeException e) {
      return "bad id: " + e.getMessage();
    }
    Job job = context.getJob(taskId.getJobId());
    Task task = job == null ? null : job.getTask(taskId);
    TaskState taskState = task == null ? null : task.getState();
    TaskAttempt attempt = task == null || attemptId == null ? null : task.getAttempt(attemptId);
    TaskAttemptState attemptState = attempt == null ? null : attempt.getState();
    String why = "specbridge: " + reason;
    switch (kind) {
      case SPECULATE: {
        String refusal = DecisionGuard.refusal(kind, taskState, null, taskId.getTaskType(),
            pendingSpeculation.contains(taskId));
        if (refusal != null) {
          return refusal;
        }
        if (!pendingSpeculation.add(taskId)) {
          return "a speculative attempt of this task is already pending";
        }
        for (int i = 0; i < copies; i++) {
          context.getEventHandler().handle(new TaskEvent(taskId, TaskEventType.T_ADD_SPEC_ATTEMPT));
        }
        BridgeSpeculator.LOG.info("specbridge: speculating " + taskId + " x" + copies + ": " + reason);
        return null;
      }
      case KILL:
      case RERUN: {
        String refusal = DecisionGuard.refusal(kind, taskState, attemptState, taskId.getTaskType(), false);
        if (refusal != null) {
          return refusal;
        }
        context.getEventHandler().handle(new TaskAttemptKillEvent(attemptId, why));
        BridgeSpeculator.LOG.info("specbridge: " + kind.wire + " " + attemptId + ": " + reason);
        return null;
      }
      case DROP: {
        String refusal = DecisionGuard.refusal(kind, taskState, null, taskId.getTaskType(), false);
        if (refusal != null) {
          return refusal;
        }
        context.getEventHandler().handle(new TaskEvent(taskId, TaskEventType.T_KILL));
        BridgeSpeculator.LOG.info("specbridge: dropping " + taskId + ": " + reason);
        return null;
      }
      default:
        return "unknown decision kind " + kindName;
    }
  }
}
