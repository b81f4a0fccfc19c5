package org.specbridge.shim;

import java.util.List;

import org.apache.hadoop.mapreduce.Counter;
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

  static String jobId(JobId id) {
    return TypeConverter.fromYarn(id).toString();
  }

  static String taskId(TaskId id) {
    return TypeConverter.fromYarn(id).toString();
  }

  static String attemptId(TaskAttemptId id) {
    return TypeConverter.fromYarn(id).toString();
  }

  static TaskId parseTaskId(String s) {
    return TypeConverter.toYarn(org.apache.hadoop.mapreduce.TaskID.forName(s));
  }

  static TaskAttemptId parseAttemptId(String s) {
    return TypeConverter.toYarn(org.apache.hadoop.mapreduce.TaskAttemptID.forName(s));
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
        return "attempt-succeeded";
      case FAILED:
        return "attempt-failed";
      case KILLED:
        return "attempt-killed";
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
        return "RUNNING";
      case SUCCEEDED:
        return "SUCCEEDED";
      case FAILED:
        return "FAILED";
      case KILLED:
        return "KILLED";
      default:
        return null;
    }
  }

  static ObjectNode counters(Counters c, TaskType type) {
    ObjectNode n = NODES.objectNode();
    if (c == null) {
      return n;
    }
    if (type == TaskType.MAP) {
      put(n, "input_bytes", value(c.findCounter(FileInputFormatCounter.BYTES_READ)));
      put(n, "input_records", value(c.findCounter(TaskCounter.MAP_INPUT_RECORDS)));
      put(n, "output_bytes", value(c.findCounter(TaskCounter.MAP_OUTPUT_BYTES)));
      put(n, "output_records", value(c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS)));
    } else {
      put(n, "input_bytes", value(c.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES)));
      put(n, "input_records", value(c.findCounter(TaskCounter.REDUCE_INPUT_RECORDS)));
      put(n, "output_bytes", value(c.findCounter(FileOutputFormatCounter.BYTES_WRITTEN)));
      put(n, "output_records", value(c.findCounter(TaskCounter.REDUCE_OUTPUT_RECORDS)));
    }
    put(n, "cpu_ms", value(c.findCounter(TaskCounter.CPU_MILLISECONDS)));
    put(n, "gc_ms", value(c.findCounter(TaskCounter.GC_TIME_MILLIS)));
    put(n, "spilled_records", value(c.findCounter(TaskCounter.SPILLED_RECORDS)));
    if (!n.has("input_bytes")) {
      put(n, "input_bytes", value(c.findCounter("FileSystemCounters", "HDFS_" + FileSystemCounter.BYTES_READ.name())));
    }
    return n;
  }

  private static long value(Counter c) {
    return c == null ? 0 : c.getValue();
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
