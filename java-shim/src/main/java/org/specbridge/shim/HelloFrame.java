package org.specbridge.shim;

import java.lang.reflect.Method;
import java.util.Map;

import org.apache.hadoop.mapreduce.split.JobSplit;
import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Builds the {@code hello} frame (bridge/PROTOCOL.md, hello): the job's identity and size from the AppContext, the
 * policy and parameters from the job's configuration, and each map's input split size, read by reflection.
 */
final class HelloFrame {
  private HelloFrame() {
  }

  /** The hello for job id, stamped now on the AM's clock. */
  static ObjectNode build(AppContext context, ShimConfig settings, JobId id, long now) {
    ObjectNode h = Wire.frame(Protocol.TYPE_HELLO, now);
    h.put("version", Wire.VERSION);
    h.put("token", settings.token);
    h.put("job", Wire.jobId(id));
    Job job = context.getJob(id);
    if (job != null) {
      h.put("user", job.getUserName());
      h.put("queue", job.getQueueName());
      h.put("maps", job.getTotalMaps());
      h.put("reduces", job.getTotalReduces());
      long[] sizes = mapInputBytes(job);
      if (sizes != null) {
        ArrayNode a = h.putArray("map_input_bytes");
        for (long b : sizes) {
          a.add(b);
        }
      }
    }
    // "slots" (PROTOCOL.md, hello): the cluster's containers from specbridge.cluster.slots, else left out
    // (unknown). The AM learns the cluster's capacity only as the RM's headroom for this application, inside
    // RMContainerAllocator, which the AppContext does not expose (ClusterInfo holds only the largest
    // container), and that headroom moves with every other queue's load; so the operator says it. The
    // policies that use slots say what they do without (LATE's cap counts running attempts, GRASS takes one
    // free slot per Decide, SCA and Dolly take the cluster as roomy).
    if (settings.clusterSlots > 0) {
      h.put("slots", settings.clusterSlots);
    }
    h.put("speculator", settings.speculator);
    ObjectNode params = h.putObject("params");
    for (Map.Entry<String, String> e : settings.params.entrySet()) {
      params.put(e.getKey(), e.getValue());
    }
    long start = context.getStartTime();
    h.put("start", start);
    // Approximation bounds (PROTOCOL.md, hello): the deadline is absolute on the AM's clock.
    if (settings.deadlineMs > 0) {
      h.put("deadline", start + settings.deadlineMs);
    }
    if (settings.errorBound > 0) {
      h.put("error_bound", settings.errorBound);
    }
    // The job's a-priori task-time model (PROTOCOL.md, hello), left out when unknown.
    if (settings.taskMeanMs > 0) {
      h.put("task_mean_ms", settings.taskMeanMs);
    }
    if (settings.taskTailIndex > 0) {
      h.put("task_tail_index", settings.taskTailIndex);
    }
    return h;
  }

  private static volatile Method splitInfoGetter;

  /**
   * Each map's input split size in bytes ({@code TaskSplitMetaInfo.getInputDataLength}, what JobImpl read from
   * the job's split meta info), by task index, or null when it cannot be read. Hadoop keeps it in
   * {@code MapTaskImpl} behind a protected getter and offers it nowhere public in the AM, so it is read by
   * reflection (present in Hadoop 3.4 and 3.5); on any failure the hello simply carries no sizes and the
   * policies estimate t_new without normalising by input, as before.
   */
  static long[] mapInputBytes(Job job) {
    int n = job.getTotalMaps();
    Map<TaskId, Task> maps = job.getTasks(TaskType.MAP);
    if (n <= 0 || maps == null || maps.size() != n) {
      return null;
    }
    long[] out = new long[n];
    boolean[] seen = new boolean[n];
    try {
      for (Task t : maps.values()) {
        int i = t.getID().getId();
        if (i < 0 || i >= n || seen[i]) {
          return null;
        }
        Method m = splitInfoGetter;
        if (m == null) {
          m = findMethod(t.getClass(), "getTaskSplitMetaInfo");
          if (m == null) {
            return null;
          }
          m.setAccessible(true);
          splitInfoGetter = m;
        }
        Object info = m.invoke(t);
        if (!(info instanceof JobSplit.TaskSplitMetaInfo)) {
          return null;
        }
        out[i] = Math.max(0, ((JobSplit.TaskSplitMetaInfo) info).getInputDataLength());
        seen[i] = true;
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      BridgeSpeculator.LOG.debug("specbridge: map input sizes not readable", e);
      return null;
    }
    return out;
  }

  private static Method findMethod(Class<?> c, String name) {
    for (; c != null; c = c.getSuperclass()) {
      try {
        return c.getDeclaredMethod(name);
      } catch (NoSuchMethodException e) {
        // look further up
      }
    }
    return null;
  }
}
