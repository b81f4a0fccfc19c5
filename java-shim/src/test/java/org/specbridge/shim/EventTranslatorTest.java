package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.api.records.Phase;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.speculate.SpeculatorEvent;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Speculator events to protocol events, against a fake AM (FakeAm). */
class EventTranslatorTest {
  private final FakeAm am = new FakeAm();
  private final EventTranslator t = new EventTranslator(am.context, settings());

  private static ShimConfig settings() {
    Configuration c = new Configuration(false);
    c.set(ShimConfig.URL, "ws://127.0.0.1:1/v1/am");
    c.set(ShimConfig.TOKEN, "secret");
    c.set(ShimConfig.SPECULATOR, "late");
    c.set(ShimConfig.PARAM_PREFIX + "late.min-runtime-ms", "1000");
    return ShimConfig.from(c);
  }

  private ArrayNode translate(SpeculatorEvent... events) {
    t.translate(java.util.Arrays.asList(events));
    return take();
  }

  /** The events the translator holds, as the events array of a frame. */
  private ArrayNode take() {
    int n = t.pendingEvents();
    String inside = new String(t.takeEvents(), StandardCharsets.UTF_8);
    try {
      ArrayNode a = (ArrayNode) new ObjectMapper().readTree("[" + inside + "]");
      assertEquals(n, a.size(), "pendingEvents");
      assertEquals(0, t.pendingEvents());
      return a;
    } catch (java.io.IOException e) {
      throw new AssertionError("not JSON: [" + inside + "]", e);
    }
  }

  private static SpeculatorEvent status(FakeAm.Attempt a, float progress) {
    TaskAttemptStatus st = new TaskAttemptStatus();
    st.id = a.id;
    st.progress = progress;
    st.phase = Phase.MAP;
    st.taskState = TaskAttemptState.RUNNING;
    return new SpeculatorEvent(st, 1700000000500L);
  }

  @Test
  void aJobsEventsBecomeProtocolEvents() {
    assertNull(t.hello(), "no hello before the job is known");
    FakeAm.Attempt a = am.attempt("m", 0, 0);
    a.launchTime = 1700000000100L;
    ArrayNode out = translate(new SpeculatorEvent(am.jobId, 1L), new SpeculatorEvent(a.id, true, 1700000000200L),
        status(a, 1.7f));
    assertEquals(2, out.size(), out.toString());
    JsonNode start = out.get(0);
    assertEquals("attempt-started", start.path("kind").asText());
    assertEquals("attempt_1700000000000_0001_m_000000_0", start.path("attempt").asText());
    assertEquals(1700000000100L, start.path("time").asLong(), "the attempt's launch time");
    assertEquals("worker-1:45454", start.path("node").asText());
    assertFalse(start.path("speculative").asBoolean());
    JsonNode st = out.get(1);
    assertEquals("attempt-status", st.path("kind").asText());
    assertEquals(1.0, st.path("progress").asDouble(), "progress is clamped to [0, 1]");
    assertEquals("MAP", st.path("phase").asText());

    ObjectNode hello = t.hello();
    assertEquals(FakeAm.JOB, hello.path("job").asText());
    assertEquals("late", hello.path("speculator").asText());
    assertEquals("1000", hello.path("params").path("min-runtime-ms").asText());
    assertEquals("secret", hello.path("token").asText());
    assertFalse(hello.has("slots"), "slots unknown (no specbridge.cluster.slots): left out, " + hello);
    assertFalse(hello.has("task_mean_ms") || hello.has("task_tail_index"), "no task model: left out, " + hello);
  }

  /** The hello of a translator whose job sets speculator and the given key, value pairs. */
  private ObjectNode helloWith(String speculator, String... settings) {
    Configuration c = new Configuration(false);
    c.set(ShimConfig.URL, "ws://127.0.0.1:1/v1/am");
    c.set(ShimConfig.TOKEN, "secret");
    c.set(ShimConfig.SPECULATOR, speculator);
    for (int i = 0; i < settings.length; i += 2) {
      c.set(settings[i], settings[i + 1]);
    }
    EventTranslator other = new EventTranslator(am.context, ShimConfig.from(c));
    other.translate(java.util.Arrays.asList(new SpeculatorEvent(am.jobId, 1L)));
    return other.hello();
  }

  @Test
  void theHelloCarriesTheJobsTaskModelWhenConfigured() {
    ObjectNode hello = helloWith("ese", ShimConfig.TASK_MEAN_MS, "2500", ShimConfig.TASK_TAIL_INDEX, "2.5");
    assertEquals(2500.0, hello.path("task_mean_ms").asDouble(), hello.toString());
    assertEquals(2.5, hello.path("task_tail_index").asDouble(), hello.toString());
  }

