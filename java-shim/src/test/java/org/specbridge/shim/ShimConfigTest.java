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
    ShimConfig c = ShimConfig.from(new Configuration(false));
    assertFalse(c.sidecarConfigured());
    assertEquals("hadoop", c.speculator);
    assertEquals(1000, c.timeoutMs);
    assertEquals(250, c.pingMs);
    assertTrue(c.fallbackEnabled);
    assertEquals(Collections.emptyMap(), c.params);
    assertTrue(c.nodeHostPort, "nodes are keyed host:port unless told otherwise");
    assertEquals(0, c.clusterSlots, "the cluster's slots are unknown unless told");
  }

  @Test
  void clusterSlots() {
    Configuration conf = new Configuration(false);
    conf.set("specbridge.cluster.slots", " 3000 ");
    assertEquals(3000, ShimConfig.from(conf).clusterSlots);
    conf.set("specbridge.cluster.slots", "0");
    assertEquals(0, ShimConfig.from(conf).clusterSlots);
  }

  @Test
  void nodeKey() {
    Configuration conf = new Configuration(false);
    conf.set("specbridge.node-key", " host ");
    assertFalse(ShimConfig.from(conf).nodeHostPort);
    conf.set("specbridge.node-key", "host-port");
    assertTrue(ShimConfig.from(conf).nodeHostPort);
  }

  @Test
  void readsEverySetting() throws Exception {
    File token = new File(dir, "token");
    Files.write(token.toPath(), "# the secret\n\n  s3cret  \nsecond\n".getBytes(StandardCharsets.UTF_8));
    Configuration conf = new Configuration(false);
    conf.set("specbridge.url", "ws://sidecar:7420/v1/am");
    conf.set("specbridge.token.file", token.getPath());
    conf.set("specbridge.speculator", "late");
    conf.set("specbridge.param.late.slow-task-threshold", " 30 ");
    conf.set("specbridge.param.late.speculative-cap", "0.2");
    conf.set("specbridge.param.grass.ignored", "1");
    conf.set("specbridge.timeout.ms", "2000");
    conf.set("specbridge.fallback.enabled", "false");
    conf.set("specbridge.batch.ms", "50");
    conf.set("specbridge.batch.max", "10");
    ShimConfig c = ShimConfig.from(conf);
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
    Configuration conf = new Configuration(false);
    conf.set("specbridge.grass.deadline-ms", "60000");
    conf.set("specbridge.grass.error", " 0.2 ");
    ShimConfig c = ShimConfig.from(conf);
    assertEquals(60000, c.deadlineMs);
    assertEquals(0.2, c.errorBound);
    assertTrue(c.approximate());
  }

  @Test
  void aJobWithReducesIsWarnedWhenItsFailureAllowanceIsBelowItsBound() {
    Configuration conf = new Configuration(false);
    conf.set("specbridge.grass.error", "0.2");
    ShimConfig c = ShimConfig.from(conf);
    assertEquals(20, c.requiredMapFailuresPercent());
    assertNull(c.approximationWarning(0, 0), "a map-only job needs no allowance");
    assertNull(c.approximationWarning(4, 20));
    assertNull(c.approximationWarning(4, 100));
    String w = c.approximationWarning(4, 10);
    assertTrue(w.contains("mapreduce.map.failures.maxpercent to at least 20"), w);
    assertTrue(w.contains("mapreduce.map.failures.maxpercent=10"), w);

    conf.set("specbridge.grass.error", "0.29");
    assertEquals(29, ShimConfig.from(conf).requiredMapFailuresPercent());
    conf.set("specbridge.grass.error", "0.051");
    assertEquals(6, ShimConfig.from(conf).requiredMapFailuresPercent());

    Configuration deadline = new Configuration(false);
    deadline.set("specbridge.grass.deadline-ms", "60000");
    ShimConfig d = ShimConfig.from(deadline);
    w = d.approximationWarning(1, 0);
    assertTrue(w.contains("specbridge.grass.deadline-ms=60000") && w.contains("drops nothing"), w);
    assertNull(d.approximationWarning(1, 30));
    assertNull(ShimConfig.from(new Configuration(false)).approximationWarning(1, 0), "an exact job");
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
    };
    for (String[] kv : bad) {
      Configuration conf = new Configuration(false);
      conf.set(kv[0], kv[1]);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ShimConfig.from(conf));
      assertTrue(e.getMessage().contains(kv[0]), e.getMessage());
    }
  }

  @Test
  void severalSidecarsAreTriedInTheOrderGiven() {
    Configuration conf = new Configuration(false);
    conf.set("specbridge.url", " ws://a:7420/v1/am , wss://b:7420/v1/am ");
    ShimConfig c = ShimConfig.from(conf);
    assertTrue(c.sidecarConfigured());
    assertEquals(Arrays.asList("ws://a:7420/v1/am", "wss://b:7420/v1/am"), c.urls);
    conf.set("specbridge.url", "ws://a:7420/v1/am");
    assertEquals(Collections.singletonList("ws://a:7420/v1/am"), ShimConfig.from(conf).urls);
    assertEquals(Collections.emptyList(), ShimConfig.from(new Configuration(false)).urls);
  }

  @Test
  void everyJobIsInScopeUnlessAListOrTheSwitchSaysOtherwise() {
    Scope all = ShimConfig.from(new Configuration(false)).scope;
    assertFalse(all.restricts());
    assertNull(all.excludes("alice", "default"));
    assertNull(all.excludes(null, null));

    Configuration off = new Configuration(false);
    off.set("specbridge.enabled", "false");
    Scope none = ShimConfig.from(off).scope;
    assertTrue(none.restricts());
    assertEquals("specbridge.enabled=false", none.excludes("alice", "pilot"));
  }

  @Test
  void allowAndDenyListsNarrowTheScope() {
    Configuration conf = new Configuration(false);
    conf.set("specbridge.enabled.queues", "pilot, root.research.batch");
    conf.set("specbridge.enabled.users", "alice,bob");
    conf.set("specbridge.disabled.users", "bob");
    conf.set("specbridge.disabled.queues", "root.pilot.urgent");
    Scope s = ShimConfig.from(conf).scope;
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

    Configuration denyOnly = new Configuration(false);
    denyOnly.set("specbridge.disabled.queues", "adhoc");
    Scope d = ShimConfig.from(denyOnly).scope;
    assertNull(d.excludes("anyone", "default"));
    assertTrue(d.excludes("anyone", "root.adhoc").contains("queue root.adhoc is in specbridge.disabled.queues"));
  }
}
