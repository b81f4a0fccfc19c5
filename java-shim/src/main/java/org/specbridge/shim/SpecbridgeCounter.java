package org.specbridge.shim;

import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobCounterUpdateEvent;

/**
 * The job counters the shim keeps, group "specbridge" in the job's counters: what the sidecar and the fallback
 * did to this job, where an operator already looks (the JobHistory server's counters page, {@code mapred job
 * -counter}, the job's .jhist). The display names are in SpecbridgeCounter.properties beside this class, read by
 * Hadoop's counter framework as it reads its own groups'.
 *
 * <p>They are job counters, so the AM adds them with a JobCounterUpdateEvent through its dispatcher, which JobImpl
 * takes in every state. Choice: counted when the shim hands the event to the AM (a speculate decision applied is
 * the T_ADD_SPEC_ATTEMPT sent), not when the attempt starts, since that is what the shim knows; Hadoop's own
 * counters tell what became of each attempt. An AM attempt that restarts (AM recovery) starts them from zero, as
 * the counters the AM keeps for itself are.
 */
public enum SpecbridgeCounter {
  /** Speculative attempts asked for on the sidecar's speculate decisions (copies included). */
  SPECULATIVE_ATTEMPTS,
  /** Running attempts killed on the sidecar's kill decisions. */
  ATTEMPTS_KILLED,
  /** Succeeded maps re-run on the sidecar's rerun decisions (their output was lost or unreachable). */
  MAPS_RERUN,
  /** Tasks dropped on the sidecar's drop decisions (an approximation job's bound reached). */
  TASKS_DROPPED,
  /** Sidecar decisions the AM refused (the task no longer running, the sidecar not in charge, ...). */
  DECISIONS_REFUSED,
  /** Speculative attempts Hadoop's DefaultSpeculator launched while the sidecar was not in charge. */
  FALLBACK_SPECULATIVE_ATTEMPTS,
  /** Times the sidecar lost charge of speculation to Hadoop's DefaultSpeculator (fail-open). */
  HANDOVERS;

  /** Adds n to this counter of job; nothing when there is no job yet or n is 0. Never throws. */
  void add(AppContext context, JobId job, long n) {
    add(context, job, this, n);
  }

  /** Adds n to the job counter key of job (a JobCounterUpdateEvent); nothing when there is no job or n is 0. */
  static void add(AppContext context, JobId job, Enum<?> key, long n) {
    if (job == null || n == 0) {
      return;
    }
    try {
      JobCounterUpdateEvent e = new JobCounterUpdateEvent(job);
      e.addCounterUpdate(key, n);
      context.getEventHandler().handle(e);
    } catch (RuntimeException e) {
      BridgeSpeculator.LOG.debug("specbridge: counter " + key + " not updated", e);
    }
  }
}
