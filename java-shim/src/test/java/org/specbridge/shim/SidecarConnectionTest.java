package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The connection role alone, without an AM: a session with the real sidecar binary over a real websocket
 * (hello, welcome, resync, events, pings, timeout, reconnect). The test drives it as the shim's worker does,
 * calling maintain and sending the snapshot when asked.
 */
class SidecarConnectionTest extends SidecarTest {
  private final AtomicInteger hellos = new AtomicInteger();

  private SidecarConnection connection(String url, String token) {
    return connection(url, token, 100);
  }

  private SidecarConnection connection(String url, String token, long reconnectMs) {
    Configuration c = new Configuration(false);
    c.set(ShimConfig.URL, url);
    c.set(ShimConfig.TOKEN, token);
    c.set(ShimConfig.TIMEOUT_MS, "1000");
    c.set(ShimConfig.RECONNECT_MS, Long.toString(reconnectMs));
    c.set(ShimConfig.RECONNECT_MAX_MS, Long.toString(Math.max(reconnectMs, 400)));
    final ShimConfig settings = ShimConfig.from(c);
    final SidecarConnection conn = new SidecarConnection(settings, new SidecarConnection.Peer() {
      @Override
      public ObjectNode hello() {
        hellos.incrementAndGet();
        ObjectNode h = Wire.frame("hello", now());
        h.put("version", Wire.VERSION);
        h.put("token", settings.token);
        h.put("job", FakeAm.JOB);
        h.put("speculator", "none");
        h.put("maps", 1);
        h.put("reduces", 0);
        return h;
      }

      @Override
      public ObjectNode decisions(JsonNode decisions, boolean inCharge) {
        return Wire.frame("ack", now()).set("acks", Wire.NODES.arrayNode());
      }

      @Override
      public long now() {
        return 1700000000000L;
      }
    });
    cleanup.add(0, conn::close);
    return conn;
  }

  private static ObjectNode emptySnapshot() {
    ObjectNode r = Wire.frame("resync", 1700000000000L);
    r.putArray("attempts");
    r.putArray("container_needs");
    return r;
  }

