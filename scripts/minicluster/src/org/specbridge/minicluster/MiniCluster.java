package org.specbridge.minicluster;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.mapreduce.v2.jobhistory.JHAdminConfig;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.NodeStatusUpdater;
import org.apache.hadoop.yarn.server.nodemanager.NodeStatusUpdaterImpl;

/**
 * A Hadoop mini cluster in one JVM (HDFS NameNode + DataNode, YARN ResourceManager + NodeManagers, JobHistory
 * server; Hadoop's own MiniDFSCluster and MiniMRYarnCluster) whose NodeManagers can be stopped one at a time,
 * which MiniHadoopClusterManager cannot do. scripts/minicluster.sh starts it.
 *
 * <p>Every daemon port is fixed (arguments below), the complete configuration the cluster runs with is
 * written once it is up (so a client can submit with it as-is), and a control server on 127.0.0.1 answers:
 * <ul>
 *   <li>{@code GET /nodemanagers}: one JSON object per NodeManager: index, id (host:port, YARN's NodeId),
 *       http address, service state, local directories;</li>
 *   <li>{@code POST /nodemanagers/<i>/stop}: NodeManager i stops as a crashed one does: it does not
 *       unregister from the ResourceManager, which keeps listing it RUNNING until
 *       {@code yarn.nm.liveness-monitor.expiry-interval-ms} passes without a heartbeat and then marks it
 *       LOST. Its RPC, web and shuffle servers close, and it kills its containers on the way down.</li>
 * </ul>
 * A plain {@code NodeManager.stop()} unregisters (the RM at once marks the node SHUTDOWN and tells the
 * ApplicationMasters), which is a graceful leave, not a failure; the stop here first sets the status
 * updater's private {@code failedToConnect}, the one condition under which its serviceStop skips the
 * unregistration without also needing NM recovery (Hadoop 3.4/3.5 NodeStatusUpdaterImpl.serviceStop).
 *
 * <p>Arguments: {@code -state DIR -nodemanagers N -nnport P -nnhttpport P -rmport P -rmschedulerport P
 * -rmtrackerport P -rmadminport P -rmwebport P -jhsport P -jhswebport P -jhsadminport P -controlport P
 * [-D key=value]...}. Writes DIR/conf/{hdfs,yarn,mapred,core}-site.xml (every key in each), DIR/details.json
 * (ports and NodeManagers)
 * and DIR/control.port, in that order; details.json appearing means the cluster is up.
 */
public final class MiniCluster {
  /** The daemon addresses set from the port arguments: {argument, configuration key}. */
  private static final String[][] ADDRESSES = {
      {"-rmport", YarnConfiguration.RM_ADDRESS},
      {"-rmschedulerport", YarnConfiguration.RM_SCHEDULER_ADDRESS},
      {"-rmtrackerport", YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS},
      {"-rmadminport", YarnConfiguration.RM_ADMIN_ADDRESS},
      {"-rmwebport", YarnConfiguration.RM_WEBAPP_ADDRESS},
      {"-jhsport", JHAdminConfig.MR_HISTORY_ADDRESS},
      {"-jhswebport", JHAdminConfig.MR_HISTORY_WEBAPP_ADDRESS},
      {"-jhsadminport", JHAdminConfig.JHS_ADMIN_ADDRESS},
  };
  /** The port arguments besides those of ADDRESSES: the NameNode's and the control server's. */
  private static final List<String> OTHER_PORTS = Arrays.asList("-nnport", "-nnhttpport", "-controlport");

  private final MiniMRYarnCluster yarn;
  private final int count;

