package org.specbridge.shim;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.mapreduce.v2.TestSpeculativeExecution;
import org.apache.hadoop.mapreduce.v2.TestSpeculativeExecutionWithMRApp;
import org.junit.platform.suite.api.AfterSuite;
import org.junit.platform.suite.api.BeforeSuite;
import org.junit.platform.suite.api.SelectClasses;
import org.junit.platform.suite.api.Suite;

/**
 * Hadoop's own speculation tests, unchanged, from the hadoop-mapreduce-client-jobclient tests jar, with the shim
 * as the AM's speculator and the real sidecar running {@code late} deciding.
 *
 * <p>Nothing of the tests is copied: before any of them reads a Hadoop Configuration, this suite starts the
 * sidecar and writes {@code mapred-site.xml} into {@code target/hadoop-suite-conf}, a directory the
 * {@code hadoop-speculation-tests} surefire execution puts on the test classpath. Hadoop loads that file as a
 * default resource into every JobConf: in MRApp (TestSpeculativeExecutionWithMRApp) and, since
 * MiniMRYarnCluster hands the test JVM's classpath to its containers, in the ApplicationMasters of
 * TestSpeculativeExecution too. It sets {@code yarn.app.mapreduce.am.job.speculator.class} to
 * {@link BridgeSpeculator} and the {@code specbridge.*} settings.
 *
 * <p>The tests would also pass if Hadoop's DefaultSpeculator (the shim's fallback) did the speculating, so after
 * them this suite checks the sidecar's log: every job that opened a session must have had a speculate decision
 * from the sidecar applied by the AM.
 *
 * <p>LATE's one-minute rule ({@code min-runtime-ms}) is lowered to 1 s: the stragglers in Hadoop's tests run
 * 10 s (TestSpeculativeExecution) or are waited for 60 s of test-clock time (TestSpeculativeExecutionWithMRApp),
 * so with the paper's 60 s LATE could never speculate them in time.
 */
@Suite
@SelectClasses({TestSpeculativeExecutionWithMRApp.class, TestSpeculativeExecution.class})
public class HadoopSpeculationSuite {
  static final String LATE_MIN_RUNTIME_MS = "1000";

  private static Sidecar sidecar;
  private static File site;

  @BeforeSuite
  static void startSidecarAndWriteSite() throws Exception {
    File target = new File(System.getProperty("specbridge.repo.root", ".."), "java-shim/target").getCanonicalFile();
    File dir = new File(target, "hadoop-suite-sidecar");
    dir.mkdirs();
    sidecar = Sidecar.start(dir);
    File conf = new File(target, "hadoop-suite-conf");
    conf.mkdirs();
    Map<String, String> props = new LinkedHashMap<String, String>();
    props.put("yarn.app.mapreduce.am.job.speculator.class", BridgeSpeculator.class.getName());
    props.put(ShimConfig.URL, sidecar.url);
    props.put(ShimConfig.TOKEN_FILE, new File(dir, "token").getPath());
    props.put(ShimConfig.SPECULATOR, "late");
    props.put(ShimConfig.PARAM_PREFIX + "late.min-runtime-ms", LATE_MIN_RUNTIME_MS);
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<!-- Written by HadoopSpeculationSuite. -->\n"
        + "<configuration>\n");
    for (Map.Entry<String, String> e : props.entrySet()) {
      xml.append("  <property><name>").append(e.getKey()).append("</name><value>").append(e.getValue())
          .append("</value></property>\n");
    }
    xml.append("</configuration>\n");
    site = new File(conf, "mapred-site.xml");
    Files.write(site.toPath(), xml.toString().getBytes(StandardCharsets.UTF_8));
    if (Thread.currentThread().getContextClassLoader().getResource("mapred-site.xml") == null) {
      throw new IllegalStateException(conf + " is not on the test classpath (see the hadoop-speculation-tests "
          + "execution in pom.xml)");
    }
  }

  @AfterSuite
  static void checkTheSidecarDecidedAndStop() throws Exception {
    try {
      if (sidecar == null) {
        return;
      }
      String log = Sidecar.read(sidecar.log);
      Map<String, int[]> jobs = sessionsAndAppliedDecisions(log);
      StringBuilder missing = new StringBuilder();
      for (Map.Entry<String, int[]> e : jobs.entrySet()) {
        if (e.getValue()[1] == 0) {
          missing.append(' ').append(e.getKey());
        }
      }
      System.out.println("HadoopSpeculationSuite: sidecar sessions (job -> applied decisions): " + summary(jobs));
      if (jobs.isEmpty()) {
        throw new AssertionError("no AM opened a session with the sidecar; the shim was not used. Sidecar log:\n" + log);
      }
      if (missing.length() > 0) {
        throw new AssertionError("jobs whose AM applied no sidecar decision (so Hadoop's fallback, not the sidecar, "
            + "must have speculated):" + missing + "; sidecar log " + sidecar.log);
      }
    } finally {
      if (site != null && !site.delete()) {
        System.err.println("HadoopSpeculationSuite: could not delete " + site);
      }
      if (sidecar != null) {
        sidecar.close();
      }
    }
  }

  private static final Pattern JOB = Pattern.compile("job=(job_\\d+_\\d+)");
  private static final Pattern SESSION = Pattern.compile("session=(\\S+)");

  /**
   * Per session ("job session"): [1, decisions the AM acked as applied], read from the sidecar's debug log.
   * (MRApp gives every job the id job_0_0000, so sessions, not jobs, are counted.)
   */
  static Map<String, int[]> sessionsAndAppliedDecisions(String log) {
    Map<String, int[]> sessions = new LinkedHashMap<String, int[]>();
    for (String line : log.split("\n")) {
      Matcher job = JOB.matcher(line);
      Matcher session = SESSION.matcher(line);
      if (!job.find() || !session.find()) {
        continue;
      }
      String key = job.group(1) + " " + session.group(1);
      int[] counts = sessions.get(key);
      if (line.contains("session opened")) {
        if (counts == null) {
          counts = new int[2];
          sessions.put(key, counts);
        }
        counts[0]++;
      } else if (line.contains("decision applied") && counts != null) {
        counts[1]++;
      }
    }
    return sessions;
  }

  private static String summary(Map<String, int[]> jobs) {
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, int[]> e : jobs.entrySet()) {
      b.append(b.length() == 0 ? "" : ", ").append(e.getKey()).append(" -> ").append(e.getValue()[1]);
    }
    return b.toString();
  }
}
