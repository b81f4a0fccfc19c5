package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;

import org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the overhead benchmark ({@link ShimOverheadMRAppTest}) relies on, without its timing, on a job small enough
 * for the test command: the {@link OneReportJob} job run with Hadoop's DefaultSpeculator and with the shim talking
 * to the real sidecar is the same job on both sides (it succeeds with one attempt per task, no speculation, and
 * both speculators are handed the same number of events), the shim decides through the sidecar (bridged, the
 * fallback launched nothing), and the fallback's DefaultSpeculator was fed every event without skipping or
 * failing on one (every attempt reported before it succeeded, so every status names its attempt).
 */
class ShimSameJobMRAppTest {
  static final int TASKS = 300;

  @TempDir
  File dir;

  @Test
  @Timeout(600)
  void hadoopsSpeculatorAndTheShimRunTheSameJob() throws Exception {
    try (OneReportJob.QuietLogs quiet = OneReportJob.quietLogs(); Sidecar sidecar = Sidecar.start(dir)) {
      SpeculatorMeter hadoop = OneReportJob.run(null, TASKS);
      SpeculatorMeter shim = OneReportJob.run(sidecar, TASKS);

      assertTrue(hadoop.speculator instanceof DefaultSpeculator, "Hadoop's side ran " + hadoop.speculator);
      assertTrue(hadoop.events > 2L * TASKS, "Hadoop's speculator was handed " + hadoop.events + " events for "
          + TASKS + " attempts (starts and reports at least)");
      assertEquals(hadoop.events, shim.events, "the two speculators were handed different event streams");

      BridgeSpeculator bridge = (BridgeSpeculator) shim.speculator;
      assertTrue(bridge.bridged(), "the shim did not talk to the sidecar");
      assertEquals(0, bridge.fallbackLaunches(), "the fallback launched copies");
      assertEquals(0, bridge.appliedDecisions(), "the sidecar's decisions were applied: the job was not the same");
      assertTrue(bridge.framesSent() > 0, "the shim sent the sidecar nothing");
      assertEquals(0, bridge.fallbackSkipped(), "the fallback skipped events that name no attempt");
      assertEquals(0, bridge.fallbackErrors(), "the fallback's DefaultSpeculator threw on an event");
    }
  }
}
