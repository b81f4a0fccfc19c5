package org.specbridge.shim;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobCounterUpdateEvent;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.event.Event;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.util.ControlledClock;

/**
 * A fake AM for unit tests of the shim's pure logic: an AppContext with one job whose attempts the test sets
 * (state, launch and finish time, node), built from dynamic proxies of Hadoop's interfaces. Every lookup is
 * counted. Not for integration: those run on MRApp with the real sidecar.
 */
final class FakeAm {
  static final String JOB = "job_1700000000000_0001";

  /** One attempt's AM-side state. */
  static final class Attempt {
    final TaskAttemptId id;
    volatile TaskAttemptState state = TaskAttemptState.RUNNING;
    volatile long launchTime;
    volatile long finishTime;
    volatile NodeId node = NodeId.newInstance("worker-1", 45454);

    Attempt(TaskAttemptId id) {
      this.id = id;
    }
  }

  final JobId jobId = Wire.parseTaskId(JOB.replace("job_", "task_") + "_m_000000").getJobId();
  final ControlledClock clock = new ControlledClock();
  final Map<TaskAttemptId, Attempt> attempts = new HashMap<TaskAttemptId, Attempt>();
  /** Events the shim dispatched to the AM, but for job counter updates (kept in counterUpdates). */
  final List<Event> dispatched = Collections.synchronizedList(new ArrayList<Event>());
  final List<JobCounterUpdateEvent> counterUpdates = Collections.synchronizedList(new ArrayList<JobCounterUpdateEvent>());
  int lookups;
  final AppContext context;

  FakeAm() {
    clock.setTime(1700000000000L);
    context = proxy(AppContext.class, (p, m, a) -> {
      switch (m.getName()) {
        case "getJob":
          return jobId.equals(a[0]) ? job() : null;
        case "getAllJobs":
          return Collections.singletonMap(jobId, job());
        case "getClock":
          return clock;
        case "getStartTime":
          return 1700000000000L;
        case "getEventHandler":
          return (EventHandler<Event>) e -> {
            if (e instanceof JobCounterUpdateEvent) {
              counterUpdates.add((JobCounterUpdateEvent) e);
            } else {
              dispatched.add(e);
            }
          };
        default:
          return defaultValue(m.getReturnType());
      }
    });
  }

  /** The sum of the updates of counter c the shim sent for this AM's job. */
  long counter(Enum<?> c) {
    long n = 0;
    synchronized (counterUpdates) {
      for (JobCounterUpdateEvent e : counterUpdates) {
        if (!jobId.equals(e.getJobId())) {
          continue;
        }
        for (JobCounterUpdateEvent.CounterIncrementalUpdate u : e.getCounterUpdates()) {
          if (u.getCounterKey() == c) {
            n += u.getIncrementValue();
          }
        }
      }
    }
    return n;
  }

  /** Adds an attempt, e.g. attempt("m", 3, 0): map 3's first attempt, RUNNING. */
  Attempt attempt(String type, int task, int attempt) {
    TaskAttemptId id = Wire.parseAttemptId(String.format("attempt_1700000000000_0001_%s_%06d_%d", type, task, attempt));
    Attempt a = new Attempt(id);
    a.launchTime = clock.getTime();
    attempts.put(id, a);
    return a;
  }

  private Job job() {
    return proxy(Job.class, (p, m, a) -> {
      switch (m.getName()) {
        case "getID":
          return jobId;
        case "getTask":
          return task((TaskId) a[0]);
        case "getTasks": {
          Map<TaskId, Task> out = new LinkedHashMap<TaskId, Task>();
          for (Attempt at : attempts.values()) {
            out.put(at.id.getTaskId(), task(at.id.getTaskId()));
          }
          return out;
        }
        default:
          return defaultValue(m.getReturnType());
      }
    });
  }

  private Task task(TaskId id) {
    return proxy(Task.class, (p, m, a) -> {
      switch (m.getName()) {
        case "getID":
          return id;
        case "getAttempt": {
          lookups++;
          Attempt at = attempts.get(a[0]);
          return at == null ? null : attempt(at);
        }
        case "getAttempts": {
          Map<TaskAttemptId, TaskAttempt> out = new LinkedHashMap<TaskAttemptId, TaskAttempt>();
          for (Attempt at : attempts.values()) {
            if (at.id.getTaskId().equals(id)) {
              out.put(at.id, attempt(at));
            }
          }
          return out;
        }
        default:
          return defaultValue(m.getReturnType());
      }
    });
  }

  private static TaskAttempt attempt(Attempt at) {
    return proxy(TaskAttempt.class, (p, m, a) -> {
      switch (m.getName()) {
        case "getID":
          return at.id;
        case "getState":
          return at.state;
        case "getLaunchTime":
          return at.launchTime;
        case "getFinishTime":
          return at.finishTime;
        case "getNodeId":
          return at.node;
        case "getNodeHttpAddress":
          return at.node.getHost() + ":8042";
        case "getProgress":
          return 0.5f;
        default:
          return defaultValue(m.getReturnType());
      }
    });
  }

  @SuppressWarnings("unchecked")
  static <T> T proxy(Class<T> type, InvocationHandler h) {
    return (T) Proxy.newProxyInstance(FakeAm.class.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> {
      if (m.getDeclaringClass() == Object.class) {
        switch (m.getName()) {
          case "hashCode":
            return System.identityHashCode(p);
          case "equals":
            return p == a[0];
          default:
            return type.getSimpleName() + " (fake)";
        }
      }
      return h.invoke(p, m, a);
    });
  }

  static Object defaultValue(Class<?> t) {
    if (t == boolean.class) {
      return false;
    }
    if (t == int.class) {
      return 0;
    }
    if (t == long.class) {
      return 0L;
    }
    if (t == float.class) {
      return 0f;
    }
    if (t == double.class) {
      return 0d;
    }
    if (t == Map.class) {
      return Collections.emptyMap();
    }
    if (t == List.class) {
      return Collections.emptyList();
    }
    return null;
  }
}
