package org.specbridge.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.api.records.JobState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskState;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.MRApp;
import org.apache.hadoop.mapreduce.v2.app.client.ClientService;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptContainerAssignedEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEventType;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocator;
import org.apache.hadoop.mapreduce.v2.app.rm.ContainerAllocatorEvent;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.security.ContainerTokenIdentifier;
import org.apache.hadoop.yarn.util.ControlledClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live run of the failure in {@code sim/testdata/live-node-pause.txt}: Hadoop's MRApp runs one job whose maps
 * are spread over several NodeManagers (slots per node, as the file says); the test reports every running attempt's
 * progress in real time, every heartbeat, except the attempts of the paused node during its pause; the shim forwards
 * the reports to a real {@code specbridge serve} with its embedded fault analyzer, which times them as the nodes'
 * heartbeats. The node transitions the sidecar announces to the job's session (its log's "fault analyzer notice"
 * lines) must be the ones the file lists, which sim's TestReplayedNodePauseMatchesLive checks the simulator
 * announces for the same failure: replay and live run the same analyzer (cfa/analyzer).
 */
@SuppressWarnings({"unchecked", "rawtypes"})
class NodePauseTransitionsMRAppTest {
  /** The first NodeManager's port; node i is 127.0.0.1:(BASE_PORT + i). */
  private static final int BASE_PORT = 41001;

  @TempDir
  File dir;

  @Test
  @Timeout(180)
  void aPausedNodeIsAnnouncedAsTheReplaySaysIt() throws Exception {
    Spec spec = Spec.read(new File(new File(System.getProperty("specbridge.repo.root", "..")),
        "sim/testdata/live-node-pause.txt"));
    int nodes = spec.get("nodes");
    int slots = spec.get("slots");
    long heartbeat = spec.get("heartbeat-ms");
    long pauseFrom = spec.get("pause-from-ms");
    long pauseTo = pauseFrom + spec.get("pause-for-ms");
    int paused = spec.get("pause-node");

    Sidecar sidecar = Sidecar.start(dir, "--gather-interval", spec.get("gather-ms") + "ms",
        "--initial-threshold", spec.get("initial-threshold-ms") + "ms", "--gap", spec.get("live-gap-ms") + "ms");
    ControlledClock clock = new ControlledClock();
    clock.setTime(System.currentTimeMillis());
    PlacingMRApp app = new PlacingMRApp(nodes * slots, slots, clock);
    try {
      Configuration conf = new Configuration();
      conf.set(MRJobConfig.MR_AM_JOB_SPECULATOR, "org.specbridge.shim.BridgeSpeculator");
      conf.set(ShimConfig.URL, sidecar.url);
      conf.set(ShimConfig.TOKEN, Sidecar.TOKEN);
      conf.set(ShimConfig.SPECULATOR, "none");
      conf.set(ShimConfig.BATCH_MS, "20");
      conf.set(ShimConfig.NODE_KEY, ShimConfig.NODE_KEY_HOST_PORT);
      Job job = app.submit(conf, true, true);
      app.waitForState(job, JobState.RUNNING);
      for (Task t : job.getTasks().values()) {
        app.waitForState(t, TaskState.RUNNING);
      }
      EventHandler events = app.getContext().getEventHandler();
      String resumed = "event=node-resumed";
      long start = System.currentTimeMillis();
      long deadline = start + 60000;
      float progress = 0;
      // Heartbeats in real time, as the analyzer's clock is the sidecar's wall clock: until the paused node
      // is announced resumed, and for two more gathering rounds (nothing more may be announced).
      long quietUntil = Long.MAX_VALUE;
      while (System.currentTimeMillis() < quietUntil) {
        long now = System.currentTimeMillis();
        if (now > deadline) {
          throw new AssertionError("no node-resumed within 60 s; sidecar log:\n" + Sidecar.read(sidecar.log));
        }
        clock.setTime(now);
        long t = now - start;
        boolean pausing = t >= pauseFrom && t < pauseTo;
        progress = Math.min(0.9f, progress + 0.001f);
        for (Task task : job.getTasks().values()) {
          for (TaskAttempt a : task.getAttempts().values()) {
            if (pausing && app.nodeOf(a) == paused) {
              continue;
            }
            ShimMRAppTest.progress(events, a, progress);
          }
        }
        if (quietUntil == Long.MAX_VALUE && Sidecar.read(sidecar.log).contains(resumed)) {
          quietUntil = now + 2 * spec.get("gather-ms");
        }
        Thread.sleep(heartbeat); // the heartbeat interval under test, not a wait for a condition
      }
      for (Task task : job.getTasks().values()) {
        for (TaskAttempt a : task.getAttempts().values()) {
          events.handle(new TaskAttemptEvent(a.getID(), TaskAttemptEventType.TA_DONE));
          events.handle(new TaskAttemptEvent(a.getID(), TaskAttemptEventType.TA_CONTAINER_COMPLETED));
        }
      }
      app.waitForState(job, JobState.SUCCEEDED);
    } finally {
      if (app.getServiceState() != Service.STATE.STOPPED) {
        app.stop();
      }
      sidecar.close();
    }
    assertEquals(spec.expect, announced(Sidecar.read(sidecar.log)),
        "the live sidecar's node transitions differ from sim/testdata/live-node-pause.txt's; log:\n"
            + Sidecar.read(sidecar.log));
  }

