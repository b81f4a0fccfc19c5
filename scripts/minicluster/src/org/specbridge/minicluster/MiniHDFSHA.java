package org.specbridge.minicluster;

import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;

/**
 * An HA HDFS for specbridge's integration tests: Hadoop's own MiniDFSCluster with two NameNodes of
 * nameservice "mycluster" (MiniDFSNNTopology.simpleHATopology) and one DataNode; NameNode 0 starts
 * active. Writes STATE/conf/core-site.xml (fs.defaultFS=hdfs://mycluster) and hdfs-site.xml (the
 * nameservice, both RPC addresses, the failover proxy provider), as a client's HADOOP_CONF_DIR, and
 * STATE/control.port: POST /failover makes the standby active and the active standby (a manual
 * failover, as `hdfs haadmin -failover` does), answering the now active NameNode's index; it also
 * accepts ?down=1 to shut the formerly active NameNode down. Runs until killed.
 *
 * Usage: MiniHDFSHA STATE_DIR
 */
public final class MiniHDFSHA {
  private static volatile int active = 0;

  public static void main(String[] args) throws Exception {
    File state = new File(args[0]);
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(state, "data").getAbsolutePath());
    conf.setInt("dfs.replication", 1);
    conf.setBoolean("dfs.permissions.enabled", false);
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf)
        .nnTopology(MiniDFSNNTopology.simpleHATopology()).numDataNodes(1).build();
    dfs.waitActive();
    dfs.transitionToActive(0);
    Configuration client = new Configuration(false);
    String ns = "mycluster";
    client.set("fs.defaultFS", "hdfs://" + ns);
    File confDir = new File(state, "conf");
    confDir.mkdirs();
    try (OutputStream out = new FileOutputStream(new File(confDir, "core-site.xml"))) {
      client.writeXml(out);
    }
    Configuration hdfsSite = new Configuration(false);
    hdfsSite.set("dfs.nameservices", ns);
    hdfsSite.set("dfs.ha.namenodes." + ns, "nn1,nn2");
    for (int i = 0; i < 2; i++) {
      hdfsSite.set("dfs.namenode.rpc-address." + ns + ".nn" + (i + 1),
          "127.0.0.1:" + dfs.getNameNode(i).getNameNodeAddress().getPort());
    }
    hdfsSite.set("dfs.client.failover.proxy.provider." + ns,
        "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
    try (OutputStream out = new FileOutputStream(new File(confDir, "hdfs-site.xml"))) {
      hdfsSite.writeXml(out);
    }
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/failover", ex -> {
      String body;
      int code = 200;
      synchronized (MiniHDFSHA.class) {
        try {
          int from = active, to = 1 - active;
          if (dfs.isNameNodeUp(from)) {
            dfs.transitionToStandby(from);
          }
          dfs.transitionToActive(to);
          active = to;
          String q = ex.getRequestURI().getQuery();
          if (q != null && q.contains("down=1")) {
            dfs.shutdownNameNode(from);
          }
          body = Integer.toString(to);
        } catch (Exception e) {
          code = 500;
          body = e.toString();
        }
      }
      byte[] b = (body + "\n").getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(code, b.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(b);
      }
    });
    server.start();
    Files.write(new File(state, "control.port.tmp").toPath(),
        Integer.toString(server.getAddress().getPort()).getBytes(StandardCharsets.UTF_8));
    new File(state, "control.port.tmp").renameTo(new File(state, "control.port"));
    System.out.println("mini HDFS HA up: nn1 " + hdfsSite.get("dfs.namenode.rpc-address." + ns + ".nn1")
        + ", nn2 " + hdfsSite.get("dfs.namenode.rpc-address." + ns + ".nn2"));
    Thread.currentThread().join();
  }
}
