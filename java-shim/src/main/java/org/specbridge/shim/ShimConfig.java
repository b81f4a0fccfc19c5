package org.specbridge.shim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

import org.apache.hadoop.conf.Configuration;

/**
 * The shim's settings, read from the job configuration under {@code specbridge.*}.
 *
 * <ul>
 *   <li>{@code specbridge.url}: the sidecar, e.g. {@code ws://sidecar:7420/v1/am}, or several sidecars separated by
 *       commas, tried in order (required; empty means "no sidecar": the fallback speculates alone). Choice: a list
 *       on the client side, as Hadoop names its HA ResourceManagers, rather than one address behind a proxy: no
 *       extra process to run and keep available, and the shim already notices a lost session within
 *       {@code timeout.ms}; {@link SidecarConnection} moves to the next address whenever a connection ends.</li>
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
 *       after a round of failed connection attempts (default 1000), doubled after each further failed round up
 *       to {@code specbridge.reconnect.max-ms} (default 30000, or reconnect.ms if larger), each delay jittered
 *       (see {@link SidecarConnection#backoffMs}).</li>
 *   <li>{@code specbridge.grass.deadline-ms}: an approximation job's deadline in ms after the job's start (the
 *       AM's start time); 0 or unset: none.</li>
 *   <li>{@code specbridge.grass.error}: an approximation job's error bound, the fraction of its input (map) tasks
 *       it may do without, in [0, 1); 0 or unset: exact. With either bound the sidecar drops the maps still
 *       unfinished once the bound is reached: killed (T_KILL) in a map-only job, failed at once in a job with
 *       reduces, which then needs {@code mapreduce.map.failures.maxpercent} (see {@link DecisionApplier}).</li>
 *   <li>{@code specbridge.cluster.slots}: the containers the cluster can run at once (the {@code slots} of the
 *       hello, PROTOCOL.md), which the cloning policies size their copies by (SCA's and ESE's N machines, Dolly's
 *       budget); 0 or unset: unknown, and the hello leaves it out. The AM cannot learn it by itself: its
 *       {@code AppContext} offers only the largest container ({@code ClusterInfo}), and the RM's node count and
 *       headroom stay inside the allocator. Set it per job or cluster-wide in mapred-site.xml, e.g. the sum of the
 *       NodeManagers' {@code yarn.nodemanager.resource.memory-mb} over {@code mapreduce.map.memory.mb}.</li>
 *   <li>{@code specbridge.job.task-mean-ms}, {@code specbridge.job.task-tail-index}: the job's a-priori task-time
 *       model, the expected run time of one task in ms and the Pareto tail index (&gt; 1) of task times (the hello's
 *       {@code task_mean_ms} and {@code task_tail_index}, PROTOCOL.md). Xu and Lau's policies ({@code sca},
 *       {@code sda}, {@code ese}) take a job's mean task time as known before it runs, from earlier runs of the
 *       application on inputs of that size; the operator who has them says so here, per job. 0 or unset: unknown,
 *       and the hello leaves them out (the sidecar then estimates the mean from earlier jobs, if it can).</li>
 *   <li>{@code specbridge.node-key}: how an attempt's node is named on the wire, {@code host-port} (default: the
 *       NodeManager's id, {@code host:port}, as YARN's NodeId and the ResourceManager's {@code /ws/v1/cluster/nodes}
 *       {@code id} spell it) or {@code host} (the host name alone). host:port is the default because it is right
 *       on every cluster: where several NodeManagers share a host (a mini cluster, containerised NMs) the host
 *       alone merges them into one node, so one NM's failure looks like the whole host's and a copy started on a
 *       sibling NM looks like the failed node answering again. The fault analyzer must key nodes the same way
 *       ({@code specbridge serve/cfa --node-key}).</li>
 *   <li>{@code specbridge.enabled} (default true) and the lists {@code specbridge.enabled.queues},
 *       {@code specbridge.enabled.users}, {@code specbridge.disabled.queues}, {@code specbridge.disabled.users}:
 *       which jobs the sidecar decides for ({@link Scope}); any other job runs Hadoop's DefaultSpeculator alone
 *       and never contacts the sidecar.</li>
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
  public static final String RECONNECT_MAX_MS = PREFIX + "reconnect.max-ms";
  static final long DEFAULT_RECONNECT_MAX_MS = 30000;
  public static final String GRASS_DEADLINE_MS = PREFIX + "grass.deadline-ms";
  public static final String GRASS_ERROR = PREFIX + "grass.error";
  public static final String CLUSTER_SLOTS = PREFIX + "cluster.slots";
  public static final String TASK_MEAN_MS = PREFIX + "job.task-mean-ms";
  public static final String TASK_TAIL_INDEX = PREFIX + "job.task-tail-index";
  public static final String NODE_KEY = PREFIX + "node-key";
  public static final String NODE_KEY_HOST_PORT = "host-port";
  public static final String NODE_KEY_HOST = "host";
  public static final String ENABLED = PREFIX + "enabled";
  public static final String ENABLED_QUEUES = PREFIX + "enabled.queues";
  public static final String ENABLED_USERS = PREFIX + "enabled.users";
  public static final String DISABLED_QUEUES = PREFIX + "disabled.queues";
  public static final String DISABLED_USERS = PREFIX + "disabled.users";

  public static final String DEFAULT_SPECULATOR = "hadoop";
  /** The largest task mean the sidecar takes (its bound on every time, bridge.MaxTime). */
  static final double MAX_TASK_MEAN_MS = 253_402_300_799_999.0;
  public static final long DEFAULT_TIMEOUT_MS = 1000;

  /** specbridge.url as given (one address or a comma-separated list). */
  public final String url;
  /** The sidecars' addresses, in the order they are tried; empty when no sidecar is configured. */
  public final List<String> urls;
  public final String token;
  public final String speculator;
  public final Map<String, String> params;
  public final long timeoutMs;
  public final boolean fallbackEnabled;
  public final long batchMs;
  public final int batchMax;
  public final long pingMs;
  public final long reconnectMs;
  /** The longest delay between rounds of connection attempts, which reconnectMs doubles up to. */
  public final long reconnectMaxMs;
  /** Deadline in ms after the job's start; 0: none. */
  public final long deadlineMs;
  /** Fraction of input tasks the job may do without; 0: exact. */
  public final double errorBound;
  /** Nodes are named host:port (the NodeManager's id) rather than by host alone. */
  public final boolean nodeHostPort;
  /** Which jobs the sidecar decides for. */
  public final Scope scope;
  /** Containers the cluster runs at once ({@code specbridge.cluster.slots}); 0: unknown. */
  public final int clusterSlots;
  /** Expected run time of one of the job's tasks in ms ({@code specbridge.job.task-mean-ms}); 0: unknown. */
  public final double taskMeanMs;
  /** Pareto tail index of the job's task times ({@code specbridge.job.task-tail-index}); 0: unknown. */
  public final double taskTailIndex;

  /** Reads the settings; a bad value is an IllegalArgumentException naming the key. */
  public static ShimConfig from(Configuration conf) {
    return new ShimConfig(conf);
  }

  private ShimConfig(Configuration conf) {
    urls = urls(conf.getTrimmed(URL, ""));
    url = String.join(",", urls);
    String tokenFile = conf.getTrimmed(TOKEN_FILE, "");
    token = tokenFile.isEmpty() ? conf.getTrimmed(TOKEN, "") : readToken(tokenFile);
    String named = conf.getTrimmed(SPECULATOR, DEFAULT_SPECULATOR);
    speculator = named.isEmpty() ? DEFAULT_SPECULATOR : named;
    Map<String, String> mine = new TreeMap<String, String>();
    for (Map.Entry<String, String> e : conf.getPropsWithPrefix(PARAM_PREFIX + speculator + ".").entrySet()) {
      mine.put(e.getKey(), e.getValue().trim());
    }
    params = Collections.unmodifiableMap(mine);
    timeoutMs = positiveLong(conf, TIMEOUT_MS, DEFAULT_TIMEOUT_MS);
    fallbackEnabled = conf.getBoolean(FALLBACK_ENABLED, true);
    batchMs = positiveLong(conf, BATCH_MS, 100);
    batchMax = (int) Math.min(positiveLong(conf, BATCH_MAX, 500), Integer.MAX_VALUE);
    pingMs = positiveLong(conf, PING_MS, Math.max(50, timeoutMs / 4));
    reconnectMs = positiveLong(conf, RECONNECT_MS, 1000);
    reconnectMaxMs = positiveLong(conf, RECONNECT_MAX_MS, Math.max(DEFAULT_RECONNECT_MAX_MS, reconnectMs));
    if (reconnectMaxMs < reconnectMs) {
      throw new IllegalArgumentException(RECONNECT_MAX_MS + "=" + reconnectMaxMs + " must be at least " + RECONNECT_MS
          + "=" + reconnectMs);
    }
    if (pingMs >= timeoutMs) {
      throw new IllegalArgumentException(PING_MS + "=" + pingMs + " must be below " + TIMEOUT_MS + "=" + timeoutMs);
    }
    deadlineMs = optional(conf, GRASS_DEADLINE_MS, 0L, Long::parseLong, v -> v >= 0, "a whole number of ms >= 0");
    errorBound = optional(conf, GRASS_ERROR, 0.0, Double::parseDouble, v -> v >= 0 && v < 1,
        "a fraction in [0, 1), e.g. 0.2");
    String nodeKey = conf.getTrimmed(NODE_KEY, NODE_KEY_HOST_PORT);
    if (!nodeKey.equals(NODE_KEY_HOST_PORT) && !nodeKey.equals(NODE_KEY_HOST)) {
      throw new IllegalArgumentException(NODE_KEY + "=" + nodeKey + ": want " + NODE_KEY_HOST_PORT + " or " + NODE_KEY_HOST);
    }
    nodeHostPort = nodeKey.equals(NODE_KEY_HOST_PORT);
    scope = Scope.from(conf);
    clusterSlots = optional(conf, CLUSTER_SLOTS, 0, Integer::parseInt, v -> v >= 0, "a whole number of containers >= 0");
    taskMeanMs = optional(conf, TASK_MEAN_MS, 0.0, Double::parseDouble, v -> v >= 0 && v <= MAX_TASK_MEAN_MS,
        "an expected run time of one task in ms, > 0 (0: unknown)");
    taskTailIndex = optional(conf, TASK_TAIL_INDEX, 0.0, Double::parseDouble, v -> v == 0 || (v > 1 && v <= 1e6),
        "a Pareto tail index > 1 and at most 1e6 (0: unknown)");
  }

  /** The addresses in specbridge.url: comma-separated, each ws:// or wss://, no empty entry, no repeat. */
  private static List<String> urls(String raw) {
    List<String> out = new ArrayList<String>();
    if (raw.isEmpty()) {
      return Collections.unmodifiableList(out);
    }
    for (String part : raw.split(",", -1)) {
      String u = part.trim();
      if (u.isEmpty()) {
        throw new IllegalArgumentException(URL + "=" + raw + ": an empty address in the list");
      }
      if (!(u.startsWith("ws://") || u.startsWith("wss://"))) {
        throw new IllegalArgumentException(URL + "=" + raw + ": " + u + ": want ws://host:port/v1/am or wss://...");
      }
      if (out.contains(u)) {
        throw new IllegalArgumentException(URL + "=" + raw + ": " + u + " is listed twice");
      }
      out.add(u);
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * The value of an optional key: unset when the key is absent or blank, else parse's result if ok accepts it;
   * anything else is an IllegalArgumentException saying "key=raw must be want".
   */
  private static <T> T optional(Configuration conf, String key, T unset, Function<String, T> parse, Predicate<T> ok,
      String want) {
    String raw = conf.getTrimmed(key);
    if (raw == null || raw.isEmpty()) {
      return unset;
    }
    try {
      T v = parse.apply(raw);
      if (ok.test(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(key + "=" + raw + " must be " + want);
  }

  /** Whether the job is an approximation job (a deadline or an error bound). */
  public boolean approximate() {
    return deadlineMs > 0 || errorBound > 0;
  }

  /**
   * The least {@code mapreduce.map.failures.maxpercent} that lets a job with reduces lose every map its error
   * bound allows: ceil(100 x error). The sidecar drops the maps beyond ceil((1 - error) x maps), at most
   * floor(error x maps), and floor(error x maps) x 100 &lt;= ceil(100 x error) x maps for every job size.
   */
  public int requiredMapFailuresPercent() {
    return (int) Math.ceil(100 * errorBound - 1e-9);
  }

  /**
   * A warning for the AM's log when an approximation job with reduces has too small a failure allowance for
   * its bound, else null. A job with reduces loses a dropped map as a failed map (DecisionApplier), and
   * JobImpl fails the job once more than {@code mapreduce.map.failures.maxpercent} of its maps failed; the shim
   * then refuses the drops beyond the allowance, so the job still succeeds, on more input and later.
   *
   * @param reduces the job's {@code mapreduce.job.reduces}
   * @param mapFailuresMaxPercent the job's {@code mapreduce.map.failures.maxpercent}
   */
  public String approximationWarning(int reduces, int mapFailuresMaxPercent) {
    if (!approximate() || reduces <= 0) {
      return null;
    }
    String why = "specbridge: this approximation job has " + reduces + " reduce(s), so a dropped map is made to"
        + " fail (a killed map would leave the reduces waiting for its output), and Hadoop fails the job once more"
        + " than mapreduce.map.failures.maxpercent=" + mapFailuresMaxPercent + " percent of its maps failed; ";
    if (errorBound > 0) {
      int need = requiredMapFailuresPercent();
      if (mapFailuresMaxPercent >= need) {
        return null;
      }
      return why + "with " + GRASS_ERROR + "=" + errorBound + " set mapreduce.map.failures.maxpercent to at least "
          + need + ". Until then the shim refuses drops beyond the allowance and those maps run to the end.";
    }
    if (mapFailuresMaxPercent > 0) {
      return null;
    }
    return why + "with " + GRASS_DEADLINE_MS + "=" + deadlineMs + " alone, set mapreduce.map.failures.maxpercent to"
        + " the share of maps the job may lose at its deadline. Until then the deadline drops nothing.";
  }

  private static long positiveLong(Configuration conf, String key, long def) {
    return optional(conf, key, def, Long::parseLong, v -> v > 0, "a whole number > 0");
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
