package org.specbridge.shim;

import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

import org.java_websocket.client.WebSocketClient;
import org.java_websocket.drafts.Draft_6455;
import org.java_websocket.framing.TextFrame;
import org.java_websocket.handshake.ServerHandshake;

/**
 * One websocket connection to the sidecar. Java-WebSocket runs its callbacks on its own thread; they hand
 * frames to the listener, never to the AM's dispatcher.
 */
final class SidecarSocket extends WebSocketClient {
  /** Receives what happens on the socket. */
  interface Listener {
    void opened(SidecarSocket socket);

    void frame(SidecarSocket socket, String text);

    void closed(SidecarSocket socket, int code, String reason);
  }

  private final Listener listener;
  /** Wall-clock ms of the last frame received (or of the connect). */
  final AtomicLong lastHeard = new AtomicLong();
  volatile boolean welcomed;
  volatile boolean resynced;
  volatile boolean gone;
  /** The shim has recorded why this connection ends (a timeout, a fatal error frame): keep that reason. */
  volatile boolean explained;

  SidecarSocket(URI uri, int connectTimeoutMs, Listener listener) {
    super(uri, new Draft_6455(), null, connectTimeoutMs);
    this.listener = listener;
    this.lastHeard.set(System.currentTimeMillis());
    setConnectionLostTimeout(0); // the shim's own pings and timeout decide health
  }

  /**
   * Sends a text frame of UTF-8 bytes (what Jackson writes). send(String) would encode the text again and then
   * check every byte of it for valid UTF-8, together a third of the worker's time in a large job.
   */
  void sendText(byte[] utf8) {
    TextFrame f = new TextFrame();
    f.setPayload(ByteBuffer.wrap(utf8));
    f.setTransferemasked(true); // client frames are masked (RFC 6455); the draft masks by its role
    sendFrame(f);
  }

  /** True when the session is open, welcomed and resynced. */
  boolean ready() {
    return !gone && welcomed && resynced && isOpen();
  }

  @Override
  public void onOpen(ServerHandshake handshake) {
    lastHeard.set(System.currentTimeMillis());
    listener.opened(this);
  }

  @Override
  public void onMessage(String message) {
    lastHeard.set(System.currentTimeMillis());
    listener.frame(this, message);
  }

  @Override
  public void onClose(int code, String reason, boolean remote) {
    gone = true;
    listener.closed(this, code, reason);
  }

  @Override
  public void onError(Exception ex) {
    // onClose follows every error that ends the connection.
    BridgeSpeculator.LOG.debug("sidecar socket error", ex);
  }
}
