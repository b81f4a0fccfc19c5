package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.PrivilegedExceptionAction;
import java.util.HashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.api.records.JobState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskState;
import org.apache.hadoop.mapreduce.v2.app.MRApp;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.event.EventHandler;
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
  private final Map<Job, MRApp> apps = new HashMap<Job, MRApp>();

  private Configuration conf(Sidecar sidecar) {
    Configuration conf = shimConf(sidecar, "none");
    conf.setLong(MRJobConfig.SPECULATIVE_RETRY_AFTER_NO_SPECULATE, 500L);
    conf.setLong(MRJobConfig.SPECULATIVE_RETRY_AFTER_SPECULATE, 500L);
    conf.set(ShimConfig.ENABLED_QUEUES, "pilot, research");
    return conf;
  }

  private Job start(Configuration conf, String name) throws Exception {
    resetClock();
    MRApp app = new MRApp(MAPS, 0, false, name, true, clock);
    Job job = submit(conf, app);
    for (Task t : job.getTasks().values()) {
      app.waitForState(t, TaskState.RUNNING);
    }
    apps.put(job, app);
    return job;
  }

  @Test
  @Timeout(120)
  void aJobOutsideTheEnabledQueuesRunsHadoopsSpeculatorAndNeverContactsTheSidecar() throws Exception {
    Sidecar sidecar = sidecar();
    Configuration conf = conf(sidecar);
    conf.set(MRJobConfig.QUEUE_NAME, "default");
    // Out of scope, Hadoop's speculator runs even where the bridged jobs' fallback is off.
    conf.set(ShimConfig.FALLBACK_ENABLED, "false");
    Job job = start(conf, "sb-out-of-scope");
    MRApp app = apps.get(job);
    BridgeSpeculator shim = shim();
    assertFalse(shim.bridged(), "a job in queue default was bridged with enabled.queues=pilot,research");

    // Hadoop's own scenario (TestSpeculativeExecutionWithMRApp): every task but one finishes; the
    // DefaultSpeculator inside the shim copies the straggler.
    EventHandler events = app.getContext().getEventHandler();
    final Task straggler = leaveOneStraggler(app, job, events);
    waitFor("Hadoop's speculator to copy " + straggler.getID(), () -> straggler.getAttempts().size() == 2, true);
    assertTrue(shim.fallbackLaunches() >= 1, "the copy was not Hadoop's speculator's");
    finishJob(app, job, events);
    assertEquals(JobState.SUCCEEDED, job.getState());
    assertEquals(0, shim.eventsSent.get(), "events were sent for a job out of scope");
    String log = Sidecar.read(sidecar.log);
    assertFalse(log.contains("session opened"), "the sidecar saw a job out of scope:\n" + log);
  }

  @Test
  @Timeout(120)
  void aJobInAnEnabledQueueIsBridged() throws Exception {
    Sidecar sidecar = sidecar();
    Configuration conf = conf(sidecar);
    conf.set(MRJobConfig.QUEUE_NAME, "root.pilot"); // matched by its leaf name
    Job job = start(conf, "sb-in-scope");
    BridgeSpeculator shim = shim();
    assertTrue(shim.bridged());
    waitFor("the sidecar in charge", shim::sidecarInCharge, false);
    waitFor("the sidecar's session", () -> Sidecar.read(sidecar.log).contains("session opened"), false);
    assertTrue(Sidecar.read(sidecar.log).contains("queue=root.pilot"), Sidecar.read(sidecar.log));
    finishJob(apps.get(job), job, apps.get(job).getContext().getEventHandler());
    assertEquals(JobState.SUCCEEDED, job.getState());
  }

  @Test
  @Timeout(120)
  void specbridgeEnabledFalseRollsTheJobBackToHadoopsSpeculator() throws Exception {
    Sidecar sidecar = sidecar();
    Configuration conf = shimConf(sidecar, "none");
    conf.set(ShimConfig.ENABLED, "false");
    Job job = start(conf, "sb-disabled");
    BridgeSpeculator shim = shim();
    assertFalse(shim.bridged());
    assertFalse(shim.sidecarInCharge());
    finishJob(apps.get(job), job, apps.get(job).getContext().getEventHandler());
    assertEquals(JobState.SUCCEEDED, job.getState());
    assertEquals(0, shim.eventsSent.get());
    assertFalse(Sidecar.read(sidecar.log).contains("session opened"), Sidecar.read(sidecar.log));
  }

  /** The job's owner against the user lists: MRApp takes the user from the submitting UGI. */
  @Test
  @Timeout(120)
  void aJobOfAUserOutsideTheEnabledUsersIsNotBridgedAndOneInsideIs() throws Exception {
    Sidecar sidecar = sidecar();
    Configuration conf = shimConf(sidecar, "none");
    conf.set(ShimConfig.ENABLED_USERS, "alice");
    Job bobs = UserGroupInformation.createRemoteUser("bob").doAs(
        (PrivilegedExceptionAction<Job>) () -> start(new Configuration(conf), "sb-bob"));
    BridgeSpeculator shim = shim();
    assertEquals("bob", bobs.getUserName());
    assertFalse(shim.bridged(), "bob's job was bridged with enabled.users=alice");
    finishJob(apps.get(bobs), bobs, apps.get(bobs).getContext().getEventHandler());
    assertEquals(JobState.SUCCEEDED, bobs.getState());
    assertFalse(Sidecar.read(sidecar.log).contains("session opened"), Sidecar.read(sidecar.log));

    Job alices = UserGroupInformation.createRemoteUser("alice").doAs(
        (PrivilegedExceptionAction<Job>) () -> start(new Configuration(conf), "sb-alice"));
    BridgeSpeculator aliceShim = shim();
    assertTrue(aliceShim.bridged());
    waitFor("the sidecar in charge", aliceShim::sidecarInCharge, false);
    waitFor("the sidecar's session", () -> Sidecar.read(sidecar.log).contains("user=alice"), false);
    finishJob(apps.get(alices), alices, apps.get(alices).getContext().getEventHandler());
    assertEquals(JobState.SUCCEEDED, alices.getState());
  }
}