  /** Runs the connection as the worker would until cond holds; false after 30 s. */
  private static boolean drive(SidecarConnection conn, BooleanSupplier cond) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30000;
    while (System.currentTimeMillis() < deadline) {
      conn.maintain(System.currentTimeMillis());
      if (conn.needsResync()) {
        conn.resync(emptySnapshot());
      }
      if (cond.getAsBoolean()) {
        return true;
      }
      Thread.sleep(20); // the worker's idle wait
    }
    return false;
  }

  @Test
  @Timeout(120)
  void aSessionIsReadyAfterHelloAndResyncAndSendsEvents() throws Exception {
    Sidecar sidecar = sidecar();
    SidecarConnection conn = connection(sidecar.url, Sidecar.TOKEN);
    assertFalse(conn.ready());
    assertTrue(drive(conn, conn::ready), "no session: " + conn.unhealthyReason());
    byte[] events = "{\"kind\":\"container-needs\",\"time\":1700000000001,\"task_type\":\"map\",\"count\":1}"
        .getBytes(StandardCharsets.UTF_8);
    assertTrue(conn.sendEvents(events, 1));
    // Pings keep a quiet session alive for several timeouts.
    long until = System.currentTimeMillis() + 3000;
    drive(conn, () -> !conn.ready() || System.currentTimeMillis() > until);
    assertTrue(conn.ready(), "the session dropped: " + conn.unhealthyReason());
    assertTrue(drive(conn, () -> Sidecar.read(sidecar.log).contains("session opened")), Sidecar.read(sidecar.log));
  }

  @Test
  @Timeout(120)
  void aWrongTokenNeverMakesASessionAndSaysWhy() throws Exception {
    Sidecar sidecar = sidecar();
    SidecarConnection conn = connection(sidecar.url, "wrong-token");
    assertTrue(drive(conn, () -> conn.unhealthyReason().contains("unauthorized")), conn.unhealthyReason());
    assertFalse(conn.ready());
    assertFalse(conn.sendEvents("{}".getBytes(StandardCharsets.UTF_8), 1));
  }

  @Test
  @Timeout(120)
  void aDeadSidecarIsNoticedAndARestartedOneResumesTheSession() throws Exception {
    Sidecar sidecar = sidecar();
    SidecarConnection conn = connection(sidecar.url, Sidecar.TOKEN);
    assertTrue(drive(conn, conn::ready), conn.unhealthyReason());
    sidecar.kill();
    assertTrue(drive(conn, () -> !conn.ready()), "a killed sidecar still looks ready");
    int before = hellos.get();
    Sidecar again = Sidecar.startAt(dir, sidecar.hostPort);
    cleanup.add(again);
    assertTrue(drive(conn, conn::ready), "no new session: " + conn.unhealthyReason());
    assertTrue(hellos.get() > before, "the new session did not start with a hello");
  }

  /**
   * Two sidecars in specbridge.url: the session starts on the first, moves to the second when the first dies,
   * and the second rebuilds the job from the snapshot. The reconnect delay is a minute, longer than drive's
   * deadline, so the move must happen at once, without waiting for it.
   */
  @Test
  @Timeout(120)
  void whenTheFirstSidecarDiesTheSessionMovesToTheSecondAtOnce() throws Exception {
    Sidecar first = sidecar();
    Sidecar second = Sidecar.start(newDir("second"));
    cleanup.add(second);
    SidecarConnection conn = connection(first.url + "," + second.url, Sidecar.TOKEN, 60000);
    assertTrue(drive(conn, conn::ready), conn.unhealthyReason());
    assertEquals(first.url, conn.address());
    first.kill();
    assertTrue(drive(conn, () -> !conn.ready() || !first.url.equals(conn.address())), "a killed sidecar still looks ready");
    assertTrue(drive(conn, conn::ready), "no session with the second sidecar: " + conn.unhealthyReason());
    assertEquals(second.url, conn.address());
    assertTrue(drive(conn, () -> Sidecar.read(second.log).contains("state rebuilt from a resync")), Sidecar.read(second.log));
  }

  /** The first address is dead from the start: the first session is with the second, without the delay. */
  @Test
  @Timeout(120)
  void aDeadFirstAddressIsSkippedAtOnce() throws Exception {
    Sidecar dead = sidecar();
    dead.kill();
    Sidecar live = Sidecar.start(newDir("live"));
    cleanup.add(live);
    SidecarConnection conn = connection(dead.url + "," + live.url, Sidecar.TOKEN, 60000);
    assertTrue(drive(conn, conn::ready), conn.unhealthyReason());
    assertEquals(live.url, conn.address());
  }

  private File newDir(String name) {
    File d = new File(dir, name);
    assertTrue(d.mkdirs() || d.isDirectory(), "cannot create " + d);
    return d;
  }

  /**
   * The delay between failed rounds: base after the first, doubling to the cap, never below half the undisturbed
   * delay nor above it, and no overflow however long the sidecar stays away.
   */
  @Test
  void theReconnectDelayBacksOffWithJitterUpToTheCap() {
    long[] undisturbed = {1000, 2000, 4000, 8000, 16000, 30000, 30000};
    for (int round = 0; round < undisturbed.length; round++) {
      long d = undisturbed[round];
      assertEquals(d / 2, SidecarConnection.backoffMs(1000, 30000, round, 0.0), "round " + round + ", least jitter");
      long most = SidecarConnection.backoffMs(1000, 30000, round, 0.999999);
      assertTrue(most < d && most >= d - 1, "round " + round + ": " + most + ", want just under " + d);
    }
    assertEquals(30000, SidecarConnection.backoffMs(1000, 30000, Integer.MAX_VALUE, 1.0));
    assertEquals(Long.MAX_VALUE / 2, SidecarConnection.backoffMs(Long.MAX_VALUE / 2 + 1, Long.MAX_VALUE, 5, 0.0));
    assertEquals(100, SidecarConnection.backoffMs(200, 200, 3, 0.0), "base = cap: no growth");
  }
}
