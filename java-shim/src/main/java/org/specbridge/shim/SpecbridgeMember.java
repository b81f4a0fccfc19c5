package org.specbridge.shim;

import java.util.Locale;

import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.app.AppContext;

/**
 * The job counter group "specbridge auto member": how many of the sidecar's decisions applied to this job each
 * member policy made, when the job's policy is a composite ({@code auto}, which names its member in each
 * decision's {@code member}, PROTOCOL.md). Each counter shows under the member's registry name ("late", "sca",
 * ...); the display names are in SpecbridgeMember.properties beside this class.
 *
 * <p>Choice: one constant per shipped policy rather than a group of free-form names. The AM's only way to add to
 * a job's own counters is a {@code JobCounterUpdateEvent}, which takes an enum key (JobImpl's counters are
 * private; {@code Job.getAllCounters()} is a copy), and the job's counters are what JobHistory shows and the
 * .jhist keeps. A member name the shim does not know (a policy added to the sidecar later) counts as
 * {@link #OTHER}, so the sum over the group is every applied decision that named a member. The Go test
 * TestShimMemberCountersNameEveryPolicy checks that every registered policy has a constant here.
 */
public enum SpecbridgeMember {
  NONE, HADOOP, HADOOP_LEGACY, LATE, GS, RAS, GRASS, MANTRI, FARMS, TWS, DOLLY, SCA, SDA, ESE, SRQUANT, LASER,
  /** A member name this shim does not know. */
  OTHER;

  /**
   * The constant of a member's registry name ("hadoop-legacy" is HADOOP_LEGACY), OTHER for a name not listed,
   * null for none (an empty or missing name: a policy that is not a composite).
   */
  static SpecbridgeMember of(String name) {
    if (name == null || name.isEmpty()) {
      return null;
    }
    String key = name.toUpperCase(Locale.ROOT).replace('-', '_');
    for (SpecbridgeMember m : values()) {
      if (m.name().equals(key)) {
        return m;
      }
    }
    return OTHER;
  }

  /** Adds n to this member's counter of job; nothing when there is no job or n is 0. Never throws. */
  void add(AppContext context, JobId job, long n) {
    SpecbridgeCounter.add(context, job, this, n);
  }
}
