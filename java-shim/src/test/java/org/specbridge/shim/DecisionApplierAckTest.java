package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;

import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The ack a decisions frame gets, on a fake AM (what each decision does to a real AM is tested on MRApp in
 * BridgeSpeculatorMRAppTest).
 */
class DecisionApplierAckTest {
  private final FakeAm am = new FakeAm();
  private final DecisionApplier applier = new DecisionApplier(am.context, new HashSet<TaskId>());

  private static JsonNode decisions(String json) throws Exception {
    return new ObjectMapper().readTree(json);
  }

  @Test
  void everyDecisionIsRefusedWhileTheSidecarIsNotInCharge() throws Exception {
    ObjectNode ack = applier.ack(decisions("[{\"id\": 7, \"kind\": \"speculate\", \"task\": \"task_1700000000000_0001_m_000000\", \"member\": \"sca\"},"
        + "{\"id\": 8, \"kind\": \"kill\", \"attempt\": \"attempt_1700000000000_0001_m_000000_0\"}]"), false, 42L);
    assertEquals("ack", ack.path("type").asText());
    assertEquals(42L, ack.path("now").asLong());
    assertEquals(2, ack.path("acks").size());
    for (JsonNode a : ack.path("acks")) {
      assertEquals("refused", a.path("result").asText());
      assertTrue(a.path("reason").asText().contains("not in charge"), a.toString());
    }
    assertEquals(7, ack.path("acks").get(0).path("id").asLong());
    assertEquals(2, applier.refused.get());
    assertTrue(am.dispatched.isEmpty());
    assertEquals(2, am.counter(SpecbridgeCounter.DECISIONS_REFUSED), "the job's refused-decisions counter");
    assertEquals(0, am.counter(SpecbridgeMember.SCA), "a refused decision counted for its member");
  }

  @Test
  void memberNamesMapToTheirCounters() {
    assertEquals(SpecbridgeMember.SCA, SpecbridgeMember.of("sca"));
    assertEquals(SpecbridgeMember.HADOOP_LEGACY, SpecbridgeMember.of("hadoop-legacy"));
    assertEquals(SpecbridgeMember.OTHER, SpecbridgeMember.of("a-policy-of-tomorrow"));
    assertEquals(SpecbridgeMember.OTHER, SpecbridgeMember.of("SCA "));
    assertEquals(null, SpecbridgeMember.of(""));
    assertEquals(null, SpecbridgeMember.of(null));
  }

  @Test
  void unknownKindsAndBadIdsAreRefusedWithTheReason() throws Exception {
    ObjectNode ack = applier.ack(decisions("[{\"id\": 1, \"kind\": \"explode\"},"
        + "{\"id\": 2, \"kind\": \"kill\", \"attempt\": \"not-an-attempt\"},"
        + "{\"id\": 3, \"kind\": \"speculate\", \"task\": \"task_1700000000000_0001_m_000009\"}]"), true, 1L);
    assertEquals("unknown decision kind explode", ack.path("acks").get(0).path("reason").asText());
    assertTrue(ack.path("acks").get(1).path("reason").asText().startsWith("bad id: "), ack.toString());
    assertEquals("the job has no such task", ack.path("acks").get(2).path("reason").asText());
    assertEquals(0, applier.applied.get());
    assertTrue(am.dispatched.isEmpty());
    // Only the decision naming a task of the job counts against it (the others name no job).
    assertEquals(1, am.counter(SpecbridgeCounter.DECISIONS_REFUSED));
    assertEquals(0, am.counter(SpecbridgeCounter.SPECULATIVE_ATTEMPTS));
  }

  /** A copy of a task type whose speculation the job has off is refused, as the simulator launches none. */
  @Test
  void aCopyOfATaskTypeWhoseSpeculationIsOffIsRefused() throws Exception {
    am.attempt("m", 0, 0);
    am.attempt("r", 0, 0);
    String both = "[{\"id\": 1, \"kind\": \"speculate\", \"task\": \"task_1700000000000_0001_r_000000\"},"
        + "{\"id\": 2, \"kind\": \"speculate\", \"task\": \"task_1700000000000_0001_m_000000\"}]";
    ObjectNode on = applier.ack(decisions(both), true, 1L);
    for (JsonNode a : on.path("acks")) {
      assertTrue(!a.path("reason").asText().contains("speculative"), "speculation on: " + a);
    }
    applier.speculationOn(true, false);
    ObjectNode off = applier.ack(decisions(both), true, 2L);
    assertEquals("mapreduce.reduce.speculative is false for this job", off.path("acks").get(0).path("reason").asText());
    assertTrue(!off.path("acks").get(1).path("reason").asText().contains("speculative"), "maps stay on: " + off);
    assertTrue(am.dispatched.isEmpty());
  }
}