  /**
   * Events that name no attempt or task, as Hadoop's AM can send them (TaskAttemptImpl's initial status, id null,
   * when an attempt succeeds before any report: UnreportedSuccessMRAppTest), are skipped without an exception
   * (one would drop the session), and the events around them still go out.
   */
  @Test
  void eventsNamingNoAttemptAreSkipped() {
    FakeAm.Attempt a = am.attempt("m", 0, 0);
    TaskAttemptStatus initial = new TaskAttemptStatus();
    initial.progress = 1f;
    initial.stateString = "NEW";
    initial.taskState = TaskAttemptState.NEW;
    TaskAttemptStatus bare = new TaskAttemptStatus(); // an id and nothing else
    bare.id = a.id;
    ArrayNode out = translate(new SpeculatorEvent(am.jobId, 1L), new SpeculatorEvent(initial, 2L),
        new SpeculatorEvent((TaskAttemptStatus) null, 3L), new SpeculatorEvent((TaskId) null, 1),
        new SpeculatorEvent(bare, 4L), status(a, 0.5f));
    assertEquals(3, out.size(), out.toString());
    assertEquals("attempt-started", out.get(0).path("kind").asText(), "a report whose start never came announces it");
    assertEquals("attempt-status", out.get(1).path("kind").asText());
    assertEquals("MAP", out.get(1).path("phase").asText(), "a status without a phase: its task type's");
    assertEquals(0.5, out.get(2).path("progress").asDouble());
    assertEquals(FakeAm.JOB, t.hello().path("job").asText());
  }

  /**
   * The AM forwards a start only for a task type whose speculation is on, but every report: a job with
   * mapreduce.reduce.speculative=false sends its reduce's reports alone. The first announces the attempt, from
   * the AM's record; later ones do not.
   */
  @Test
  void aReportWhoseStartNeverCameAnnouncesTheAttemptOnce() {
    FakeAm.Attempt m = am.attempt("m", 0, 0);
    FakeAm.Attempt r = am.attempt("r", 0, 0);
    r.launchTime = 1700000000300L;
    translate(new SpeculatorEvent(m.id, true, 1L));
    TaskAttemptStatus st = new TaskAttemptStatus();
    st.id = r.id;
    st.progress = 0.1f;
    st.phase = Phase.SHUFFLE;
    st.taskState = TaskAttemptState.RUNNING;
    ArrayNode out = translate(new SpeculatorEvent(st, 1700000000500L));
    assertEquals(2, out.size(), out.toString());
    assertEquals("attempt-started", out.get(0).path("kind").asText());
    assertEquals(Wire.attemptId(r.id), out.get(0).path("attempt").asText());
    assertEquals(1700000000300L, out.get(0).path("time").asLong(), "the attempt's launch time");
    assertEquals(false, out.get(0).path("speculative").asBoolean());
    assertEquals("attempt-status", out.get(1).path("kind").asText());
    out = translate(new SpeculatorEvent(st, 1700000000600L));
    assertEquals(1, out.size(), "announced once: " + out);
    assertEquals("attempt-status", out.get(0).path("kind").asText());
  }

  @Test
  void theHelloCarriesTheClusterSlotsWhenConfigured() {
    ObjectNode hello = helloWith("sca", ShimConfig.CLUSTER_SLOTS, "96");
    assertEquals(96, hello.path("slots").asInt(), hello.toString());
    assertEquals("sca", hello.path("speculator").asText());
  }

  @Test
  void aCopyIsSpeculativeAndASuccessFollowsItsLastReport() {
    FakeAm.Attempt a = am.attempt("m", 0, 0);
    FakeAm.Attempt copy = am.attempt("m", 0, 1);
    ArrayNode out = translate(new SpeculatorEvent(a.id, true, 1L), new SpeculatorEvent(copy.id, true, 2L));
    assertTrue(out.get(1).path("speculative").asBoolean());

    copy.state = TaskAttemptState.SUCCEEDED;
    copy.finishTime = 1700000000900L;
    a.state = TaskAttemptState.KILLED;
    out = translate(status(copy, 1f));
    assertEquals(3, out.size(), out.toString());
    assertEquals("attempt-status", out.get(0).path("kind").asText());
    assertEquals("attempt-killed", out.get(1).path("kind").asText());
    assertEquals("attempt-succeeded", out.get(2).path("kind").asText());
    assertEquals(1700000000900L, out.get(2).path("time").asLong());
    assertEquals(0, t.tracker().liveAttempts());
  }

  @Test
  void eachEventCostsAConstantNumberOfLookupsWhateverTheJobsSize() {
    for (int i = 0; i < 5000; i++) {
      FakeAm.Attempt a = am.attempt("m", i, 0);
      translate(new SpeculatorEvent(a.id, true, 1L));
      a.state = TaskAttemptState.SUCCEEDED;
      translate(status(a, 1f));
    }
    assertEquals(5000, t.tracker().succeededMaps());
    FakeAm.Attempt last = am.attempt("m", 5000, 0);
    int before = am.lookups;
    translate(new SpeculatorEvent(last.id, true, 1L), status(last, 0.5f), new SpeculatorEvent(last.id.getTaskId(), -1));
    assertTrue(am.lookups - before <= 3, (am.lookups - before) + " lookups for 3 events of a 5001-task job");
  }

