package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.PrivilegedExceptionAction;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.app.MRApp;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which jobs the sidecar decides for ({@link Scope}), in Hadoop's MRApp harness against the real sidecar: a job
 * outside {@code specbridge.enabled.queues} (or with {@code specbridge.enabled=false}) runs Hadoop's
 * DefaultSpeculator and never contacts the sidecar; a job inside is bridged. The same on the real mini cluster,
 * with two capacity-scheduler queues: scripts/e2e-deploy.sh.
 */
@SuppressWarnings({"unchecked", "rawtypes"})
class ScopeMRAppTest extends ShimMRAppTest {
  private static final int MAPS = 4;

  private Configuration conf(Sidecar sidecar) {
    Configuration conf = shimConf(sidecar, "none");
    conf.setLong(MRJobConfig.SPECULATIVE_RETRY_AFTER_NO_SPECULATE, 500L);
    conf.setLong(MRJobConfig.SPECULATIVE_RETRY_AFTER_SPECULATE, 500L);
    conf.set(ShimConfig.ENABLED_QUEUES, "pilot, research");
    return conf;
  }

  /** Starts job name on base's configuration with the given key, value pairs set on top. */
  private MRApp start(Configuration base, String name, String... settings) throws Exception {
    Configuration conf = new Configuration(base);
    for (int i = 0; i < settings.length; i += 2) {
      conf.set(settings[i], settings[i + 1]);
    }
    return startRunning(conf, name, MAPS, 0);
  }

  /** The shim of the job just started, which must have left the job to Hadoop's speculator (why: the reason). */
  private static BridgeSpeculator unbridged(String why) {
    BridgeSpeculator shim = shim();
    assertFalse(shim.bridged(), why);
    assertFalse(shim.sidecarInCharge(), why);
    return shim;
  }

  /** Finishes app's job, left to Hadoop's speculator by shim: it succeeds, and the sidecar never hears of it. */
  private void finishUnseen(Sidecar sidecar, MRApp app, BridgeSpeculator shim) throws Exception {
    finishJob(app);
    assertEquals(0, shim.eventsSent.get(), "events were sent for a job out of scope");
    String log = Sidecar.read(sidecar.log);
    assertFalse(log.contains("session opened"), "the sidecar saw a job out of scope:\n" + log);
  }

  /** The job of app, just started, is bridged: the sidecar takes charge, its session log shows seen; it succeeds. */
  private void finishBridged(Sidecar sidecar, MRApp app, String seen) throws Exception {
    BridgeSpeculator shim = shim();
    assertTrue(shim.bridged());
    waitFor("the sidecar in charge", shim::sidecarInCharge, false);
    waitFor("the sidecar's session", () -> Sidecar.read(sidecar.log).contains("session opened"), false);
    assertTrue(Sidecar.read(sidecar.log).contains(seen), Sidecar.read(sidecar.log));
    finishJob(app);
  }

  @Test
  @Timeout(120)
  void aJobOutsideTheEnabledQueuesRunsHadoopsSpeculatorAndNeverContactsTheSidecar() throws Exception {
    Sidecar sidecar = sidecar();
    // Out of scope, Hadoop's speculator runs even where the bridged jobs' fallback is off.
    MRApp app = start(conf(sidecar), "sb-out-of-scope", MRJobConfig.QUEUE_NAME, "default",
        ShimConfig.FALLBACK_ENABLED, "false");
    BridgeSpeculator shim = unbridged("a job in queue default was bridged with enabled.queues=pilot,research");

    // Hadoop's own scenario (TestSpeculativeExecutionWithMRApp): every task but one finishes; the
    // DefaultSpeculator inside the shim copies the straggler.
    final Task straggler = leaveOneStraggler(app, job(app), app.getContext().getEventHandler());
    waitFor("Hadoop's speculator to copy " + straggler.getID(), () -> straggler.getAttempts().size() == 2, true);
    assertTrue(shim.fallbackLaunches() >= 1, "the copy was not Hadoop's speculator's");
    finishUnseen(sidecar, app, shim);
  }

  @Test
  @Timeout(120)
  void aJobInAnEnabledQueueIsBridged() throws Exception {
    Sidecar sidecar = sidecar();
    // root.pilot is matched by its leaf name.
    MRApp app = start(conf(sidecar), "sb-in-scope", MRJobConfig.QUEUE_NAME, "root.pilot");
    finishBridged(sidecar, app, "queue=root.pilot");
  }

  @Test
  @Timeout(120)
  void specbridgeEnabledFalseRollsTheJobBackToHadoopsSpeculator() throws Exception {
    Sidecar sidecar = sidecar();
    MRApp app = start(shimConf(sidecar, "none"), "sb-disabled", ShimConfig.ENABLED, "false");
    finishUnseen(sidecar, app, unbridged("a job with specbridge.enabled=false was bridged"));
  }

  /** The job's owner against the user lists: MRApp takes the user from the submitting UGI. */
  @Test
  @Timeout(120)
  void aJobOfAUserOutsideTheEnabledUsersIsNotBridgedAndOneInsideIs() throws Exception {
    Sidecar sidecar = sidecar();
    Configuration conf = shimConf(sidecar, "none");
    MRApp bobs = UserGroupInformation.createRemoteUser("bob").doAs(
        (PrivilegedExceptionAction<MRApp>) () -> start(conf, "sb-bob", ShimConfig.ENABLED_USERS, "alice"));
    assertEquals("bob", job(bobs).getUserName());
    finishUnseen(sidecar, bobs, unbridged("bob's job was bridged with enabled.users=alice"));

    MRApp alices = UserGroupInformation.createRemoteUser("alice").doAs(
        (PrivilegedExceptionAction<MRApp>) () -> start(conf, "sb-alice", ShimConfig.ENABLED_USERS, "alice"));
    finishBridged(sidecar, alices, "user=alice");
  }
}
