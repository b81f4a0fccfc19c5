package org.specbridge.shim;

import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptCompletionEvent;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptCompletionEventStatus;
import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobTaskAttemptCompletedEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptKillEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskEventType;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskTAttemptFailedEvent;
import org.apache.hadoop.yarn.factory.providers.RecordFactoryProvider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Applies one sidecar decision to the AM, after DecisionGuard allows it.
 *
 * <p><b>Dropping a map</b> (approximation jobs) takes one of two routes, chosen by whether the job has reduces:
 * <ul>
 * <li>Map-only job: {@code TaskEvent(T_KILL)}. The task ends KILLED, which JobImpl counts as completed and not
 * as failed, so the job SUCCEEDS without any failure allowance.</li>
 * <li>Job with reduces: a KILLED map would leave every reduce waiting in its shuffle for ever. A reduce learns
 * about maps only from the job's map completion events: its ShuffleSchedulerImpl treats FAILED, KILLED and
 * OBSOLETE as "this output is gone, a new attempt will come" and only {@code TIPFAILED} as "this map will never
 * have output, stop waiting for it". So the shim makes the map <em>fail</em>, at once and without a retry:
 * it sends the task a {@code TaskTAttemptFailedEvent(attempt, fastFail = true)} for one of its unfinished
 * attempts. TaskImpl's AttemptFailedTransition has a no-retry branch for exactly that flag (the one
 * TaskAttemptImpl takes for an attempt told to fail fast): TaskImpl raises the TIPFAILED completion event,
 * kills the task's attempts, goes to FAILED, and JobImpl weighs the failed map against
 * {@code mapreduce.map.failures.maxpercent}. The attempt itself ends KILLED (its task kills it), so the sidecar
 * and its fault analyzer see no failed attempt on the node.</li>
 * </ul>
 *
 * <p>Choices made here, with their reasons:
 * <ul>
 * <li>Why not {@code TA_FAILMSG_BY_CLIENT} (what {@code mapred job -fail-task} sends) or a
 * {@code TaskAttemptFailEvent(fastFail)} to the attempt: in Hadoop 3.5.0's TaskAttemptImpl neither reaches
 * TaskImpl as a fast fail from a running attempt (the RUNNING state sends {@code TaskTAttemptFailedEvent(false)}
 * on TA_FAILMSG, and TA_FAILMSG_BY_CLIENT never carries the flag), so the task would be retried up to
 * {@code mapreduce.map.maxattempts} times.</li>
 * <li>The attempt named in the failure is one with a container when there is one: TaskImpl publishes a
 * completion event only for an attempt that has a node. A map whose only attempt has no container yet
 * (UNASSIGNED: the cluster had no room for it) fails the same way (the attempt's container request is
 * withdrawn, no container is wasted), and the shim then publishes the TIPFAILED completion event itself
 * ({@code JobTaskAttemptCompletedEvent}, map output address empty: a TIPFAILED event is never fetched from).
 * If a container was assigned in between, TaskImpl publishes one too; reduces ignore the second.</li>
 * <li>Known race, as for speculation: the state check and the dispatch are not atomic. If the chosen attempt
 * succeeds in between, TaskImpl (now SUCCEEDED) takes the failure retroactively and the map is failed all the
 * same, its output marked obsolete; which is what the drop asked for.</li>
 * <li>A task that is NEW (not scheduled yet: only before the job starts) has no attempt to fail, and
 * T_KILL would hang the reduces: the drop is refused.</li>
 * <li>The shim never makes a job fail: a drop that would take the failed-or-dropped maps above
 * {@code mapreduce.map.failures.maxpercent} (read from the job configuration, as JobImpl reads it at init) is
 * refused, with the reason naming the property, and the map runs on. The shim does not raise the allowance
 * itself: it is the user's statement of how much input the job may lose, and it would also let real map
 * failures pass; the AM logs a warning at start when it is below the error bound (see
 * {@link ShimConfig#approximationWarning}).</li>
 * <li>A failed map's attempt with a container counts once against its node in the allocator's blacklisting
 * ({@code mapreduce.job.maxtaskfailures.per.tracker}), as any failed attempt does.</li>
 * </ul>
 */
final class DecisionApplier {
  private final AppContext context;
  private final Set<TaskId> pendingSpeculation;
  private final int mapFailuresMaxPercent;
  private final int mapMaxAttempts;
  private final int reduceMaxAttempts;
  /** Whether the job has speculation on for maps and for reduces (see {@link #speculationOn}). */
  private boolean mapsOn = true;
  private boolean reducesOn = true;
  /** Maps this applier has made fail (drop decisions of jobs with reduces). */
  private final Set<TaskId> failedByDrop = Collections.newSetFromMap(new ConcurrentHashMap<TaskId, Boolean>());
  final AtomicInteger applied = new AtomicInteger();
  final AtomicInteger refused = new AtomicInteger();

  DecisionApplier(AppContext context, Set<TaskId> pendingSpeculation) {
    this(context, pendingSpeculation, 0);
  }

  /**
   * @param mapFailuresMaxPercent the job's {@code mapreduce.map.failures.maxpercent}: how many maps, in percent
   *     of all, may fail before Hadoop fails the job
   */
  DecisionApplier(AppContext context, Set<TaskId> pendingSpeculation, int mapFailuresMaxPercent) {
    this(context, pendingSpeculation, mapFailuresMaxPercent, DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_ATTEMPTS);
  }

  /**
   * @param mapMaxAttempts the job's {@code mapreduce.map.maxattempts}, {@code reduceMaxAttempts} its
   *     {@code mapreduce.reduce.maxattempts}: see {@link #copyRoom}
   */
  DecisionApplier(AppContext context, Set<TaskId> pendingSpeculation, int mapFailuresMaxPercent, int mapMaxAttempts,
      int reduceMaxAttempts) {
    this.context = context;
    this.pendingSpeculation = pendingSpeculation;
    this.mapFailuresMaxPercent = mapFailuresMaxPercent;
    this.mapMaxAttempts = mapMaxAttempts;
    this.reduceMaxAttempts = reduceMaxAttempts;
  }

  /**
   * Sets the job's {@code mapreduce.map.speculative} and {@code mapreduce.reduce.speculative}. A speculate
   * decision for a task type whose speculation is off is refused, as the simulator launches no copy of it: the
   * sidecar sees that type's attempts all the same (EventTranslator announces them from their reports).
   */
  void speculationOn(boolean maps, boolean reduces) {
    this.mapsOn = maps;
    this.reducesOn = reduces;
  }

  /** Hadoop's default {@code mapreduce.map.maxattempts} and {@code mapreduce.reduce.maxattempts}. */
  static final int DEFAULT_MAX_ATTEMPTS = 4;

  /**
   * How many more attempts of the task a speculate decision may add: a task keeps one of its max attempts in
   * reserve, so that its failed attempts plus those not finished never reach the limit by copies alone. Hadoop's
   * TaskImpl counts a failed speculative attempt like any other, and fails the task (and the job) at the limit;
   * live-bench's {@code sca} asked for 4 attempts of each map of a job whose task timeout was 30 s, on a machine
   * where 16 task JVMs starting at once took longer than that to report, and all 4 attempts of one map timed out
   * together: the job FAILED where one more attempt would have run. A cap of max attempts - 1 at once lets every
   * running attempt fail to one cause (a node failure, a timeout) and still leaves the task a retry. The simulator
   * applies the same rule (sim's copyRoom). Killed attempts do not count, as in TaskImpl, nor does one being
   * killed (its external state is already KILLED while its container is cleaned up): srquant kills an attempt
   * and asks for its copy in one round, as the simulator, where the kill ends the attempt at once. The reserve
   * bounds copies beyond the one Hadoop's own speculator would start: a task with one unfinished attempt may
   * always get one copy, whatever its max attempts, so that no policy speculates less than stock Hadoop (Hadoop's
   * TestSpeculativeExecution, run against the shim, has 2 max attempts).
   */
  static int copyRoom(Task task, int maxAttempts) {
    int used = 0;
    int unfinished = 0;
    for (TaskAttempt a : task.getAttempts().values()) {
      TaskAttemptState st = a.getState();
      if (st != TaskAttemptState.KILLED && st != TaskAttemptState.SUCCEEDED) {
        used++; // failed, failing, or not finished
        if (st != TaskAttemptState.FAILED) {
          unfinished++;
        }
      }
    }
    int room = maxAttempts - 1 - used;
    return unfinished == 1 ? Math.max(room, 1) : room; // Hadoop's one copy
  }

  /**
   * Applies the decisions of a {@code decisions} frame, or refuses them all when the sidecar is not in charge,
   * and returns the {@code ack} frame (PROTOCOL.md) stamped now.
   */
  ObjectNode ack(JsonNode decisions, boolean inCharge, long now) {
    ObjectNode ack = Wire.frame(Protocol.TYPE_ACK, now);
    ArrayNode acks = ack.putArray("acks");
    for (JsonNode d : decisions) {
      ObjectNode a = acks.addObject();
      a.put("id", d.path("id").asLong());
      String refusal = inCharge
          ? apply(d.path("kind").asText(), d.path("task").asText(), d.path("attempt").asText(),
              Math.max(1, d.path("copies").asInt(1)), d.path("reason").asText())
          : "the sidecar is not in charge (fallback active)";
      if (refusal == null) {
        applied.incrementAndGet();
        SpecbridgeMember member = SpecbridgeMember.of(d.path("member").asText());
        if (member != null) {
          member.add(context, jobOf(d), 1);
        }
        a.put("result", Protocol.ACK_APPLIED);
      } else {
        refused.incrementAndGet();
        SpecbridgeCounter.DECISIONS_REFUSED.add(context, jobOf(d), 1);
        a.put("result", Protocol.ACK_REFUSED);
        a.put("reason", refusal);
        BridgeSpeculator.LOG.info("specbridge: refused decision " + d + ": " + refusal);
      }
    }
    return ack;
  }

  /** The job a decision names (by its task or attempt), or null if it names none that parses. */
  private static JobId jobOf(JsonNode decision) {
    try {
      String attempt = decision.path("attempt").asText();
      return attempt.isEmpty() ? Wire.parseTaskId(decision.path("task").asText()).getJobId()
          : Wire.parseAttemptId(attempt).getTaskId().getJobId();
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Applies the decision; returns null when applied, else why it was refused. */
  @SuppressWarnings("unchecked")
  String apply(String kindName, String taskName, String attemptName, int copies, String reason) {
    DecisionGuard.Kind kind = DecisionGuard.Kind.of(kindName);
    if (kind == null) {
      return "unknown decision kind " + kindName;
    }
    TaskId taskId;
    TaskAttemptId attemptId = null;
    try {
      if (kind == DecisionGuard.Kind.KILL || kind == DecisionGuard.Kind.RERUN) {
        attemptId = Wire.parseAttemptId(attemptName);
        taskId = attemptId.getTaskId();
      } else {
        taskId = Wire.parseTaskId(taskName);
      }
    } catch (RuntimeException e) {
      return "bad id: " + e.getMessage();
    }
    Job job = context.getJob(taskId.getJobId());
    Task task = job == null ? null : job.getTask(taskId);
    TaskState taskState = task == null ? null : task.getState();
    TaskAttempt attempt = task == null || attemptId == null ? null : task.getAttempt(attemptId);
    TaskAttemptState attemptState = attempt == null ? null : attempt.getState();
    String why = "specbridge: " + reason;
    switch (kind) {
      case SPECULATE: {
        boolean map = taskId.getTaskType() == TaskType.MAP;
        if (!(map ? mapsOn : reducesOn)) {
          return (map ? MRJobConfig.MAP_SPECULATIVE : MRJobConfig.REDUCE_SPECULATIVE) + " is false for this job";
        }
        String refusal = DecisionGuard.refusal(kind, taskState, null, taskId.getTaskType(),
            pendingSpeculation.contains(taskId));
        if (refusal != null) {
          return refusal;
        }
        int maxAttempts = map ? mapMaxAttempts : reduceMaxAttempts;
        int room = copyRoom(task, maxAttempts);
        if (room <= 0) {
          return "the task's failed and unfinished attempts are " + (maxAttempts - 1) + " of its " + maxAttempts
              + " (" + (map ? MRJobConfig.MAP_MAX_ATTEMPTS : MRJobConfig.REDUCE_MAX_ATTEMPTS)
              + "): one is kept for a retry";
        }
        if (copies > room) {
          BridgeSpeculator.LOG.info("specbridge: " + taskId + ": " + copies + " copies asked, " + room
              + " started: one of the task's " + maxAttempts + " attempts is kept for a retry");
          copies = room;
        }
        if (!pendingSpeculation.add(taskId)) {
          return "a speculative attempt of this task is already pending";
        }
        for (int i = 0; i < copies; i++) {
          context.getEventHandler().handle(new TaskEvent(taskId, TaskEventType.T_ADD_SPEC_ATTEMPT));
        }
        SpecbridgeCounter.SPECULATIVE_ATTEMPTS.add(context, taskId.getJobId(), copies);
        BridgeSpeculator.LOG.info("specbridge: speculating " + taskId + " x" + copies + ": " + reason);
        return null;
      }
      case KILL:
      case RERUN: {
        String refusal = DecisionGuard.refusal(kind, taskState, attemptState, taskId.getTaskType(), false);
        if (refusal != null) {
          return refusal;
        }
        context.getEventHandler().handle(new TaskAttemptKillEvent(attemptId, why));
        (kind == DecisionGuard.Kind.KILL ? SpecbridgeCounter.ATTEMPTS_KILLED : SpecbridgeCounter.MAPS_RERUN)
            .add(context, taskId.getJobId(), 1);
        BridgeSpeculator.LOG.info("specbridge: " + kind.wire + " " + attemptId + ": " + reason);
        return null;
      }
      case DROP: {
        String refusal = DecisionGuard.refusal(kind, taskState, null, taskId.getTaskType(), false);
        if (refusal != null) {
          return refusal;
        }
        if (taskId.getTaskType() == TaskType.MAP && job.getTotalReduces() > 0) {
          String failed = failMap(job, task, reason);
          if (failed == null) {
            SpecbridgeCounter.TASKS_DROPPED.add(context, taskId.getJobId(), 1);
          }
          return failed;
        }
        context.getEventHandler().handle(new TaskEvent(taskId, TaskEventType.T_KILL));
        SpecbridgeCounter.TASKS_DROPPED.add(context, taskId.getJobId(), 1);
        BridgeSpeculator.LOG.info("specbridge: dropping " + taskId + " (killing it): " + reason);
        return null;
      }
      default:
        return "unknown decision kind " + kindName;
    }
  }

  /** Drops a map of a job with reduces by failing it at once (see the class comment); null when applied. */
  @SuppressWarnings("unchecked")
  private String failMap(Job job, Task task, String reason) {
    TaskId taskId = task.getID();
    if (task.getState() == TaskState.NEW) {
      return "task is NEW: a map of a job with reduces is dropped by failing an attempt, and it has none yet";
    }
    int maps = job.getTotalMaps();
    int failed = 0;
    for (Task t : job.getTasks(TaskType.MAP).values()) {
      if (t.getState() == TaskState.FAILED || failedByDrop.contains(t.getID())) {
        failed++;
      }
    }
    if ((long) (failed + 1) * 100 > (long) mapFailuresMaxPercent * maps) {
      return "dropping it would fail the job: " + failed + " of " + maps + " maps failed or dropped already and "
          + MRJobConfig.MAP_FAILURES_MAX_PERCENT + "=" + mapFailuresMaxPercent + " allows "
          + (long) mapFailuresMaxPercent * maps / 100 + " (a job with reduces loses a dropped map as a failed one)";
    }
    TaskAttempt victim = null;
    for (TaskAttempt a : task.getAttempts().values()) {
      if (a.isFinished()) {
        continue;
      }
      if (victim == null || (victim.getNodeHttpAddress() == null && a.getNodeHttpAddress() != null)) {
        victim = a;
      }
    }
    if (victim == null) {
      return "the task has no unfinished attempt to fail";
    }
    if (!failedByDrop.add(taskId)) {
      return "the task is being dropped already";
    }
    boolean placed = victim.getNodeHttpAddress() != null;
    context.getEventHandler().handle(new TaskTAttemptFailedEvent(victim.getID(), true));
    if (!placed) {
      TaskAttemptCompletionEvent tce = RecordFactoryProvider.getRecordFactory(null)
          .newRecordInstance(TaskAttemptCompletionEvent.class);
      tce.setEventId(-1);
      tce.setAttemptId(victim.getID());
      tce.setStatus(TaskAttemptCompletionEventStatus.TIPFAILED);
      tce.setMapOutputServerAddress("");
      tce.setAttemptRunTime(0);
      context.getEventHandler().handle(new JobTaskAttemptCompletedEvent(tce));
    }
    BridgeSpeculator.LOG.info("specbridge: dropping " + taskId + " (failing it through " + victim.getID()
        + (placed ? "" : ", which had no container") + ", so that reduces stop waiting for it): " + reason);
    return null;
  }
}
