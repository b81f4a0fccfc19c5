package org.specbridge.minicluster;

import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.RequestSource;
import org.apache.hadoop.ha.HAServiceProtocol.StateChangeRequestInfo;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.ha.HATestUtil;

/**
 * An HA HDFS for specbridge's integration tests: Hadoop's own MiniDFSCluster with two NameNodes of
 * nameservice "mycluster" (MiniDFSNNTopology.simpleHATopology) and one DataNode; NameNode 0 starts
 * active. Writes STATE/conf/core-site.xml (fs.defaultFS=hdfs://mycluster) and hdfs-site.xml (the
 * nameservice, both RPC addresses, the failover proxy provider), as a client's HADOOP_CONF_DIR, and
 * STATE/control.port, an HTTP control endpoint (then STATE/ready):
 *
 * <ul>
 *   <li>POST /failover: a manual failover (what `hdfs haadmin -failover` does): the standby catches
 *       up with the shared edits (HATestUtil.waitForStandbyToCatchUp), the active goes standby, the
 *       standby active. If the standby had been shut down, it is restarted first (same RPC port) and
 *       waited for until it has left safe mode. Answers the now active NameNode's index.
 *   <li>POST /failover?down=1: the same, then the formerly active NameNode is shut down (a crash as
 *       the clients see it: its port refuses connections).
 *   <li>GET /state: "active=I up=0,1" (which NameNodes run).
 * </ul>
 *
 * <p>Hadoop's MiniDFSCluster.getNameNode(i) and transitionToActive(i) dereference the NameNode of
 * index i, which shutdownNameNode(i) sets to null; the launcher therefore keeps its own references
 * (nns[i], null while that NameNode is down) and drives the HA state transitions on them, as
 * MiniDFSCluster does, only on NameNodes that run.
 *
 * <p>Usage: MiniHDFSHA STATE_DIR. Runs until killed.
 */
public final class MiniHDFSHA {
  private static final String NS = "mycluster";
  private static final StateChangeRequestInfo BY_USER =
      new StateChangeRequestInfo(RequestSource.REQUEST_BY_USER_FORCED);

  private final MiniDFSCluster dfs;
  private final NameNode[] nns = new NameNode[2];
  private final int[] ports = new int[2];
  private int active = 0;

  private MiniHDFSHA(MiniDFSCluster dfs) {
    this.dfs = dfs;
    for (int i = 0; i < 2; i++) {
      nns[i] = dfs.getNameNode(i);
      ports[i] = nns[i].getNameNodeAddress().getPort();
    }
  }

  /** Restarts NameNode i (it comes up standby, on its old port) and waits until it left safe mode. */
  private void restart(int i) throws IOException, InterruptedException {
    dfs.restartNameNode(i, false);
    NameNode nn = dfs.getNameNode(i);
    int port = nn.getNameNodeAddress().getPort();
    if (port != ports[i]) {
      throw new IOException("NameNode " + i + " restarted on port " + port + ", not " + ports[i]);
    }
    long deadline = System.currentTimeMillis() + 120_000;
    while (nn.isInSafeMode()) { // the DataNode re-registers and reports its blocks
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("NameNode " + i + " still in safe mode 120 s after its restart");
      }
      Thread.sleep(100); // polling the NameNode's safe-mode state
    }
    nns[i] = nn;
  }

  /** Makes the other NameNode active; with down, shuts the formerly active one down. */
  synchronized int failover(boolean down) throws Exception {
    int from = active, to = 1 - active;
    if (nns[to] == null) {
      restart(to);
    }
    if (nns[from] != null) {
      HATestUtil.waitForStandbyToCatchUp(nns[from], nns[to]);
      nns[from].getRpcServer().transitionToStandby(BY_USER);
    }
    nns[to].getRpcServer().transitionToActive(BY_USER);
    active = to;
    if (down && nns[from] != null) {
      dfs.shutdownNameNode(from);
      nns[from] = null;
    }
    return to;
  }

  synchronized String state() {
    StringBuilder up = new StringBuilder();
    for (int i = 0; i < 2; i++) {
      if (nns[i] != null) {
        up.append(up.length() > 0 ? "," : "").append(i);
      }
    }
    return "active=" + active + " up=" + up;
  }

  public static void main(String[] args) throws Exception {
    File state = new File(args[0]);
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(state, "data").getAbsolutePath());
    conf.setInt("dfs.replication", 1);
    conf.setBoolean("dfs.permissions.enabled", false);
    conf.setInt("dfs.ha.tail-edits.period", 1); // the standby follows the edits every second
    conf.setInt("dfs.heartbeat.interval", 1); // a restarted NameNode hears from the DataNode soon
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf)
        .nnTopology(MiniDFSNNTopology.simpleHATopology()).numDataNodes(1).build();
    dfs.waitActive();
    dfs.transitionToActive(0);
    MiniHDFSHA ha = new MiniHDFSHA(dfs);
    writeClientConf(new File(state, "conf"), ha.ports);

    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/failover", ex -> {
      String body;
      int code = 200;
      try {
        if (!"POST".equals(ex.getRequestMethod())) {
          code = 405;
          body = "POST /failover[?down=1]";
        } else {
          String q = ex.getRequestURI().getQuery();
          body = Integer.toString(ha.failover(q != null && q.contains("down=1")));
          System.out.println("failover: " + ha.state());
        }
      } catch (Exception e) {
        e.printStackTrace();
        code = 500;
        body = e.toString();
      }
      reply(ex, code, body);
    });
    server.createContext("/state", ex -> reply(ex, 200, ha.state()));
    server.start();
    File tmp = new File(state, "control.port.tmp");
    Files.write(tmp.toPath(),
        Integer.toString(server.getAddress().getPort()).getBytes(StandardCharsets.UTF_8));
    if (!tmp.renameTo(new File(state, "control.port"))) {
      throw new IOException("rename " + tmp);
    }
    Files.write(new File(state, "ready").toPath(), new byte[0]);
    System.out.println("mini HDFS HA up: nn1 127.0.0.1:" + ha.ports[0] + ", nn2 127.0.0.1:" + ha.ports[1]);
    Thread.currentThread().join();
  }

  private static void reply(com.sun.net.httpserver.HttpExchange ex, int code, String body)
      throws IOException {
    byte[] b = (body + "\n").getBytes(StandardCharsets.UTF_8);
    ex.sendResponseHeaders(code, b.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(b);
    }
  }

  /** The client's HADOOP_CONF_DIR: the default FS on the nameservice, both NameNodes' addresses. */
  private static void writeClientConf(File dir, int[] ports) throws IOException {
    dir.mkdirs();
    Configuration core = new Configuration(false);
    core.set("fs.defaultFS", "hdfs://" + NS);
    try (OutputStream out = new FileOutputStream(new File(dir, "core-site.xml"))) {
      core.writeXml(out);
    }
    Configuration hdfsSite = new Configuration(false);
    hdfsSite.set("dfs.nameservices", NS);
    hdfsSite.set("dfs.ha.namenodes." + NS, "nn1,nn2");
    for (int i = 0; i < 2; i++) {
      hdfsSite.set("dfs.namenode.rpc-address." + NS + ".nn" + (i + 1), "127.0.0.1:" + ports[i]);
    }
    hdfsSite.set("dfs.client.failover.proxy.provider." + NS,
        "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
    try (OutputStream out = new FileOutputStream(new File(dir, "hdfs-site.xml"))) {
      hdfsSite.writeXml(out);
    }
  }
}
