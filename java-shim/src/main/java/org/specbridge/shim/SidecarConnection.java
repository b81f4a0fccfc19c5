package org.specbridge.shim;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The session with the sidecar over a websocket (bridge/PROTOCOL.md): connect and say hello, resync once
 * welcomed, send event frames, ping, answer pings, hand decisions to the {@link Peer} and send its acks, drop a
 * connection that has been silent for {@code timeout.ms}, and reconnect while there is none.
 *
 * <p>Several sidecars ({@code specbridge.url} a comma-separated list): the first connection goes to the first
 * address; whenever a connection ends (the sidecar died, refused, timed out) the next one goes to the next
 * address in the list, at once, and only after every address has failed in a row does the shim wait before the
 * next round: {@code reconnect.ms} after the first failed round, doubling after each further one up to
 * {@code reconnect.max-ms}, jittered ({@link #backoffMs}), and back to {@code reconnect.ms} once a session has
 * been welcomed. The new sidecar rebuilds the job from the {@code resync} snapshot,
 * as after a restart. Choice: the session stays with the sidecar that answers (no failing back to the first
 * address), since every sidecar serves every job alike and moving a healthy session would only cost a resync.
 *
 * <p>Threads: {@link #maintain}, {@link #resync} and {@link #sendEvents} are called by the shim's worker;
 * frames from the sidecar arrive on the socket's own thread (Java-WebSocket), which also applies decisions
 * through the peer. Nothing here runs on the AM's dispatcher.
 */
final class SidecarConnection {
  /** What the session needs from the rest of the shim. */
  interface Peer {
    /** The hello frame (built when the connection opens). */
    ObjectNode hello();

    /**
     * Applies a decisions frame's decisions and returns the ack frame. inCharge is false when this connection is
     * no longer the one in charge (its decisions are refused).
     */
    ObjectNode decisions(JsonNode decisions, boolean inCharge);

    /** The AM's clock, for the frames' {@code now}. */
    long now();
  }

  private final ShimConfig settings;
  private final Peer peer;
  private final ObjectMapper json = new ObjectMapper();
  private volatile SidecarSocket socket;
  private volatile String unhealthyReason = "not connected yet";
  private long nextConnect;
  /** Index in settings.urls of the address of the current (or last) connection; -1 before the first. */
  private int address = -1;
  /** Addresses tried since the last session that reached a welcome (or since the start). */
  private int triedInRound;
  /** Rounds in which every address failed, since the last session that reached a welcome (or the start). */
  private int failedRounds;
  /** Why the previous connection ended, while the next one is being made (for the log); null before any. */
  private volatile String lost;
  private long nextPing;
  private long pingNonce;
  private long seq;
  /** Set on the socket thread when the sidecar discarded a frame of ours: the worker resyncs. */
  private volatile boolean lostEvents;
  final AtomicLong eventsSent = new AtomicLong();
  final AtomicLong framesSent = new AtomicLong();

  SidecarConnection(ShimConfig settings, Peer peer) {
    this.settings = settings;
    this.peer = peer;
  }

  /**
   * Connects when there is no connection and the reconnect delay has passed, pings when due, and closes a
   * connection the sidecar has been silent on for longer than the timeout. wall: System.currentTimeMillis().
   */
  void maintain(long wall) {
    SidecarSocket s = socket;
    if ((s == null || s.gone) && wall >= nextConnect) {
      if (s == null || s.welcomed) {
        triedInRound = 0; // a new round: the last connection worked (or there was none)
        failedRounds = 0;
      }
      lost = s == null ? null : unhealthyReason;
      address = (address + 1) % settings.urls.size();
      triedInRound++;
      // The next address at once; the delay only once every address has failed in a row.
      boolean roundDone = triedInRound >= settings.urls.size();
      nextConnect = wall;
      if (roundDone) {
        nextConnect += backoffMs(settings.reconnectMs, settings.reconnectMaxMs, failedRounds++,
            ThreadLocalRandom.current().nextDouble());
        triedInRound = 0;
      }
      connect(settings.urls.get(address));
      s = socket;
    }
    if (s == null || s.gone) {
      return;
    }
    long silent = wall - s.lastHeard.get();
    if (silent > settings.timeoutMs) {
      unhealthyReason = "no frame from " + s.getURI() + " for " + silent + " ms";
      s.explained = true;
      s.gone = true;
      s.close();
      return;
    }
    if (s.welcomed && s.isOpen() && wall >= nextPing) {
      nextPing = wall + settings.pingMs;
      ObjectNode f = Wire.frame(Protocol.TYPE_PING, peer.now());
      f.put("nonce", ++pingNonce);
      send(s, f);
    }
  }

  /**
   * The wait before the next round of connection attempts after failedRounds earlier failed rounds (0 for the
   * first): base doubled per earlier failed round, at most max, then scaled by a factor in [0.5, 1) drawn from u
   * in [0, 1) ("equal jitter"). Choice: backoff so that the AMs of a whole cluster do not hammer a sidecar that is
   * down for long (each AM runs Hadoop's own speculator meanwhile, so nothing waits on the reconnect), and jitter
   * so that when a restarted sidecar comes back they do not all reconnect and resync in the same instant; half
   * the delay is kept so that a sidecar that is back is found within max.
   */
  static long backoffMs(long base, long max, int failedRounds, double u) {
    long d = base;
    for (int i = 0; i < failedRounds && d < max; i++) {
      d = d > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * d;
    }
    d = Math.min(d, max);
    return d / 2 + (long) ((d - d / 2) * Math.max(0, Math.min(u, 1)));
  }

  /** True when the session is open, welcomed, resynced and not silent: the sidecar may decide. */
  boolean ready() {
    SidecarSocket s = socket;
    return s != null && s.ready();
  }

  /** The address of the current (or last) connection, or "" before the first. */
  String address() {
    return address < 0 ? "" : settings.urls.get(address);
  }

  /** Why the session is not ready (for the log). */
  String unhealthyReason() {
    SidecarSocket s = socket;
    if (s != null && !s.gone && !s.ready()) {
      String before = lost;
      return before == null ? "handshake not complete" : before + "; connecting to " + s.getURI();
    }
    return unhealthyReason;
  }

  /** True when the sidecar has welcomed the session and waits for its snapshot. */
  boolean needsResync() {
    SidecarSocket s = socket;
    if (lostEvents && s != null) {
      lostEvents = false;
      s.resynced = false; // here on the worker, so the session is never seen unready between two steps
    }
    return s != null && s.welcomed && !s.resynced && !s.gone;
  }

  /**
   * Sends the snapshot; the session is then ready. It is marked ready before the send: the sidecar may answer
   * the snapshot with decisions at once (cloning policies do), and the reader thread must not see those arrive
   * on a session still marked unready and refuse them (they would not be sent again). If the send fails the
   * socket is gone, and a gone socket is never ready.
   */
  void resync(ObjectNode snapshot) {
    SidecarSocket s = socket;
    if (s != null && !s.gone) {
      s.resynced = true;
      if (!send(s, snapshot)) {
        s.resynced = false; // not sent: the next step tries again (or the socket is gone)
      }
    }
  }

  /** Asks for a new snapshot (after events were lost): the session is not ready until it is sent. */
  void requestResync() {
    SidecarSocket s = socket;
    if (s != null) {
      s.resynced = false;
    }
  }

  /**
   * Sends events (UTF-8 JSON objects separated by commas, from EventTranslator.takeEvents) in one frame if the
   * session is ready; returns whether it did.
   */
  boolean sendEvents(byte[] events, int count) {
    SidecarSocket s = socket;
    if (s == null || !s.ready() || count == 0) {
      return false;
    }
    byte[] head = ("{\"type\":\"" + Protocol.TYPE_EVENTS + "\",\"now\":" + peer.now() + ",\"seq\":" + (++seq) + ",\"events\":[")
        .getBytes(StandardCharsets.UTF_8);
    byte[] frame = new byte[head.length + events.length + 2];
    System.arraycopy(head, 0, frame, 0, head.length);
    System.arraycopy(events, 0, frame, head.length, events.length);
    frame[frame.length - 2] = ']';
    frame[frame.length - 1] = '}';
    if (!sendBytes(s, frame)) {
      return false;
    }
    eventsSent.addAndGet(count);
    return true;
  }

  /**
   * Tests only (ConformanceMRAppTest): sends an events frame with no events, stamped now, so that the sidecar
   * decides at this instant of the AM's clock as a simulator's Decide tick does; returns whether it did. The shim
   * itself never sends one.
   */
  boolean sendNoEvents() {
    SidecarSocket s = socket;
    if (s == null || !s.ready()) {
      return false;
    }
    return sendBytes(s, ("{\"type\":\"events\",\"now\":" + peer.now() + ",\"seq\":" + (++seq) + ",\"events\":[]}")
        .getBytes(StandardCharsets.UTF_8));
  }

  /** Drops the connection (the next maintain reconnects once the delay has passed). */
  void drop(String why) {
    SidecarSocket s = socket;
    if (s != null) {
      unhealthyReason = why;
      s.explained = true;
      s.gone = true;
      s.close();
    }
  }

  /**
   * Sends the session's last frame, {@code bye} with the job's state (PROTOCOL.md), if the session is ready; the
   * caller closes the connection next. A final state lets the sidecar end the job in its fault analyzer at once
   * instead of after its grace period. Called on the AM's stop, once the worker has ended.
   */
  void bye(String jobState) {
    SidecarSocket s = socket;
    if (s == null || !s.ready()) {
      return;
    }
    ObjectNode f = Wire.frame(Protocol.TYPE_BYE, peer.now());
    f.put("state", jobState);
    send(s, f);
  }

  void close() {
    SidecarSocket s = socket;
    if (s != null) {
      s.explained = true;
      s.gone = true;
      s.close();
    }
  }

  private void connect(final String url) {
    try {
      SidecarSocket s = new SidecarSocket(new URI(url), (int) Math.min(settings.timeoutMs, Integer.MAX_VALUE),
          new SidecarSocket.Listener() {
            @Override
            public void opened(SidecarSocket socket) {
              send(socket, peer.hello());
            }

            @Override
            public void frame(SidecarSocket socket, String text) {
              onFrame(socket, text);
            }

            @Override
            public void closed(SidecarSocket socket, int code, String reason) {
              String why = "connection to " + url + " closed (" + code + (reason == null || reason.isEmpty() ? "" : ": " + reason) + ")";
              // Log the first failure after a working session; repeated refusals while reconnecting at debug.
              if (socket.welcomed || !why.equals(unhealthyReason)) {
                BridgeSpeculator.LOG.info("specbridge: " + why);
              } else {
                BridgeSpeculator.LOG.debug("specbridge: " + why);
              }
              if (socket == SidecarConnection.this.socket && !socket.explained) {
                unhealthyReason = why;
              }
            }
          });
      socket = s;
      s.connect();
    } catch (Exception e) {
      unhealthyReason = "cannot connect to " + url + ": " + e;
      BridgeSpeculator.LOG.warn("specbridge: cannot connect to " + url + ": " + e);
    }
  }

  private boolean send(SidecarSocket s, ObjectNode f) {
    try {
      return sendBytes(s, json.writeValueAsBytes(f));
    } catch (Exception e) {
      BridgeSpeculator.LOG.debug("specbridge: send failed", e);
      return false;
    }
  }

  /** Sends one text frame; false when the socket closed under us (the next maintain notices). */
  private boolean sendBytes(SidecarSocket s, byte[] frame) {
    try {
      s.sendText(frame);
      framesSent.incrementAndGet();
      return true;
    } catch (RuntimeException e) {
      BridgeSpeculator.LOG.debug("specbridge: send failed", e);
      return false;
    }
  }

  private void onFrame(SidecarSocket s, String text) {
    JsonNode f;
    try {
      f = json.readTree(text);
    } catch (Exception e) {
      BridgeSpeculator.LOG.warn("specbridge: unreadable frame from the sidecar: " + e.getMessage());
      return;
    }
    String type = f.path("type").asText();
    if (Protocol.TYPE_WELCOME.equals(type)) {
      // The task-time model the sidecar uses (PROTOCOL.md, welcome): absent from older sidecars.
      String model = f.has("task_model_source") ? ", task model " + f.path("task_model_source").asText() + " (mean "
          + f.path("task_mean_ms").asDouble() + " ms, tail index " + f.path("task_tail_index").asDouble() + ")" : "";
      BridgeSpeculator.LOG.info("specbridge: session " + f.path("session").asText() + " with "
          + f.path("speculator").asText() + " " + f.path("params") + model);
      s.welcomed = true;
    } else if (Protocol.TYPE_DECISIONS.equals(type)) {
      send(s, peer.decisions(f.path("decisions"), s == socket && s.ready()));
    } else if (Protocol.TYPE_ERROR.equals(type)) {
      String line = "specbridge: sidecar error " + f.path("code").asText() + ": " + f.path("text").asText();
      if (f.path("fatal").asBoolean()) {
        unhealthyReason = "sidecar said " + f.path("code").asText() + ": " + f.path("text").asText();
        s.explained = true;
        BridgeSpeculator.LOG.warn(line);
      } else {
        // The sidecar's view of the job is wrong from here on: worth a warning. A frame it could not read
        // lost every event in it (starts and ends included), so a snapshot follows.
        String code = f.path("code").asText();
        if (s == socket && (Protocol.CODE_MALFORMED_FRAME.equals(code) || Protocol.CODE_FRAME_TOO_LARGE.equals(code))) {
          lostEvents = true;
          line += "; resyncing";
        }
        BridgeSpeculator.LOG.warn(line);
      }
    } else if (Protocol.TYPE_PING.equals(type)) {
      ObjectNode pong = Wire.frame(Protocol.TYPE_PONG, peer.now());
      pong.put("nonce", f.path("nonce").asLong());
      send(s, pong);
    }
  }
}
