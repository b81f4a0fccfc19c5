package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.MRApp;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator;
import org.apache.hadoop.mapreduce.v2.app.speculate.Speculator;
import org.apache.hadoop.mapreduce.v2.app.speculate.SpeculatorEvent;
import org.apache.hadoop.service.CompositeService;
import org.apache.hadoop.service.Service;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A status update whose attempt id is null, from Hadoop's own AM, and what it does to Hadoop's DefaultSpeculator and
 * to the shim. TaskAttemptImpl starts every attempt with a status of its own whose id is null (its constructor
 * fills in progress, phase, state and counters; the id comes with the first report from the task's umbilical).
 * When an attempt succeeds (TA_DONE) before any report of it was processed, TaskAttemptImpl hands the speculator
 * that initial status in an ATTEMPT_STATUS_UPDATE. Hadoop's MRApp harness does exactly that for every attempt (its
 * attempts succeed without reporting); a real task's {@code done} reports before TA_DONE.
 *
 * <p>Here a map-only MRApp job runs (its attempts succeed without reporting) with each speculator inside a probe that records the events it is handed and
 * what its {@code handle} throws, and swallows it: an exception out of a speculator's handle reaches the AM's
 * AsyncDispatcher, which on Hadoop 3.5 exits the JVM by default (exit-on-error), in MRApp as in a real AM.
 */
class UnreportedSuccessMRAppTest extends ShimMRAppTest {
  static final int MAPS = 20;

  @Test
  @Timeout(300)
  void hadoopsDefaultSpeculatorThrowsOnTheStatusOfAnAttemptThatSucceedsUnreported() throws Exception {
    Probe p = run(conf(ProbedDefaultSpeculator.class), false);
    assertEquals(MAPS, p.unnamedStatuses(), "ATTEMPT_STATUS_UPDATEs without an attempt id: one per attempt, as"
        + " each succeeds unreported; events: " + p.events.size());
    assertEquals(MAPS, p.thrown.size(), "DefaultSpeculator threw " + p.thrownSummary());
    for (Throwable t : p.thrown) {
      assertTrue(t instanceof NullPointerException, "DefaultSpeculator threw " + t);
    }
  }

  @Test
  @Timeout(300)
  void theShimSkipsItInsteadAndForwardsTheRest() throws Exception {
    // No sidecar: the fallback's DefaultSpeculator decides alone, fed every event.
    Probe p = run(conf(ProbedBridgeSpeculator.class), false);
    BridgeSpeculator shim = (BridgeSpeculator) p.speculator;
    assertEquals(MAPS, p.unnamedStatuses(), "events: " + p.events.size());
    assertTrue(p.thrown.isEmpty(), "the shim's handle threw on the AM's dispatcher: " + p.thrownSummary());
    assertEquals(MAPS, shim.fallbackSkipped(), "the fallback should skip exactly the statuses naming no attempt");
    assertEquals(0, shim.fallbackErrors(), "the fallback's DefaultSpeculator threw on an event it was given");
    assertTrue(p.events.size() > 3 * MAPS, "too few events for " + MAPS + " attempts: " + p.events.size());
  }

  @Test
  @Timeout(300)
  void theShimWithTheSidecarInChargeSkipsItWithoutLosingItsSession() throws Exception {
    Configuration conf = shimConf(sidecar(), "hadoop");
    conf.setBoolean(MRJobConfig.MAP_SPECULATIVE, true);
    conf.setClass(MRJobConfig.MR_AM_JOB_SPECULATOR, ProbedBridgeSpeculator.class, Speculator.class);
    Probe p = run(conf, true);
    BridgeSpeculator shim = (BridgeSpeculator) p.speculator;
    assertEquals(MAPS, p.unnamedStatuses(), "events: " + p.events.size());
    assertTrue(p.thrown.isEmpty(), "the shim's handle threw on the AM's dispatcher: " + p.thrownSummary());
    assertEquals(MAPS, shim.fallbackSkipped());
    assertEquals(0, shim.fallbackErrors());
    // A worker error drops the session, which hands speculation to the fallback: there was none.
    assertEquals(0, shim.handovers.get(), "the shim handed over to the fallback");
  }

  private static Configuration conf(Class<? extends Speculator> probed) {
    Configuration conf = new Configuration();
    conf.setBoolean(MRJobConfig.MAP_SPECULATIVE, true);
    conf.setClass(MRJobConfig.MR_AM_JOB_SPECULATOR, probed, Speculator.class);
    return conf;
  }

  /**
   * Runs a MAPS-map job until every task runs (no attempt reports), waits for the sidecar to be in charge when
   * sidecar is set, then lets every attempt succeed (TA_DONE) and waits for the AM to stop; returns the probe.
   */
  private Probe run(Configuration conf, boolean sidecar) throws Exception {
    Probe.last = null;
    MRApp app = startRunning(conf, "sb-unreported", MAPS, 0);
    Probe p = Probe.last;
    assertNotNull(p, "MRAppMaster did not load the probe");
    if (sidecar) {
      waitForCharge((BridgeSpeculator) p.speculator, true);
    }
    finishJob(app);
    waitFor("the speculator to stop", () -> p.stopped, false);
    return p;
  }

  /**
   * A speculator MRAppMaster loads by class name, wrapping the one under test as its child service: records every
   * event the AM hands it and every Throwable the wrapped handle throws, which it swallows (see the class comment).
   */
  abstract static class Probe extends CompositeService implements Speculator {
    static volatile Probe last;
    final Speculator speculator;
    final List<SpeculatorEvent> events = new CopyOnWriteArrayList<SpeculatorEvent>();
    final List<Throwable> thrown = new CopyOnWriteArrayList<Throwable>();
    volatile boolean stopped;

    <S extends Speculator & Service> Probe(S speculator) {
      super("Probed" + speculator.getClass().getSimpleName());
      this.speculator = speculator;
      addService(speculator);
      last = this;
    }

    @Override
    public void handle(SpeculatorEvent event) {
      events.add(event);
      try {
        speculator.handle(event);
      } catch (Throwable t) {
        thrown.add(t);
      }
    }

    @Override
    public void handleAttempt(TaskAttemptStatus status) {
      speculator.handleAttempt(status);
    }

    @Override
    protected void serviceStop() throws Exception {
      super.serviceStop();
      stopped = true;
    }

    String thrownSummary() {
      return thrown.size() + " exceptions" + (thrown.isEmpty() ? "" : ", the first " + thrown.get(0));
    }

    /** The ATTEMPT_STATUS_UPDATE events whose status names no attempt. */
    long unnamedStatuses() {
      return events.stream().filter(e -> e.getType() == Speculator.EventType.ATTEMPT_STATUS_UPDATE
          && (e.getReportedStatus() == null || e.getReportedStatus().id == null)).count();
    }
  }

  /** Hadoop's DefaultSpeculator, probed. */
  public static class ProbedDefaultSpeculator extends Probe {
    public ProbedDefaultSpeculator(Configuration conf, AppContext context) {
      super(new DefaultSpeculator(conf, context));
    }
  }

  /** The shim, probed. */
  public static class ProbedBridgeSpeculator extends Probe {
    public ProbedBridgeSpeculator(Configuration conf, AppContext context) {
      super(new BridgeSpeculator(conf, context));
    }
  }
}
