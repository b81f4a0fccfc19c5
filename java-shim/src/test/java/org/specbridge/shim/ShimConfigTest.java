package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Collections;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShimConfigTest {
  @TempDir
  File dir;

  @Test
  void defaults() {
    ShimConfig c = from();
    assertFalse(c.sidecarConfigured());
    assertEquals("hadoop", c.speculator);
    assertEquals(1000, c.timeoutMs);
    assertEquals(250, c.pingMs);
    assertTrue(c.fallbackEnabled);
    assertEquals(Collections.emptyMap(), c.params);
    assertTrue(c.nodeHostPort, "nodes are keyed host:port unless told otherwise");
    assertEquals(0, c.clusterSlots, "the cluster's slots are unknown unless told");
    assertEquals(0.0, c.taskMeanMs, "the job's mean task time is unknown unless told");
    assertEquals(0.0, c.taskTailIndex, "the job's tail index is unknown unless told");
  }

  /** The settings read from a configuration of the given key, value pairs only. */
  private static ShimConfig from(String... keyValues) {
    Configuration conf = new Configuration(false);
    for (int i = 0; i < keyValues.length; i += 2) {
      conf.set(keyValues[i], keyValues[i + 1]);
    }
    return ShimConfig.from(conf);
  }

  @Test
  void reconnectBackoff() {
    ShimConfig c = from();
    assertEquals(1000, c.reconnectMs);
    assertEquals(30000, c.reconnectMaxMs);
    c = from("specbridge.reconnect.ms", "60000");
    assertEquals(60000, c.reconnectMaxMs, "the cap defaults to at least the base delay");
    c = from("specbridge.reconnect.ms", "200", "specbridge.reconnect.max-ms", "400");
    assertEquals(200, c.reconnectMs);
    assertEquals(400, c.reconnectMaxMs);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> from("specbridge.reconnect.ms", "5000", "specbridge.reconnect.max-ms", "1000"));
    assertTrue(e.getMessage().startsWith("specbridge.reconnect.max-ms=1000"), e.getMessage());
  }

  @Test
  void clusterSlots() {
    assertEquals(3000, from("specbridge.cluster.slots", " 3000 ").clusterSlots);
    assertEquals(0, from("specbridge.cluster.slots", "0").clusterSlots);
  }

  @Test
  void taskModel() {
    ShimConfig c = from("specbridge.job.task-mean-ms", " 2500 ", "specbridge.job.task-tail-index", "1.5");
    assertEquals(2500.0, c.taskMeanMs);
    assertEquals(1.5, c.taskTailIndex);
    assertEquals(0.0, from("specbridge.job.task-mean-ms", "0").taskMeanMs);
    assertEquals(0.0, from("specbridge.job.task-tail-index", "0").taskTailIndex);
  }

  @Test
  void nodeKey() {
    assertFalse(from("specbridge.node-key", " host ").nodeHostPort);
    assertTrue(from("specbridge.node-key", "host-port").nodeHostPort);
  }

  @Test
  void readsEverySetting() throws Exception {
    File token = new File(dir, "token");
    Files.write(token.toPath(), "# the secret\n\n  s3cret  \nsecond\n".getBytes(StandardCharsets.UTF_8));
    ShimConfig c = from(
        "specbridge.url", "ws://sidecar:7420/v1/am",
        "specbridge.token.file", token.getPath(),
        "specbridge.speculator", "late",
        "specbridge.param.late.slow-task-threshold", " 30 ",
        "specbridge.param.late.speculative-cap", "0.2",
        "specbridge.param.grass.ignored", "1",
        "specbridge.timeout.ms", "2000",
        "specbridge.fallback.enabled", "false",
        "specbridge.batch.ms", "50",
        "specbridge.batch.max", "10");
    assertTrue(c.sidecarConfigured());
    assertEquals("ws://sidecar:7420/v1/am", c.url);
    assertEquals("s3cret", c.token);
    assertEquals("late", c.speculator);
    assertEquals(2, c.params.size());
    assertEquals("30", c.params.get("slow-task-threshold"));
    assertEquals("0.2", c.params.get("speculative-cap"));
    assertEquals(2000, c.timeoutMs);
    assertEquals(500, c.pingMs);
    assertFalse(c.fallbackEnabled);
    assertEquals(50, c.batchMs);
    assertEquals(10, c.batchMax);
    assertEquals(0, c.deadlineMs);
    assertEquals(0.0, c.errorBound);
    assertFalse(c.approximate());
  }

  @Test
  void approximationBounds() {
    ShimConfig c = from("specbridge.grass.deadline-ms", "60000", "specbridge.grass.error", " 0.2 ");
    assertEquals(60000, c.deadlineMs);
    assertEquals(0.2, c.errorBound);
    assertTrue(c.approximate());
  }

  @Test
  void aJobWithReducesIsWarnedWhenItsFailureAllowanceIsBelowItsBound() {
    ShimConfig c = from("specbridge.grass.error", "0.2");
    assertEquals(20, c.requiredMapFailuresPercent());
    assertNull(c.approximationWarning(0, 0), "a map-only job needs no allowance");
    assertNull(c.approximationWarning(4, 20));
    assertNull(c.approximationWarning(4, 100));
    String w = c.approximationWarning(4, 10);
    assertTrue(w.contains("mapreduce.map.failures.maxpercent to at least 20"), w);
    assertTrue(w.contains("mapreduce.map.failures.maxpercent=10"), w);

    assertEquals(29, from("specbridge.grass.error", "0.29").requiredMapFailuresPercent());
    assertEquals(6, from("specbridge.grass.error", "0.051").requiredMapFailuresPercent());

    ShimConfig d = from("specbridge.grass.deadline-ms", "60000");
    w = d.approximationWarning(1, 0);
    assertTrue(w.contains("specbridge.grass.deadline-ms=60000") && w.contains("drops nothing"), w);
    assertNull(d.approximationWarning(1, 30));
    assertNull(from().approximationWarning(1, 0), "an exact job");
  }

  @Test
  void badValuesNameTheirKey() {
    String[][] bad = {
        {"specbridge.url", "http://sidecar/v1/am"},
        {"specbridge.timeout.ms", "soon"},
        {"specbridge.timeout.ms", "-5"},
        {"specbridge.batch.max", "0"},
        {"specbridge.token.file", "/nonexistent/token"},
        {"specbridge.ping.ms", "5000"},
        {"specbridge.grass.error", "1"},
        {"specbridge.grass.error", "-0.1"},
        {"specbridge.grass.error", "a fifth"},
        {"specbridge.grass.deadline-ms", "-1"},
        {"specbridge.node-key", "hostname"},
        {"specbridge.url", "ws://a:1/v1/am,,ws://b:1/v1/am"},
        {"specbridge.url", "ws://a:1/v1/am, b:1"},
        {"specbridge.url", "ws://a:1/v1/am,ws://a:1/v1/am"},
        {"specbridge.enabled", "yes"},
        {"specbridge.cluster.slots", "-1"},
        {"specbridge.cluster.slots", "many"},
        {"specbridge.job.task-mean-ms", "-1"},
        {"specbridge.job.task-mean-ms", "NaN"},
        {"specbridge.job.task-mean-ms", "Infinity"},
        {"specbridge.job.task-mean-ms", "a minute"},
        {"specbridge.job.task-tail-index", "1"},
        {"specbridge.job.task-tail-index", "0.5"},
        {"specbridge.job.task-tail-index", "-2"},
        {"specbridge.job.task-tail-index", "NaN"},
    };
    for (String[] kv : bad) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> from(kv));
      assertTrue(e.getMessage().contains(kv[0]), e.getMessage());
    }
  }

  @Test
  void severalSidecarsAreTriedInTheOrderGiven() {
    ShimConfig c = from("specbridge.url", " ws://a:7420/v1/am , wss://b:7420/v1/am ");
    assertTrue(c.sidecarConfigured());
    assertEquals(Arrays.asList("ws://a:7420/v1/am", "wss://b:7420/v1/am"), c.urls);
    assertEquals(Collections.singletonList("ws://a:7420/v1/am"), from("specbridge.url", "ws://a:7420/v1/am").urls);
    assertEquals(Collections.emptyList(), from().urls);
  }

  @Test
  void everyJobIsInScopeUnlessAListOrTheSwitchSaysOtherwise() {
    Scope all = from().scope;
    assertFalse(all.restricts());
    assertNull(all.excludes("alice", "default"));
    assertNull(all.excludes(null, null));

    Scope none = from("specbridge.enabled", "false").scope;
    assertTrue(none.restricts());
    assertEquals("specbridge.enabled=false", none.excludes("alice", "pilot"));
  }

  @Test
  void allowAndDenyListsNarrowTheScope() {
    Scope s = from(
        "specbridge.enabled.queues", "pilot, root.research.batch",
        "specbridge.enabled.users", "alice,bob",
        "specbridge.disabled.users", "bob",
        "specbridge.disabled.queues", "root.pilot.urgent").scope;
    assertTrue(s.restricts());
    assertNull(s.excludes("alice", "pilot"));
    assertNull(s.excludes("alice", "root.pilot"), "a bare entry matches the leaf of a full path");
    assertNull(s.excludes("alice", "root.research.batch"));
    assertNull(s.excludes("alice", "batch"), "a bare queue matches an entry by its leaf");
    assertTrue(s.excludes("alice", "default").contains("queue default is not in specbridge.enabled.queues"));
    assertTrue(s.excludes("alice", "root.other.batch").contains("not in specbridge.enabled.queues"),
        "two full paths match only when equal");
    assertTrue(s.excludes("carol", "pilot").contains("user carol is not in specbridge.enabled.users"));
    assertTrue(s.excludes("bob", "pilot").contains("user bob is in specbridge.disabled.users"), "deny wins");
    assertTrue(s.excludes("alice", "urgent").contains("specbridge.disabled.queues"));
    assertTrue(s.excludes(null, null) != null, "an unknown user or queue matches no list");

    Scope d = from("specbridge.disabled.queues", "adhoc").scope;
    assertNull(d.excludes("anyone", "default"));
    assertTrue(d.excludes("anyone", "root.adhoc").contains("queue root.adhoc is in specbridge.disabled.queues"));
  }
}
