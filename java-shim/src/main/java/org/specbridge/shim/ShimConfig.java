package org.specbridge.shim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;

/**
 * The shim's settings, read from the job configuration under {@code specbridge.*}.
 *
 * <ul>
 *   <li>{@code specbridge.url}: the sidecar, e.g. {@code ws://sidecar:7420/v1/am} (required; empty means
 *       "no sidecar": the fallback speculates alone).</li>
 *   <li>{@code specbridge.token.file}: a local file holding the shared secret (first non-blank line), or
 *       {@code specbridge.token} with the secret itself (tests; prefer the file).</li>
 *   <li>{@code specbridge.speculator}: the sidecar policy (default {@code hadoop}).</li>
 *   <li>{@code specbridge.param.<policy>.<name>}: a policy parameter; only those of the chosen policy are sent.</li>
 *   <li>{@code specbridge.timeout.ms}: the sidecar is unhealthy when it has said nothing for this long (default 1000).</li>
 *   <li>{@code specbridge.fallback.enabled}: run Hadoop's DefaultSpeculator while the sidecar is unhealthy
 *       (default true).</li>
 *   <li>{@code specbridge.batch.ms}, {@code specbridge.batch.max}: events are sent every batch.ms or when
 *       batch.max are queued (default 100 ms, 500).</li>
 *   <li>{@code specbridge.ping.ms}: ping interval (default timeout/4); {@code specbridge.reconnect.ms}: delay
 *       between connection attempts (default 1000).</li>
 * </ul>
 */
public final class ShimConfig {
  public static final String PREFIX = "specbridge.";
  public static final String URL = PREFIX + "url";
  public static final String TOKEN_FILE = PREFIX + "token.file";
  public static final String TOKEN = PREFIX + "token";
  public static final String SPECULATOR = PREFIX + "speculator";
  public static final String PARAM_PREFIX = PREFIX + "param.";
  public static final String TIMEOUT_MS = PREFIX + "timeout.ms";
  public static final String FALLBACK_ENABLED = PREFIX + "fallback.enabled";
  public static final String BATCH_MS = PREFIX + "batch.ms";
  public static final String BATCH_MAX = PREFIX + "batch.max";
  public static final String PING_MS = PREFIX + "ping.ms";
  public static final String RECONNECT_MS = PREFIX + "reconnect.ms";

  public static final String DEFAULT_SPECULATOR = "hadoop";
  public static final long DEFAULT_TIMEOUT_MS = 1000;

  public final String url;
  public final String token;
  public final String speculator;
  public final Map<String, String> params;
  public final long timeoutMs;
  public final boolean fallbackEnabled;
  public final long batchMs;
  public final int batchMax;
  public final long pingMs;
  public final long reconnectMs;

  private ShimConfig(String url, String token, String speculator, Map<String, String> params, long timeoutMs,
      boolean fallbackEnabled, long batchMs, int batchMax, long pingMs, long reconnectMs) {
    this.url = url;
    this.token = token;
    this.speculator = speculator;
    this.params = params;
    this.timeoutMs = timeoutMs;
    this.fallbackEnabled = fallbackEnabled;
    this.batchMs = batchMs;
    this.batchMax = batchMax;
    this.pingMs = pingMs;
    this.reconnectMs = reconnectMs;
  }

  /** Reads the settings; a bad value is an IllegalArgumentException naming the key. */
  public static ShimConfig from(Configuration conf) {
    String url = conf.getTrimmed(URL, "");
    if (!url.isEmpty() && !(url.startsWith("ws://") || url.startsWith("wss://"))) {
      throw new IllegalArgumentException(URL + "=" + url + ": want ws://host:port/v1/am or wss://...");
    }
    String token = conf.getTrimmed(TOKEN, "");
    String tokenFile = conf.getTrimmed(TOKEN_FILE, "");
    if (!tokenFile.isEmpty()) {
      token = readToken(tokenFile);
    }
    String speculator = conf.getTrimmed(SPECULATOR, DEFAULT_SPECULATOR);
    if (speculator.isEmpty()) {
      speculator = DEFAULT_SPECULATOR;
    }
    Map<String, String> params = new TreeMap<String, String>();
    String mine = PARAM_PREFIX + speculator + ".";
    for (Map.Entry<String, String> e : conf.getPropsWithPrefix(mine).entrySet()) {
      params.put(e.getKey(), e.getValue().trim());
    }
    long timeoutMs = positiveLong(conf, TIMEOUT_MS, DEFAULT_TIMEOUT_MS);
    boolean fallback = conf.getBoolean(FALLBACK_ENABLED, true);
    long batchMs = positiveLong(conf, BATCH_MS, 100);
    long batchMax = positiveLong(conf, BATCH_MAX, 500);
    long pingMs = positiveLong(conf, PING_MS, Math.max(50, timeoutMs / 4));
    long reconnectMs = positiveLong(conf, RECONNECT_MS, 1000);
    if (pingMs >= timeoutMs) {
      throw new IllegalArgumentException(PING_MS + "=" + pingMs + " must be below " + TIMEOUT_MS + "=" + timeoutMs);
    }
    return new ShimConfig(url, token, speculator, Collections.unmodifiableMap(params), timeoutMs, fallback,
        batchMs, (int) Math.min(batchMax, Integer.MAX_VALUE), pingMs, reconnectMs);
  }

  private static long positiveLong(Configuration conf, String key, long def) {
    String raw = conf.getTrimmed(key);
    if (raw == null || raw.isEmpty()) {
      return def;
    }
    long v;
    try {
      v = Long.parseLong(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + "=" + raw + " is not a whole number", e);
    }
    if (v <= 0) {
      throw new IllegalArgumentException(key + "=" + raw + " must be positive");
    }
    return v;
  }

  private static String readToken(String path) {
    try {
      for (String line : Files.readAllLines(Paths.get(path), StandardCharsets.UTF_8)) {
        String t = line.trim();
        if (!t.isEmpty() && !t.startsWith("#")) {
          return t;
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(TOKEN_FILE + "=" + path + ": " + e.getMessage(), e);
    }
    throw new IllegalArgumentException(TOKEN_FILE + "=" + path + " holds no token");
  }

  /** Whether a sidecar is configured at all. */
  public boolean sidecarConfigured() {
    return !url.isEmpty();
  }
}
