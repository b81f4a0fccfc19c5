package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.api.records.JobState;
import org.apache.hadoop.mapreduce.v2.app.MRApp;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.speculate.Speculator;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.util.ControlledClock;

/**
 * What the tests of the shim inside Hadoop's MRApp harness share: the AM's controlled clock, the shim's
 * configuration against a sidecar, submitting a job, and the shim instance the AM loaded.
 */
abstract class ShimMRAppTest extends SidecarTest {
  final ControlledClock clock = new ControlledClock();

  /** The AM's configuration to load the shim (recording its instance) for speculator on sidecar. */
  static Configuration shimConf(Sidecar sidecar, String speculator) {
    Configuration conf = new Configuration();
    conf.setClass(MRJobConfig.MR_AM_JOB_SPECULATOR, RecordingBridgeSpeculator.class, Speculator.class);
    conf.set(ShimConfig.URL, sidecar.url);
    conf.set(ShimConfig.TOKEN, Sidecar.TOKEN);
    conf.set(ShimConfig.SPECULATOR, speculator);
    conf.set(ShimConfig.TIMEOUT_MS, "1500");
    conf.set(ShimConfig.BATCH_MS, "20");
    return conf;
  }

  /** Sets the clock to now and forgets the last shim instance; before each new MRApp. */
  void resetClock() {
    clock.setTime(System.currentTimeMillis());
    RecordingBridgeSpeculator.last = null;
  }

  /** Submits conf on app, which the test's cleanup stops, and waits until the job is RUNNING. */
  Job submit(Configuration conf, final MRApp app) throws Exception {
    cleanup.add(0, () -> {
      if (app.getServiceState() != Service.STATE.STOPPED) {
        app.stop();
      }
    });
    Job job = app.submit(conf, true, true);
    app.waitForState(job, JobState.RUNNING);
    return job;
  }

  /** The shim the AM loaded last. */
  static BridgeSpeculator shim() {
    BridgeSpeculator s = RecordingBridgeSpeculator.last;
    assertNotNull(s, "MRAppMaster did not load the shim");
    return s;
  }
}
