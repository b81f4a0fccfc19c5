package org.specbridge.shim;

import java.util.Map;

import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Builds the {@code resync} frame (bridge/PROTOCOL.md, resync): a snapshot of every started attempt of the job,
 * and rebuilds the {@link AttemptTracker} from the same walk. The one walk of the whole job, made once per
 * (re)connection or after the event queue overflowed.
 */
final class ResyncSnapshot {
  private ResyncSnapshot() {
  }

  /**
   * The snapshot of job id (none while id is null), stamped now. Clears tracker and refills it with the live
   * attempts and succeeded maps the snapshot reports; needs are the container needs per type (map, reduce).
   */
  static ObjectNode build(AppContext context, ShimConfig settings, AttemptTracker tracker, JobId id, int[] needs,
      long now) {
    ObjectNode r = Wire.frame(Protocol.TYPE_RESYNC, now);
    ArrayNode attempts = r.putArray("attempts");
    Job job = id == null ? null : context.getJob(id);
    tracker.clear();
    if (job != null) {
      for (Task task : job.getTasks().values()) {
        TaskType type = task.getID().getTaskType();
        Map<TaskAttemptId, TaskAttempt> all = task.getAttempts();
        for (TaskAttempt ta : all.values()) {
          String state = Wire.snapshotState(ta.getState());
          if (state == null || ta.getLaunchTime() <= 0) {
            continue;
          }
          ObjectNode a = attempts.addObject();
          a.put("attempt", Wire.attemptId(ta.getID()));
          a.put("state", state);
          a.put("node", Wire.node(ta.getNodeId(), ta.getNodeHttpAddress(), settings.nodeHostPort));
          if (ta.getAssignedContainerID() != null) {
            a.put("container", ta.getAssignedContainerID().toString());
          }
          a.put("speculative", ta.getID().getId() > 0 && all.size() > 1);
          a.put("start", ta.getLaunchTime());
          a.put("progress", Math.max(0f, Math.min(1f, ta.getProgress())));
          a.put("phase", Wire.phase(ta.getPhase(), type));
          a.set("counters", Wire.counters(ta.getCounters(), type));
          if (Protocol.STATE_RUNNING.equals(state)) {
            a.put("last_report", Math.max(now, ta.getLaunchTime()));
            tracker.live(ta.getID());
          } else {
            a.put("finish", Math.max(ta.getFinishTime(), ta.getLaunchTime()));
            tracker.announce(ta.getID());
            if (Protocol.STATE_SUCCEEDED.equals(state) && type == TaskType.MAP) {
              tracker.succeededMap(ta.getID());
            }
          }
        }
      }
    }
    ArrayNode n = r.putArray("container_needs");
    n.addObject().put("task_type", "map").put("count", needs[0]);
    n.addObject().put("task_type", "reduce").put("count", needs[1]);
    return r;
  }
}
