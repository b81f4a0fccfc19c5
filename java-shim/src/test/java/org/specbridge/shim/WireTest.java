package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TypeConverter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.apache.hadoop.mapreduce.v2.api.records.Phase;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

class WireTest {
  @Test
  void hadoopIdsRoundTrip() {
    String s = "attempt_1700000000000_0001_r_000012_3";
    TaskAttemptId id = Wire.parseAttemptId(s);
    assertEquals(s, Wire.attemptId(id));
    assertEquals("task_1700000000000_0001_r_000012", Wire.taskId(id.getTaskId()));
    assertEquals("job_1700000000000_0001", Wire.jobId(id.getTaskId().getJobId()));
  }

  @Test
  void idsAreSpelledAsHadoopSpellsThem() {
    String[] attempts = {"attempt_1700000000000_0001_m_000000_0", "attempt_1_12345_r_1234567_12",
        "attempt_1700000000000_9999_m_999999_3", "attempt_42_0000_r_000007_0"};
    for (String s : attempts) {
      TaskAttemptId id = Wire.parseAttemptId(s);
      assertEquals(TypeConverter.fromYarn(id).toString(), Wire.attemptId(id));
      assertEquals(TypeConverter.fromYarn(id.getTaskId()).toString(), Wire.taskId(id.getTaskId()));
      assertEquals(TypeConverter.fromYarn(id.getTaskId().getJobId()).toString(),
          Wire.jobId(id.getTaskId().getJobId()));
    }
  }

  @Test
  void countersAreReadWithoutCreatingAny() {
    Counters c = new Counters();
    c.findCounter(TaskCounter.MAP_INPUT_RECORDS).setValue(10);
    c.findCounter(FileInputFormatCounter.BYTES_READ).setValue(4096);
    c.findCounter(TaskCounter.CPU_MILLISECONDS).setValue(900);
    int groups = c.countCounters();
    ObjectNode n = Wire.counters(c, TaskType.MAP);
    assertEquals(4096, n.path("input_bytes").asLong());
    assertEquals(10, n.path("input_records").asLong());
    assertEquals(900, n.path("cpu_ms").asLong());
    assertFalse(n.has("gc_ms"));
    assertEquals(groups, c.countCounters(), "reading created counters");
  }

  @Test
  void nodesAreNamedByNodeManagerIdOrHost() {
    NodeId nm = NodeId.newInstance("worker-7", 45454);
    assertEquals("worker-7:45454", Wire.node(nm, "worker-7:8042", true));
    assertEquals(nm.toString(), Wire.node(nm, "worker-7:8042", true), "the ResourceManager's node id");
    assertEquals("worker-7", Wire.node(nm, "worker-7:8042", false));
    // Two NodeManagers on one host stay apart with host-port and merge with host.
    NodeId sibling = NodeId.newInstance("worker-7", 45455);
    assertNotEquals(Wire.node(nm, null, true), Wire.node(sibling, null, true));
    assertEquals(Wire.node(nm, null, false), Wire.node(sibling, null, false));
    // Without a NodeId only the HTTP address's host is known.
    assertEquals("worker-9", Wire.node(null, "worker-9:8042", true));
    assertEquals("", Wire.node(null, null, true));
  }

  @Test
  void phasesMapToTheProtocol() {
    assertEquals("MAP", Wire.phase(Phase.STARTING, TaskType.MAP));
    assertEquals("SHUFFLE", Wire.phase(null, TaskType.REDUCE));
    assertEquals("SORT", Wire.phase(Phase.SORT, TaskType.REDUCE));
    assertEquals("REDUCE", Wire.phase(Phase.CLEANUP, TaskType.REDUCE));
  }
}
