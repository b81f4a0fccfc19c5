package org.specbridge.shim;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;

/**
 * Which jobs the sidecar decides for, so that one cluster-wide configuration ({@code mapred-site.xml}) can turn
 * specbridge on for some queues or users only. Hadoop has no per-queue or per-user job properties, so the shim
 * reads the lists itself and a job outside them runs Hadoop's DefaultSpeculator alone, without ever contacting
 * the sidecar.
 *
 * <ul>
 *   <li>{@code specbridge.enabled} (default true): false turns the sidecar off for the job (the rollback switch;
 *       a job may also set it with {@code -D}).</li>
 *   <li>{@code specbridge.enabled.queues}, {@code specbridge.enabled.users}: comma-separated allow lists; empty
 *       (the default) allows every queue or user.</li>
 *   <li>{@code specbridge.disabled.queues}, {@code specbridge.disabled.users}: deny lists, which win over the
 *       allow lists.</li>
 * </ul>
 *
 * <p>Choices. A job must pass every list: each list narrows the set (queue AND user), so an empty list never
 * has to mean "none", and adding a list can only take jobs away, which is what an operator rolling specbridge
 * out wants to be sure of. The queue is the one the ResourceManager placed the job in (its answer to the AM's
 * registration, so scheduler placement rules are honoured), else the job's {@code mapreduce.job.queuename}; a
 * list entry matches it by full path ({@code root.research.pilot}) or, where either side is a bare name, by
 * the queue's leaf name ({@code pilot}). The user is the job's owner ({@code mapreduce.job.user.name}), matched
 * exactly.
 */
final class Scope {
  private final boolean enabled;
  private final Set<String> enabledQueues;
  private final Set<String> enabledUsers;
  private final Set<String> disabledQueues;
  private final Set<String> disabledUsers;

  private Scope(boolean enabled, Set<String> enabledQueues, Set<String> enabledUsers, Set<String> disabledQueues,
      Set<String> disabledUsers) {
    this.enabled = enabled;
    this.enabledQueues = enabledQueues;
    this.enabledUsers = enabledUsers;
    this.disabledQueues = disabledQueues;
    this.disabledUsers = disabledUsers;
  }

  static Scope from(Configuration conf) {
    String raw = conf.getTrimmed(ShimConfig.ENABLED, "true");
    if (!raw.equalsIgnoreCase("true") && !raw.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException(ShimConfig.ENABLED + "=" + raw + ": want true or false");
    }
    return new Scope(raw.equalsIgnoreCase("true"), list(conf, ShimConfig.ENABLED_QUEUES),
        list(conf, ShimConfig.ENABLED_USERS), list(conf, ShimConfig.DISABLED_QUEUES),
        list(conf, ShimConfig.DISABLED_USERS));
  }

  private static Set<String> list(Configuration conf, String key) {
    Collection<String> items = conf.getTrimmedStringCollection(key);
    Set<String> out = new LinkedHashSet<String>();
    for (String item : items) {
      if (!item.isEmpty()) {
        out.add(item);
      }
    }
    return Collections.unmodifiableSet(out);
  }

  /** False when specbridge.enabled=false: no job is bridged. */
  boolean enabled() {
    return enabled;
  }

  /** True when some job may be left out (a list is set, or specbridge is off). */
  boolean restricts() {
    return !enabled || !enabledQueues.isEmpty() || !enabledUsers.isEmpty() || !disabledQueues.isEmpty()
        || !disabledUsers.isEmpty();
  }

  /**
   * Null when the sidecar decides for a job of user in queue, else why not (for the AM's log). A null user or
   * queue matches no list entry.
   */
  String excludes(String user, String queue) {
    if (!enabled) {
      return ShimConfig.ENABLED + "=false";
    }
    if (user != null && disabledUsers.contains(user)) {
      return "user " + user + " is in " + ShimConfig.DISABLED_USERS + "=" + String.join(",", disabledUsers);
    }
    if (queueListed(disabledQueues, queue)) {
      return "queue " + queue + " is in " + ShimConfig.DISABLED_QUEUES + "=" + String.join(",", disabledQueues);
    }
    if (!enabledUsers.isEmpty() && (user == null || !enabledUsers.contains(user))) {
      return "user " + user + " is not in " + ShimConfig.ENABLED_USERS + "=" + String.join(",", enabledUsers);
    }
    if (!enabledQueues.isEmpty() && !queueListed(enabledQueues, queue)) {
      return "queue " + queue + " is not in " + ShimConfig.ENABLED_QUEUES + "=" + String.join(",", enabledQueues);
    }
    return null;
  }

  private static boolean queueListed(Set<String> list, String queue) {
    if (queue == null || queue.isEmpty()) {
      return false;
    }
    for (String entry : list) {
      if (queueMatches(entry, queue)) {
        return true;
      }
    }
    return false;
  }

  /** An entry names a queue by its full path, or by its leaf name where either side is a bare name. */
  static boolean queueMatches(String entry, String queue) {
    if (entry.equals(queue)) {
      return true;
    }
    boolean entryBare = entry.indexOf('.') < 0;
    boolean queueBare = queue.indexOf('.') < 0;
    return (entryBare || queueBare) && leaf(entry).equals(leaf(queue));
  }

  private static String leaf(String queue) {
    return queue.substring(queue.lastIndexOf('.') + 1);
  }
}
