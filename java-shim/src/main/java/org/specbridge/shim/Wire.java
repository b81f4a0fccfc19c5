package org.specbridge.shim;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TypeConverter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormatCounter;
import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.Phase;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.yarn.api.records.NodeId;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Conversions between Hadoop's records and the protocol's JSON (bridge/PROTOCOL.md). */
final class Wire {
  static final int VERSION = 1;
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Wire() {
  }

  /** A frame of the given type, stamped with now on the AM's clock. */
  static ObjectNode frame(String type, long now) {
    ObjectNode f = NODES.objectNode();
    f.put("type", type);
    f.put("now", now);
    return f;
  }

  /**
   * Hadoop's string forms of the ids ({@code job_<cluster>_<nnnn>}, {@code task_..._m_<nnnnnn>},
   * {@code attempt_..._<n>}), written directly: TypeConverter's route builds three objects and formats each
   * number with a NumberFormat, several times the cost of translating the rest of an event. WireTest checks
   * that both agree.
   */
  static String jobId(JobId id) {
    return appendJob(new StringBuilder(24).append("job_"), id).toString();
  }

  static String taskId(TaskId id) {
    return appendTask(new StringBuilder(36).append("task_"), id).toString();
  }

  static String attemptId(TaskAttemptId id) {
    return appendTask(new StringBuilder(40).append("attempt_"), id.getTaskId()).append('_').append(id.getId())
        .toString();
  }

  private static StringBuilder appendJob(StringBuilder b, JobId id) {
    b.append(id.getAppId().getClusterTimestamp()).append('_');
    return pad(b, id.getId(), 4);
  }

  private static StringBuilder appendTask(StringBuilder b, TaskId id) {
    appendJob(b, id.getJobId()).append('_').append(id.getTaskType() == TaskType.MAP ? 'm' : 'r').append('_');
    return pad(b, id.getId(), 6);
  }

  /** Appends n with at least digits digits, zero-padded, as Hadoop's NumberFormat does (no grouping). */
  private static StringBuilder pad(StringBuilder b, int n, int digits) {
    long v = n;
    if (v < 0) {
      b.append('-');
      v = -v;
    }
    String s = Long.toString(v);
    for (int i = s.length(); i < digits; i++) {
      b.append('0');
    }
    return b.append(s);
  }

  static TaskId parseTaskId(String s) {
    return TypeConverter.toYarn(org.apache.hadoop.mapreduce.TaskID.forName(s));
  }

  static TaskAttemptId parseAttemptId(String s) {
    return TypeConverter.toYarn(org.apache.hadoop.mapreduce.TaskAttemptID.forName(s));
  }

  /**
   * The wire name of an attempt's node: the NodeManager's id {@code host:port} when hostPort (what the
   * ResourceManager's node list calls {@code id}), else its host. Without a NodeId (the AM always has one
   * for a launched attempt) it is the host of the NM's HTTP address, whose port is not the NodeId's.
   */
  static String node(NodeId node, String httpAddress, boolean hostPort) {
    if (hostPort && node != null && node.getHost() != null) {
      return node.getHost() + ":" + node.getPort();
    }
    return host(node, httpAddress);
  }

  static String host(NodeId node, String httpAddress) {
    if (node != null && node.getHost() != null) {
      return node.getHost();
    }
    if (httpAddress == null) {
      return "";
    }
    int colon = httpAddress.lastIndexOf(':');
    return colon < 0 ? httpAddress : httpAddress.substring(0, colon);
  }

  static String phase(Phase p, TaskType type) {
    if (p == null) {
      return type == TaskType.MAP ? "MAP" : "SHUFFLE";
    }
    switch (p) {
      case SHUFFLE:
        return "SHUFFLE";
      case SORT:
        return "SORT";
      case REDUCE:
        return "REDUCE";
      case MAP:
        return "MAP";
      default: // STARTING, CLEANUP
        if (type == TaskType.MAP) {
          return "MAP";
        }
        return p == Phase.CLEANUP ? "REDUCE" : "SHUFFLE";
    }
  }

