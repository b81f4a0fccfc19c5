package org.specbridge.minicluster;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.http.HttpConfig;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.apache.hadoop.security.ssl.KeyStoreTestUtil;

/**
 * A Kerberos-secured HDFS for specbridge's integration tests: Hadoop's MiniKdc (Apache Kerby) and a
 * MiniDFSCluster (one NameNode, one DataNode) with hadoop.security.authentication=kerberos, service
 * principals hdfs/localhost and HTTP/localhost, block access tokens, and SASL on data transfer
 * (dfs.data.transfer.protection=authentication) since the DataNode has no privileged ports; HTTPS
 * only for the web endpoints, with test key stores (the set-up of Hadoop's SaslDataTransferTestCase).
 *
 * <p>Writes into STATE: krb5.conf (the KDC's, for clients' KRB5_CONFIG), specbridge.keytab (the
 * client principal specbridge@REALM), conf/ (a client's HADOOP_CONF_DIR: core-site.xml with
 * fs.defaultFS and hadoop.security.authentication=kerberos; hdfs-site.xml with
 * dfs.namenode.kerberos.principal and dfs.data.transfer.protection), env (shell assignments of
 * those paths, the principal and the file system URL), then ready. /specbridge belongs to the
 * client principal's user; permissions are on. Runs until killed.
 *
 * <p>Usage: MiniHDFSKerberos STATE_DIR
 */
public final class MiniHDFSKerberos {
  public static void main(String[] args) throws Exception {
    File state = new File(args[0]).getAbsoluteFile();
    File kdcDir = new File(state, "kdc");
    kdcDir.mkdirs();
    Properties kdcConf = MiniKdc.createConf();
    MiniKdc kdc = new MiniKdc(kdcConf, kdcDir);
    kdc.start(); // also points this JVM's java.security.krb5.conf at the KDC
    String realm = kdc.getRealm();
    File hdfsKeytab = new File(state, "hdfs.keytab");
    kdc.createPrincipal(hdfsKeytab, "hdfs/localhost", "HTTP/localhost");
    File userKeytab = new File(state, "specbridge.keytab");
    kdc.createPrincipal(userKeytab, "specbridge");
    String hdfsPrincipal = "hdfs/localhost@" + realm;
    String userPrincipal = "specbridge@" + realm;
    Files.copy(kdc.getKrb5conf().toPath(), new File(state, "krb5.conf").toPath(),
        StandardCopyOption.REPLACE_EXISTING);

    HdfsConfiguration conf = new HdfsConfiguration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(state, "data").getAbsolutePath());
    conf.setInt("dfs.replication", 1);
    SecurityUtil.setAuthenticationMethod(AuthenticationMethod.KERBEROS, conf);
    conf.set("dfs.namenode.kerberos.principal", hdfsPrincipal);
    conf.set("dfs.namenode.keytab.file", hdfsKeytab.getAbsolutePath());
    conf.set("dfs.datanode.kerberos.principal", hdfsPrincipal);
    conf.set("dfs.datanode.keytab.file", hdfsKeytab.getAbsolutePath());
    conf.set("dfs.web.authentication.kerberos.principal", "HTTP/localhost@" + realm);
    conf.setBoolean("dfs.block.access.token.enable", true);
    conf.set("dfs.data.transfer.protection", "authentication");
    conf.set("dfs.http.policy", HttpConfig.Policy.HTTPS_ONLY.name());
    conf.set("dfs.namenode.https-address", "localhost:0");
    conf.set("dfs.datanode.https.address", "localhost:0");
    conf.setInt("ipc.client.connect.max.retries.on.sasl", 10);
    String keystores = new File(state, "keystores").getAbsolutePath();
    new File(keystores).mkdirs();
    String sslConfDir = KeyStoreTestUtil.getClasspathDir(MiniHDFSKerberos.class);
    KeyStoreTestUtil.setupSSLConfig(keystores, sslConfDir, conf, false);
    conf.set("dfs.client.https.keystore.resource", KeyStoreTestUtil.getClientSSLConfigFileName());
    conf.set("dfs.https.server.keystore.resource", KeyStoreTestUtil.getServerSSLConfigFileName());

    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    dfs.waitActive();
    // The launcher is logged in as hdfs (the NameNode's login), the superuser: give the client a
    // directory of its own.
    FileSystem fs = dfs.getFileSystem();
    Path home = new Path("/specbridge");
    fs.mkdirs(home);
    fs.setOwner(home, "specbridge", "specbridge");
    String fsURL = "hdfs://localhost:" + dfs.getNameNodePort();

    File confDir = new File(state, "conf");
    confDir.mkdirs();
    Configuration core = new Configuration(false);
    core.set("fs.defaultFS", fsURL);
    core.set("hadoop.security.authentication", "kerberos");
    core.set("hadoop.rpc.protection", "authentication");
    write(core, new File(confDir, "core-site.xml"));
    Configuration hdfsSite = new Configuration(false);
    hdfsSite.set("dfs.namenode.kerberos.principal", hdfsPrincipal);
    hdfsSite.set("dfs.data.transfer.protection", "authentication");
    write(hdfsSite, new File(confDir, "hdfs-site.xml"));

    String env = "SPECBRIDGE_KRB_FS=" + fsURL + "\n"
        + "SPECBRIDGE_KRB_CONF=" + confDir + "\n"
        + "SPECBRIDGE_KRB_KRB5CONF=" + new File(state, "krb5.conf") + "\n"
        + "SPECBRIDGE_KRB_KEYTAB=" + userKeytab + "\n"
        + "SPECBRIDGE_KRB_PRINCIPAL=" + userPrincipal + "\n";
    Files.write(new File(state, "env").toPath(), env.getBytes(StandardCharsets.UTF_8));
    Files.write(new File(state, "ready").toPath(), new byte[0]);
    System.out.println("mini HDFS Kerberos up: " + fsURL + ", realm " + realm + ", KDC port " + kdc.getPort());
    Thread.currentThread().join();
  }

  private static void write(Configuration c, File f) throws IOException {
    try (OutputStream out = new FileOutputStream(f)) {
      c.writeXml(out);
    }
  }
}
