package org.specbridge.shim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.speculate.SpeculatorEvent;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Turns the AM's speculator events into the protocol's frames (bridge/PROTOCOL.md): the {@code events} of an
 * {@code events} frame (written straight to UTF-8 bytes), and, through {@link HelloFrame} and {@link ResyncSnapshot}, the {@code hello} and the {@code resync} snapshot. Enriches events from the AppContext
 * (an attempt's node, container, launch and finish time) and keeps the {@link AttemptTracker} that finds the
 * ends of attempts, which Hadoop announces to no speculator.
 *
 * <p>Single-threaded: owned by the shim's worker. Reads of the AppContext are thread-safe (Hadoop's read
 * locks); each event costs a constant number of them, never a walk of the job (only {@link #resync} walks it,
 * once per connection).
 */
final class EventTranslator {
  private final AppContext context;
  private final ShimConfig settings;
  private final AttemptTracker tracker;
  private final List<AttemptTracker.End> ends = new ArrayList<AttemptTracker.End>();
  private final int[] containerNeeds = new int[2];
  /** When each type's need last changed in the batch being translated; Long.MIN_VALUE: not changed. */
  private final long[] needsChangedAt = {Long.MIN_VALUE, Long.MIN_VALUE};
  private static final SerializedString COMMA = new SerializedString(",");
  private final ObjectMapper json = new ObjectMapper();
  private final ByteArrayBuilder buf = new ByteArrayBuilder(1 << 16);
  /** Writes the held events into buf; null when none are held. */
  private JsonGenerator gen;
  private int count;
  private volatile JobId jobId;

  EventTranslator(AppContext context, ShimConfig settings) {
    this.context = context;
    this.settings = settings;
    this.tracker = new AttemptTracker(new AttemptTracker.States() {
      /** The attempt of the last state lookup: the tracker asks for an ended one's finish time next. */
      private TaskAttempt last;

      @Override
      public TaskAttemptState state(TaskAttemptId id) {
        TaskAttempt ta = attempt(id);
        last = ta;
        return ta == null ? null : ta.getState();
      }

      @Override
      public long finishTime(TaskAttemptId id) {
        TaskAttempt ta = last != null && id.equals(last.getID()) ? last : attempt(id);
        return ta == null ? 0 : ta.getFinishTime();
      }
    });
  }

  /** The job, once an event has named it. */
  JobId jobId() {
    return jobId;
  }

  AttemptTracker tracker() {
    return tracker;
  }

  /**
   * Translates a batch of speculator events into protocol events, held until {@link #takeEvents}. Container
   * needs are a level, not a history: a batch reports each task type's count once, as it stands after the batch,
   * stamped with the time of the batch's last change (every attempt changes it twice, so this halves what a
   * batch carries).
   */
  void translate(List<SpeculatorEvent> batch) {
    try {
      for (SpeculatorEvent ev : batch) {
        translate(ev);
      }
      for (int i = 0; i < 2; i++) {
        if (needsChangedAt[i] == Long.MIN_VALUE) {
          continue;
        }
        JsonGenerator g = open();
        g.writeStringField("kind", Protocol.EVENT_CONTAINER_NEEDS);
        g.writeNumberField("time", needsChangedAt[i]);
        g.writeStringField("task_type", i == 0 ? "map" : "reduce");
        g.writeNumberField("count", containerNeeds[i]);
        close(g);
        needsChangedAt[i] = Long.MIN_VALUE;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing events", e);
    }
  }

  /** Translates the ends of live attempts found by a sweep (see AttemptTracker). */
  void sweep() {
    tracker.sweep(now(), ends);
    try {
      writeEnds();
    } catch (IOException e) {
      throw new UncheckedIOException("writing events", e);
    }
  }

  /** How many protocol events are held. */
  int pendingEvents() {
    return count;
  }

  /**
   * The held events as UTF-8 JSON objects separated by commas (the inside of an {@code events} array), and
   * forgets them. Written straight to bytes: building a JSON tree per event and then serialising it cost more
   * than everything else the worker does per event.
   */
  byte[] takeEvents() {
    try {
      if (gen != null) {
        gen.close();
        gen = null;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing events", e);
    }
    byte[] out = buf.toByteArray();
    buf.reset();
    count = 0;
    return out;
  }

  /** Forgets the held events (a resync snapshot holds them, or there is no session to send them on). */
  void dropEvents() {
    takeEvents();
  }

  private JsonGenerator open() throws IOException {
    if (gen == null) {
      gen = json.getFactory().createGenerator(buf);
      gen.setRootValueSeparator(COMMA);
    }
    gen.writeStartObject();
    return gen;
  }

  private void close(JsonGenerator g) throws IOException {
    g.writeEndObject();
    count++;
  }

  private long now() {
    return context.getClock().getTime();
  }

  private void translate(SpeculatorEvent ev) throws IOException {
    switch (ev.getType()) {
      case JOB_CREATE:
        noteJob(ev.getJobID());
        return;
      case ATTEMPT_START: {
        TaskAttemptId id = ev.getReportedStatus() != null ? ev.getReportedStatus().id : null;
        if (id == null) {
          return;
        }
        noteJob(id.getTaskId().getJobId());
        writeStart(id, time(ev));
        return;
      }
      case ATTEMPT_STATUS_UPDATE: {
        TaskAttemptStatus st = ev.getReportedStatus();
        if (st == null || st.id == null) {
          return;
        }
        noteJob(st.id.getTaskId().getJobId());
        if (!tracker.announced(st.id)) {
          // The AM hands the speculator an attempt's start only for a task type whose speculation the job
          // has on (MRAppMaster's SpeculatorEventDispatcher filters by the event's task id), but every
          // status update (which carries none). A job with mapreduce.reduce.speculative=false so sent its
          // reduces' reports without their starts, and the sidecar rejected them as unknown attempts. The
          // attempt is announced from the AM's record first, so the sidecar sees every attempt, as a replay
          // does; DecisionApplier refuses copies of a task type whose speculation is off, as the simulator
          // launches none.
          writeStart(st.id, time(ev));
        }
        TaskType type = st.id.getTaskId().getTaskType();
        JsonGenerator g = open();
        g.writeStringField("kind", Protocol.EVENT_ATTEMPT_STATUS);
        g.writeNumberField("time", time(ev));
        g.writeStringField("attempt", Wire.attemptId(st.id));
        g.writeNumberField("progress", Math.max(0f, Math.min(1f, st.progress)));
        g.writeStringField("phase", Wire.phase(st.phase, type));
        g.writeFieldName("counters");
        g.writeTree(Wire.counters(st.counters, type));
        if (st.fetchFailedMaps != null && !st.fetchFailedMaps.isEmpty()) {
          g.writeFieldName("fetch_failed_maps");
          g.writeTree(Wire.fetchFailedMaps(st.fetchFailedMaps));
        }
        close(g);
        // TaskAttemptImpl sends one when an attempt succeeds (progress set to 1): the end follows its last
        // report. A report of a running attempt costs no lookup; an end it might have shown is the sweep's.
        if (st.progress >= 1f || (st.taskState != null && st.taskState != TaskAttemptState.RUNNING
            && st.taskState != TaskAttemptState.STARTING && st.taskState != TaskAttemptState.COMMIT_PENDING)) {
          tracker.check(st.id.getTaskId(), false, now(), ends);
          writeEnds();
        }
        return;
      }
      case TASK_CONTAINER_NEED_UPDATE: {
        TaskId task = ev.getTaskID();
        if (task == null) {
          return;
        }
        noteJob(task.getJobId());
        if (ev.containersNeededChange() > 0) {
          // A new attempt asks for a container: the task's other attempts may have ended, or its map output
          // may be lost (TaskImpl re-runs a map that way).
          tracker.check(task, true, now(), ends);
          writeEnds();
        }
        int i = task.getTaskType() == TaskType.MAP ? 0 : 1;
        containerNeeds[i] = Math.max(0, containerNeeds[i] + ev.containersNeededChange());
        needsChangedAt[i] = time(ev);
        return;
      }
      default:
    }
  }

  /**
   * The event's time on the AM's clock. Hadoop stamps only some speculator events: a container-need event
   * (SpeculatorEvent(TaskId, int)) keeps AbstractEvent's -1, and the sidecar rejects a frame holding a negative
   * time as malformed, losing every event in it (starts and ends with it). Unstamped events take the AM's clock
   * when the worker translates them.
   */
  private long time(SpeculatorEvent ev) {
    long t = ev.getTimestamp();
    return t > 0 ? t : now();
  }

  /** Writes an attempt-started event for id, checking its task's other attempts first (see AttemptTracker). */
  private void writeStart(TaskAttemptId id, long fallbackTime) throws IOException {
    tracker.check(id.getTaskId(), true, now(), ends);
    writeEnds();
    TaskAttempt ta = attempt(id);
    JsonGenerator g = open();
    g.writeStringField("kind", Protocol.EVENT_ATTEMPT_STARTED);
    g.writeNumberField("time", ta != null && ta.getLaunchTime() > 0 ? ta.getLaunchTime() : fallbackTime);
    g.writeStringField("attempt", Wire.attemptId(id));
    if (ta != null) {
      g.writeStringField("node", Wire.node(ta.getNodeId(), ta.getNodeHttpAddress(), settings.nodeHostPort));
      if (ta.getAssignedContainerID() != null) {
        g.writeStringField("container", ta.getAssignedContainerID().toString());
      }
    }
    g.writeBooleanField("speculative", tracker.started(id));
    close(g);
  }

  private void writeEnds() throws IOException {
    for (AttemptTracker.End end : ends) {
      JsonGenerator g = open();
      g.writeStringField("kind", end.kind);
      g.writeNumberField("time", end.time);
      g.writeStringField("attempt", Wire.attemptId(end.attempt));
      close(g);
    }
    ends.clear();
  }

  private void noteJob(JobId id) {
    if (jobId == null) {
      jobId = id;
    }
  }

  private TaskAttempt attempt(TaskAttemptId id) {
    Job job = context.getJob(id.getTaskId().getJobId());
    Task task = job == null ? null : job.getTask(id.getTaskId());
    return task == null ? null : task.getAttempt(id);
  }

  /** The hello frame for the job, or null while no event has named the job. */
  ObjectNode hello() {
    JobId id = jobId;
    return id == null ? null : HelloFrame.build(context, settings, id, now());
  }

  /**
   * The resync frame: a snapshot of every started attempt of the job, from which the tracker is rebuilt (see
   * {@link ResyncSnapshot}). Forgets the batch's pending container-need changes: the snapshot carries the levels.
   */
  ObjectNode resync() {
    needsChangedAt[0] = Long.MIN_VALUE;
    needsChangedAt[1] = Long.MIN_VALUE;
    return ResyncSnapshot.build(context, settings, tracker, jobId, containerNeeds, now());
  }
}
