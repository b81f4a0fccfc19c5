package org.specbridge.shim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;

/**
 * What the shim knows of the job's attempts, kept incrementally, so that the ends of attempts (which Hadoop
 * announces to no speculator) are found without walking the job. Pure: the AM's attempt states come through
 * {@link States}, so every rule can be tested with a fake.
 *
 * <p>How ends are found, and what each costs (AppContext lookups, each a few of Hadoop's read locks):
 * <ul>
 * <li>An event about an attempt or its task (start, status report, container need) checks that task's tracked
 * attempts only: O(attempts of the task). A success is found at once this way, since TaskAttemptImpl sends the
 * speculator a status event (progress 1) when an attempt moves to SUCCEEDED; reports of running attempts
 * (progress below 1) are not checked.</li>
 * <li>A running attempt killed or failed (by the AM, the node, the task's timeout) sends nothing: a sweep of the
 * live attempts finds it. The shim sweeps once a second ({@code BridgeSpeculator}), which costs one lookup per
 * running attempt per second: less than DefaultSpeculator's own scan, which visits every task of the job each
 * second.</li>
 * <li>A succeeded map whose output is lost (fetch failures, a lost node, a {@code rerun}) goes back to SCHEDULED
 * and TaskImpl schedules a new attempt, whose container request reaches the speculator as a container-need
 * event for that task: the tracker checks the succeeded attempt then, and only then. Succeeded maps are never
 * swept.</li>
 * </ul>
 *
 * <p>Single-threaded: owned by the shim's worker.
 */
final class AttemptTracker {
  /** The AM's view of an attempt. */
  interface States {
    /** The attempt's state, or null when the AM has no such attempt. */
    TaskAttemptState state(TaskAttemptId id);

    /** The attempt's finish time on the AM's clock, or 0 when unknown. */
    long finishTime(TaskAttemptId id);
  }

  /** An attempt that ended, as the wire reports it. */
  static final class End {
    final String kind;
    final TaskAttemptId attempt;
    final long time;

    End(String kind, TaskAttemptId attempt, long time) {
      this.kind = kind;
      this.attempt = attempt;
      this.time = time;
    }

    @Override
    public String toString() {
      return kind + " " + attempt + " @" + time;
    }
  }

  private final States states;
  /** Live attempts by task, in start order; the sweep walks these only. */
  private final Map<TaskId, List<TaskAttemptId>> live = new LinkedHashMap<TaskId, List<TaskAttemptId>>();
  private int liveCount;
  /** The succeeded attempt of each map whose output the job still has. */
  private final Map<TaskId, TaskAttemptId> succeededMaps = new HashMap<TaskId, TaskAttemptId>();
  /** Every attempt the sidecar has been told of (a start, or a resync snapshot), live or ended. */
  private final Set<TaskAttemptId> announced = new HashSet<TaskAttemptId>();
  /** AppContext lookups made, for tests and the stop log. */
  long lookups;

  AttemptTracker(States states) {
    this.states = states;
  }

  /** Forgets everything (before a resync rebuilds it). */
  void clear() {
    live.clear();
    liveCount = 0;
    succeededMaps.clear();
    announced.clear();
  }

  /** Whether the sidecar has been told of the attempt (its start, or a resync snapshot holding it). */
  boolean announced(TaskAttemptId id) {
    return announced.contains(id);
  }

  /** Records that a resync snapshot tells the sidecar of an attempt that has ended. */
  void announce(TaskAttemptId id) {
    announced.add(id);
  }

  int liveAttempts() {
    return liveCount;
  }

  int succeededMaps() {
    return succeededMaps.size();
  }

  /**
   * Records a started attempt; returns whether another attempt of its task is live (the new one is then a
   * speculative copy). O(attempts of the task).
   */
  boolean started(TaskAttemptId id) {
    announced.add(id);
    List<TaskAttemptId> mine = live.get(id.getTaskId());
    if (mine == null) {
      mine = new ArrayList<TaskAttemptId>(1);
      live.put(id.getTaskId(), mine);
    }
    if (!mine.contains(id)) {
      mine.add(id);
      liveCount++;
    }
    return mine.size() > 1;
  }

  /** Records an attempt the snapshot says is live (resync), without the speculative rule. */
  void live(TaskAttemptId id) {
    started(id);
  }

  /** Records a map attempt that has succeeded, whose output is to be watched (resync). */
  void succeededMap(TaskAttemptId id) {
    succeededMaps.put(id.getTaskId(), id);
  }

  /**
   * Checks the tracked attempts of one task, live ones and its succeeded map; appends the ends found to out.
   * lostOutput says whether to check the succeeded map (a container-need or start event for the task).
   */
  void check(TaskId task, boolean lostOutput, long now, List<End> out) {
    List<TaskAttemptId> mine = live.get(task);
    if (mine != null) {
      for (Iterator<TaskAttemptId> it = mine.iterator(); it.hasNext();) {
        if (ended(it.next(), now, out)) {
          it.remove();
          liveCount--;
        }
      }
      if (mine.isEmpty()) {
        live.remove(task);
      }
    }
    if (lostOutput) {
      checkOutput(task, now, out);
    }
  }

  /** Checks every live attempt (the periodic sweep); appends the ends found to out. O(live attempts). */
  void sweep(long now, List<End> out) {
    for (Iterator<Map.Entry<TaskId, List<TaskAttemptId>>> tasks = live.entrySet().iterator(); tasks.hasNext();) {
      List<TaskAttemptId> mine = tasks.next().getValue();
      for (Iterator<TaskAttemptId> it = mine.iterator(); it.hasNext();) {
        if (ended(it.next(), now, out)) {
          it.remove();
          liveCount--;
        }
      }
      if (mine.isEmpty()) {
        tasks.remove();
      }
    }
  }

  /** True (and the end appended) when the live attempt id has ended. */
  private boolean ended(TaskAttemptId id, long now, List<End> out) {
    lookups++;
    TaskAttemptState st = states.state(id);
    if (st == null) {
      st = TaskAttemptState.KILLED;
    }
    String kind = Wire.endKind(st);
    if (kind == null) {
      return false;
    }
    long finish = states.finishTime(id);
    out.add(new End(kind, id, finish > 0 ? finish : now));
    if (st == TaskAttemptState.SUCCEEDED && id.getTaskId().getTaskType() == TaskType.MAP) {
      // A map that succeeded twice (its first output was lost): report the first one's loss before watching
      // the second.
      checkOutput(id.getTaskId(), now, out);
      succeededMaps.put(id.getTaskId(), id);
    }
    return true;
  }

  /** Reports the task's succeeded map attempt as failed or killed if it is no longer SUCCEEDED. */
  private void checkOutput(TaskId task, long now, List<End> out) {
    TaskAttemptId id = succeededMaps.get(task);
    if (id == null) {
      return;
    }
    lookups++;
    TaskAttemptState st = states.state(id);
    if (st == TaskAttemptState.SUCCEEDED) {
      return;
    }
    succeededMaps.remove(task); // output lost: the map runs again
    out.add(new End(st == TaskAttemptState.FAILED ? Protocol.EVENT_ATTEMPT_FAILED : Protocol.EVENT_ATTEMPT_KILLED, id, now));
  }
}