  private MiniCluster(MiniMRYarnCluster yarn, int count) {
    this.yarn = yarn;
    this.count = count;
  }

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    // Application priorities on (YARN's default maximum, 0, keeps every application at 0), so that the
    // sidecar's job order (serve --rm-job-order) has levels to set; -D overrides it.
    conf.setInt(YarnConfiguration.MAX_CLUSTER_LEVEL_APPLICATION_PRIORITY, 10);
    String stateDir = null;
    int nodeManagers = 3;
    Map<String, Integer> ports = new HashMap<>(); // -nnport ... -controlport; 0 when not given
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("argument " + a + " needs a value");
      }
      String v = args[++i];
      if (a.equals("-state")) {
        stateDir = v;
      } else if (a.equals("-nodemanagers")) {
        nodeManagers = Integer.parseInt(v);
      } else if (isPort(a)) {
        ports.put(a, Integer.parseInt(v));
      } else if (a.equals("-D")) {
        int eq = v.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException("-D " + v + ": want key=value");
        }
        conf.set(v.substring(0, eq), v.substring(eq + 1));
      } else {
        throw new IllegalArgumentException("unknown argument " + a);
      }
    }
    if (stateDir == null) {
      throw new IllegalArgumentException("-state DIR is required");
    }
    File state = new File(stateDir).getAbsoluteFile();

    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf).nameNodePort(ports.getOrDefault("-nnport", 0))
        .nameNodeHttpPort(ports.getOrDefault("-nnhttpport", 0)).numDataNodes(1).format(true).build();
    dfs.waitActive();
    FileSystem.setDefaultUri(conf, dfs.getFileSystem().getUri());

    String host = MiniYARNCluster.getHostname();
    conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, true);
    conf.setBoolean(JHAdminConfig.MR_HISTORY_MINICLUSTER_FIXED_PORTS, true);
    for (String[] flagKey : ADDRESSES) {
      conf.set(flagKey[1], host + ":" + ports.getOrDefault(flagKey[0], 0));
    }
    // A fixed staging directory (the JobHistory directories live under it), so a client needs no lookup.
    conf.set(MRJobConfig.MR_AM_STAGING_DIR, "/specbridge/staging");

    MiniMRYarnCluster yarn = new MiniMRYarnCluster("specbridge", nodeManagers);
    yarn.init(conf);
    yarn.start();
    if (!yarn.waitForNodeManagersToConnect(120_000)) {
      throw new IOException("the NodeManagers did not register within 120 s");
    }
    MiniCluster mc = new MiniCluster(yarn, nodeManagers);

    // On SIGTERM: YARN stops (each NodeManager kills its containers), then the JVM halts. HDFS gets no
    // clean shutdown: its DataNode takes some 40 s over it, and every start formats it afresh anyway.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        yarn.stop();
      } finally {
        Runtime.getRuntime().halt(0);
      }
    }, "minicluster-stop"));

    // Every key goes into each site file: a client loads hdfs-, yarn- and mapred-default.xml after
    // core-site.xml, so a key only in core-site.xml would lose to their defaults (the framework "local",
    // the RM at 0.0.0.0:8032); each default file is followed by its site file. core-site.xml last: the
    // scripts wait for it.
    File confDir = new File(state, "conf");
    confDir.mkdirs();
    for (String site : new String[] {"hdfs-site.xml", "yarn-site.xml", "mapred-site.xml", "core-site.xml"}) {
      File tmp = new File(confDir, site + ".tmp");
      try (OutputStream out = new FileOutputStream(tmp)) {
        yarn.getConfig().writeXml(out);
      }
      Files.move(tmp.toPath(), new File(confDir, site).toPath(), StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    }

    InetSocketAddress controlAddress = new InetSocketAddress("127.0.0.1", ports.getOrDefault("-controlport", 0));
    HttpServer server = HttpServer.create(controlAddress, 0);
    server.createContext("/nodemanagers", mc::handle);
    server.start();
    int controlPort = server.getAddress().getPort();

    String details = "{\"namenode_port\":" + dfs.getNameNodePort() + ",\"resourcemanager_port\":\""
        + ports.getOrDefault("-rmport", 0)
        + "\",\"control_port\":" + controlPort + ",\"nodemanagers\":" + mc.nodeManagers() + "}\n";
    write(new File(state, "control.port"), controlPort + "\n");
    write(new File(state, "details.json"), details);
    System.out.println("specbridge minicluster: up; control on 127.0.0.1:" + controlPort);
    Thread.currentThread().join(); // until SIGTERM runs the shutdown hook
  }

  private static boolean isPort(String arg) {
    for (String[] flagKey : ADDRESSES) {
      if (flagKey[0].equals(arg)) {
        return true;
      }
    }
    return OTHER_PORTS.contains(arg);
  }

  private static void write(File f, String text) throws IOException {
    File tmp = new File(f.getPath() + ".tmp");
    Files.write(tmp.toPath(), text.getBytes(StandardCharsets.UTF_8));
    Files.move(tmp.toPath(), f.toPath(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private String nodeManagers() {
    List<String> out = new ArrayList<>();
    int n = count;
    for (int i = 0; i < n; i++) {
      out.add(describe(i));
    }
    return "[" + String.join(",", out) + "]";
  }

  private String describe(int i) {
    NodeManager nm = yarn.getNodeManager(i);
    String id = nm.getNMContext().getNodeId() == null ? "" : nm.getNMContext().getNodeId().toString();
    String http = nm.getNMContext().getNodeId() == null ? ""
        : nm.getNMContext().getNodeId().getHost() + ":" + nm.getNMContext().getHttpPort();
    return "{\"index\":" + i + ",\"id\":" + quote(id) + ",\"http\":" + quote(http) + ",\"state\":"
        + quote(nm.getServiceState().toString()) + ",\"local_dirs\":"
        + quote(nm.getConfig().get(YarnConfiguration.NM_LOCAL_DIRS, "")) + "}";
  }

  private static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        b.append('\\');
      }
      b.append(c < 0x20 ? ' ' : c);
    }
    return b.append('"').toString();
  }

  private void handle(HttpExchange ex) throws IOException {
    int code = 200;
    String body;
    try {
      String path = ex.getRequestURI().getPath();
      String[] parts = path.replaceAll("/+$", "").split("/");
      if (parts.length == 2 && ex.getRequestMethod().equals("GET")) {
        body = nodeManagers();
      } else if (parts.length == 4 && parts[3].equals("stop") && ex.getRequestMethod().equals("POST")) {
        int i;
        try {
          i = Integer.parseInt(parts[2]);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("no NodeManager " + parts[2]);
        }
        if (i < 0 || i >= count) {
          throw new IllegalArgumentException("no NodeManager " + i + " (there are " + count + ")");
        }
        crash(i);
        body = describe(i);
      } else {
        code = 404;
        body = "{\"error\":" + quote("want GET /nodemanagers or POST /nodemanagers/<i>/stop, not "
            + ex.getRequestMethod() + " " + path) + "}";
      }
    } catch (IllegalArgumentException e) {
      code = 400;
      body = "{\"error\":" + quote(e.getMessage()) + "}";
    } catch (Exception e) {
      code = 500;
      body = "{\"error\":" + quote(String.valueOf(e)) + "}";
    }
    byte[] b = (body + "\n").getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(code, b.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(b);
    }
  }

  /** Stops NodeManager i without unregistering it, as a crash would. */
  private synchronized void crash(int i) throws Exception {
    NodeManager nm = yarn.getNodeManager(i);
    if (nm.getServiceState() != Service.STATE.STARTED) {
      return; // stopped already
    }
    NodeStatusUpdater updater = nm.getNodeStatusUpdater();
    if (!(updater instanceof NodeStatusUpdaterImpl)) {
      throw new IllegalStateException("NodeManager " + i + " has a " + updater.getClass().getName()
          + ", not a NodeStatusUpdaterImpl: cannot stop it without unregistering");
    }
    Field f = NodeStatusUpdaterImpl.class.getDeclaredField("failedToConnect");
    f.setAccessible(true);
    f.setBoolean(updater, true);
    System.out.println("specbridge minicluster: stopping NodeManager " + i + " (" + nm.getNMContext().getNodeId()
        + ") without unregistering");
    nm.stop();
  }
}