  /** The end-of-attempt event kind for a terminal state, or null for a live one. */
  static String endKind(TaskAttemptState s) {
    switch (s) {
      case SUCCEEDED:
        return Protocol.EVENT_ATTEMPT_SUCCEEDED;
      case FAILED:
        return Protocol.EVENT_ATTEMPT_FAILED;
      case KILLED:
        return Protocol.EVENT_ATTEMPT_KILLED;
      default:
        return null;
    }
  }

  /** The snapshot state name of an attempt state, or null if the attempt has not started. */
  static String snapshotState(TaskAttemptState s) {
    switch (s) {
      case STARTING:
      case RUNNING:
      case COMMIT_PENDING:
        return Protocol.STATE_RUNNING;
      case SUCCEEDED:
        return Protocol.STATE_SUCCEEDED;
      case FAILED:
        return Protocol.STATE_FAILED;
      case KILLED:
        return Protocol.STATE_KILLED;
      default:
        return null;
    }
  }

  private static final String TASK = TaskCounter.class.getName();
  private static final String FILE_INPUT = FileInputFormatCounter.class.getName();
  private static final String FILE_OUTPUT = FileOutputFormatCounter.class.getName();
  private static final String FILE_SYSTEM = FileSystemCounter.class.getName();

  /**
   * The counters the policies use, read without creating any: Counters.findCounter adds missing
   * counters and groups, which would mutate Hadoop's objects from the shim's thread.
   */
  static ObjectNode counters(Counters c, TaskType type) {
    ObjectNode n = NODES.objectNode();
    if (c == null) {
      return n;
    }
    Map<String, Long> v = new HashMap<String, Long>();
    try {
      for (CounterGroup g : c) {
        String group = g.getName();
        if (!group.equals(TASK) && !group.equals(FILE_INPUT) && !group.equals(FILE_OUTPUT) && !group.equals(FILE_SYSTEM)) {
          continue;
        }
        for (Counter counter : g) {
          v.put(group + "." + counter.getName(), counter.getValue());
        }
      }
    } catch (RuntimeException e) {
      // Counters changed under us (ConcurrentModificationException): send what was read.
    }
    if (type == TaskType.MAP) {
      long in = get(v, FILE_INPUT, FileInputFormatCounter.BYTES_READ.name());
      put(n, "input_bytes", in != 0 ? in : get(v, FILE_SYSTEM, "HDFS_" + FileSystemCounter.BYTES_READ.name()));
      put(n, "input_records", get(v, TASK, TaskCounter.MAP_INPUT_RECORDS.name()));
      put(n, "output_bytes", get(v, TASK, TaskCounter.MAP_OUTPUT_BYTES.name()));
      put(n, "output_records", get(v, TASK, TaskCounter.MAP_OUTPUT_RECORDS.name()));
    } else {
      put(n, "input_bytes", get(v, TASK, TaskCounter.REDUCE_SHUFFLE_BYTES.name()));
      put(n, "input_records", get(v, TASK, TaskCounter.REDUCE_INPUT_RECORDS.name()));
      put(n, "output_bytes", get(v, FILE_OUTPUT, FileOutputFormatCounter.BYTES_WRITTEN.name()));
      put(n, "output_records", get(v, TASK, TaskCounter.REDUCE_OUTPUT_RECORDS.name()));
    }
    put(n, "cpu_ms", get(v, TASK, TaskCounter.CPU_MILLISECONDS.name()));
    put(n, "gc_ms", get(v, TASK, TaskCounter.GC_TIME_MILLIS.name()));
    put(n, "spilled_records", get(v, TASK, TaskCounter.SPILLED_RECORDS.name()));
    return n;
  }

  private static long get(Map<String, Long> v, String group, String name) {
    Long x = v.get(group + "." + name);
    return x == null ? 0 : x;
  }

  private static void put(ObjectNode n, String name, long v) {
    if (v != 0) {
      n.put(name, v);
    }
  }

  static ArrayNode fetchFailedMaps(List<TaskAttemptId> maps) {
    ArrayNode a = NODES.arrayNode();
    if (maps != null) {
      for (TaskAttemptId m : maps) {
        a.add(taskId(m.getTaskId()));
      }
    }
    return a;
  }
}