  private static final Pattern NOTICE = Pattern.compile("msg=\"fault analyzer notice\"");
  private static final Pattern EVENT = Pattern.compile("\\bevent=\"?([a-z-]+)\"?");
  private static final Pattern NODE = Pattern.compile("\\bnode=\"?127\\.0\\.0\\.1:(\\d+)\"?");

  /** The node transitions the sidecar's log says the job's session was told, as "node&lt;i&gt; kind". */
  static List<String> announced(String log) {
    List<String> out = new ArrayList<String>();
    for (String line : log.split("\n")) {
      if (!NOTICE.matcher(line).find()) {
        continue;
      }
      Matcher ev = EVENT.matcher(line);
      Matcher node = NODE.matcher(line);
      assertTrue(ev.find() && node.find(), "cannot read the notice " + line);
      out.add("node" + (Integer.parseInt(node.group(1)) - BASE_PORT) + " " + ev.group(1));
    }
    return out;
  }

  /** sim/testdata/live-node-pause.txt: "name value" lines and "expect nodeN kind" lines; # comments. */
  static final class Spec {
    final Map<String, Long> values = new HashMap<String, Long>();
    final List<String> expect = new ArrayList<String>();

    static Spec read(File f) throws Exception {
      Spec s = new Spec();
      int n = 0;
      for (String line : Files.readAllLines(f.toPath(), StandardCharsets.UTF_8)) {
        n++;
        String[] fields = line.trim().split("\\s+");
        if (fields[0].isEmpty() || fields[0].startsWith("#")) {
          continue;
        }
        if (fields[0].equals("expect") && fields.length == 3) {
          s.expect.add(fields[1] + " " + fields[2]);
        } else if (fields.length == 2) {
          s.values.put(fields[0], Long.parseLong(fields[1]));
        } else {
          throw new IllegalArgumentException(f + ":" + n + ": cannot read " + line);
        }
      }
      return s;
    }

    int get(String name) {
      Long v = values.get(name);
      assertNotNull(v, "sim/testdata/live-node-pause.txt has no " + name);
      return v.intValue();
    }
  }

  /** MRApp whose allocator puts map i on NodeManager 127.0.0.1:(BASE_PORT + i / slots). */
  static final class PlacingMRApp extends MRApp {
    private final int slots;

    PlacingMRApp(int maps, int slots, ControlledClock clock) {
      super(maps, 0, false, "sb-node-pause", true, clock);
      this.slots = slots;
    }

    int nodeOf(TaskAttempt a) {
      return a.getID().getTaskId().getId() / slots;
    }

    @Override
    protected ContainerAllocator createContainerAllocator(ClientService clientService, AppContext context) {
      return new MRAppContainerAllocator() {
        private int containers;

        @Override
        public void handle(ContainerAllocatorEvent event) {
          if (event.getType() != ContainerAllocator.EventType.CONTAINER_REQ) {
            return;
          }
          ContainerId id = ContainerId.newContainerId(getContext().getApplicationAttemptId(), ++containers);
          NodeId node = NodeId.newInstance("127.0.0.1", BASE_PORT + event.getAttemptID().getTaskId().getId() / slots);
          Resource resource = Resource.newInstance(1024, 1);
          ContainerTokenIdentifier ident = new ContainerTokenIdentifier(id, node.toString(), "user", resource,
              System.currentTimeMillis() + 60000, 42, 42, Priority.newInstance(0), 0);
          Container container = Container.newInstance(id, node, node.getHost() + ":8042", resource, null,
              MRApp.newContainerToken(node, "password".getBytes(StandardCharsets.UTF_8), ident));
          getContext().getEventHandler().handle(new TaskAttemptContainerAssignedEvent(event.getAttemptID(), container,
              null));
        }
      };
    }
  }
}