  @Test
  void aReportOfARunningAttemptLooksNothingUp() {
    FakeAm.Attempt a = am.attempt("m", 0, 0);
    translate(new SpeculatorEvent(a.id, true, 1L));
    int before = am.lookups;
    for (int i = 0; i < 10; i++) {
      assertEquals(1, translate(status(a, 0.1f * i)).size());
    }
    assertEquals(before, am.lookups);
  }

  @Test
  void containerNeedsAccumulateAndANewRequestRevealsALostMapOutput() {
    FakeAm.Attempt a = am.attempt("m", 2, 0);
    translate(new SpeculatorEvent(a.id, true, 1L));
    a.state = TaskAttemptState.SUCCEEDED;
    translate(status(a, 1f));

    ArrayNode out = translate(new SpeculatorEvent(a.id.getTaskId(), -1));
    assertEquals(0, out.get(0).path("count").asInt(), "never below zero");
    a.state = TaskAttemptState.KILLED; // its node was lost after success
    out = translate(new SpeculatorEvent(a.id.getTaskId(), +1));
    assertEquals(2, out.size(), out.toString());
    assertEquals("attempt-killed", out.get(0).path("kind").asText());
    assertEquals("attempt_1700000000000_0001_m_000002_0", out.get(0).path("attempt").asText());
    assertEquals("container-needs", out.get(1).path("kind").asText());
    assertEquals("map", out.get(1).path("task_type").asText());
    assertEquals(1, out.get(1).path("count").asInt());
  }

  /**
   * Hadoop's container-need events carry no time (AbstractEvent's -1); the sidecar rejects a frame holding a
   * negative time as malformed, with every start and end in it. They take the AM's clock.
   */
  @Test
  void anUnstampedContainerNeedTakesTheAmsClock() {
    FakeAm.Attempt m0 = am.attempt("m", 0, 0);
    SpeculatorEvent need = new SpeculatorEvent(m0.id.getTaskId(), +1);
    assertEquals(-1L, need.getTimestamp(), "Hadoop stamps container-need events with -1");
    am.clock.setTime(1700000004321L);
    ArrayNode out = translate(need);
    assertEquals(1, out.size(), out.toString());
    assertEquals(1700000004321L, out.get(0).path("time").asLong(), out.toString());
  }

  @Test
  void aBatchReportsEachContainerNeedOnceAsItStandsAfterTheBatch() {
    FakeAm.Attempt m0 = am.attempt("m", 0, 0);
    FakeAm.Attempt m1 = am.attempt("m", 1, 0);
    FakeAm.Attempt r0 = am.attempt("r", 0, 0);
    ArrayNode out = translate(new SpeculatorEvent(m0.id.getTaskId(), +1), new SpeculatorEvent(m1.id.getTaskId(), +1),
        new SpeculatorEvent(r0.id.getTaskId(), +1), new SpeculatorEvent(m0.id.getTaskId(), -1));
    assertEquals(2, out.size(), out.toString());
    assertEquals("map", out.get(0).path("task_type").asText());
    assertEquals(1, out.get(0).path("count").asInt());
    assertEquals("reduce", out.get(1).path("task_type").asText());
    assertEquals(1, out.get(1).path("count").asInt());
    assertEquals(0, translate(new SpeculatorEvent(m0.id, true, 1L)).findValues("count").size(),
        "no change, no container-needs event");
  }

  @Test
  void theSweepReportsAKilledRunningAttempt() {
    FakeAm.Attempt a = am.attempt("r", 0, 0);
    translate(new SpeculatorEvent(a.id, true, 1L));
    a.state = TaskAttemptState.FAILED;
    t.sweep();
    ArrayNode out = take();
    assertEquals(1, out.size());
    assertEquals("attempt-failed", out.get(0).path("kind").asText());
    assertEquals(am.clock.getTime(), out.get(0).path("time").asLong());
  }

  @Test
  void aResyncSnapshotsTheJobAndRebuildsTheTracker() {
    FakeAm.Attempt running = am.attempt("m", 0, 0);
    FakeAm.Attempt done = am.attempt("m", 1, 0);
    done.state = TaskAttemptState.SUCCEEDED;
    done.finishTime = done.launchTime + 10;
    FakeAm.Attempt waiting = am.attempt("m", 2, 0);
    waiting.state = TaskAttemptState.STARTING;
    waiting.launchTime = 0; // not launched: not in the snapshot
    translate(new SpeculatorEvent(am.jobId, 1L), new SpeculatorEvent(running.id.getTaskId(), +1));
    ObjectNode r = t.resync();
    assertEquals("resync", r.path("type").asText());
    assertEquals(2, r.path("attempts").size(), r.toString());
    assertEquals(1, t.tracker().liveAttempts());
    assertEquals(1, t.tracker().succeededMaps());
    assertEquals(1, r.path("container_needs").get(0).path("count").asInt());
  }
}
