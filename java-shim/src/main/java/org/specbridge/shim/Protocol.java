package org.specbridge.shim;

/**
 * The protocol's names (bridge/PROTOCOL.md) as the shim writes and reads them: frame types, the error codes
 * the shim reacts to, event kinds, decision kinds, ack results and snapshot states. The Go side keeps the same
 * names as constants in package bridge; its test {@code TestShimProtocolNamesAreTheSidecars} reads this file and
 * fails when a name here is not one the sidecar knows in the same role, so the two cannot drift apart.
 *
 * <p>Naming: each constant's prefix is its role ({@code TYPE_}, {@code CODE_}, {@code EVENT_}, {@code DECISION_},
 * {@code ACK_}, {@code STATE_}); the Go test keys on it.
 */
final class Protocol {
  private Protocol() {
  }

  static final String TYPE_HELLO = "hello";
  static final String TYPE_WELCOME = "welcome";
  static final String TYPE_EVENTS = "events";
  static final String TYPE_DECISIONS = "decisions";
  static final String TYPE_ACK = "ack";
  static final String TYPE_PING = "ping";
  static final String TYPE_PONG = "pong";
  static final String TYPE_RESYNC = "resync";
  static final String TYPE_ERROR = "error";
  static final String TYPE_BYE = "bye";

  /** Codes after which the sidecar lost a frame's events, so the shim resyncs. */
  static final String CODE_MALFORMED_FRAME = "malformed-frame";
  static final String CODE_FRAME_TOO_LARGE = "frame-too-large";

  static final String EVENT_ATTEMPT_STARTED = "attempt-started";
  static final String EVENT_ATTEMPT_STATUS = "attempt-status";
  static final String EVENT_ATTEMPT_SUCCEEDED = "attempt-succeeded";
  static final String EVENT_ATTEMPT_FAILED = "attempt-failed";
  static final String EVENT_ATTEMPT_KILLED = "attempt-killed";
  static final String EVENT_CONTAINER_NEEDS = "container-needs";

  static final String DECISION_SPECULATE = "speculate";
  static final String DECISION_KILL = "kill";
  static final String DECISION_RERUN = "rerun";
  static final String DECISION_DROP = "drop";

  static final String ACK_APPLIED = "applied";
  static final String ACK_REFUSED = "refused";

  static final String STATE_RUNNING = "RUNNING";
  static final String STATE_SUCCEEDED = "SUCCEEDED";
  static final String STATE_FAILED = "FAILED";
  static final String STATE_KILLED = "KILLED";
}
