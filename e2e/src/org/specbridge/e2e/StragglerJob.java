package org.specbridge.e2e;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The end-to-end test job of scripts/e2e.sh: a sleep job with one straggler.
 *
 * <p>Each of {@code e2e.maps} maps reads {@code e2e.records} synthetic records and sleeps
 * {@code e2e.map.ms / e2e.records} ms on each, so its progress (records read / records) grows
 * steadily, as a real map's does. The FIRST attempt (attempt number 0) of map
 * {@code e2e.straggler.task} sleeps {@code e2e.straggler.ms} in total instead; any later attempt
 * of it (a speculative copy) is as quick as the others. One reduce counts the records.
 *
 * <p>Slow NodeManagers (scripts/live-bench.sh's heterogeneous cluster): every attempt that runs on a
 * NodeManager listed in {@code e2e.slow.nodes} (comma-separated NodeIds, host:port, as the
 * ResourceManager's node list spells them; the attempt's own is its container's NM_HOST:NM_PORT)
 * sleeps {@code e2e.slow.factor} times as long, original or copy alike, as a task on a slower
 * machine does.
 *
 * <p>Usage: {@code StragglerJob [generic options] OUTPUT_DIR}. Besides Hadoop's generic options
 * ({@code -D}, {@code -libjars}) it reads {@code e2e.jobid.file} (the job id is written there as
 * soon as the job is submitted) and {@code e2e.jhist.out} (after the job ends, its .jhist is
 * copied there from the JobHistory intermediate or done directory). Exit status 0 when the job
 * SUCCEEDED, 1 otherwise.
 */
public class StragglerJob extends Configured implements Tool {
  static final String MAPS = "e2e.maps";
  static final String RECORDS = "e2e.records";
  static final String MAP_MS = "e2e.map.ms";
  static final String STRAGGLER_MS = "e2e.straggler.ms";
  static final String STRAGGLER_TASK = "e2e.straggler.task";
  static final String JOBID_FILE = "e2e.jobid.file";
  static final String JHIST_OUT = "e2e.jhist.out";
  static final String JHIST_WAIT_MS = "e2e.jhist.wait.ms";
  static final String SLOW_NODES = "e2e.slow.nodes";
  static final String SLOW_FACTOR = "e2e.slow.factor";

  /** A split with no data: the map's index is all it carries. */
  public static class IndexSplit extends InputSplit implements Writable {
    int index;

    public IndexSplit() {}

    IndexSplit(int index) {
      this.index = index;
    }

    @Override
    public long getLength() {
      return 0;
    }

    @Override
    public String[] getLocations() {
      return new String[0];
    }

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt(index);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      index = in.readInt();
    }
  }

  /** e2e.maps splits of e2e.records records each; progress is records read / records. */
  public static class SyntheticInput extends InputFormat<IntWritable, NullWritable> {
    @Override
    public List<InputSplit> getSplits(JobContext job) {
      int maps = job.getConfiguration().getInt(MAPS, 6);
      List<InputSplit> splits = new ArrayList<>();
      for (int i = 0; i < maps; i++) {
        splits.add(new IndexSplit(i));
      }
      return splits;
    }

    @Override
    public RecordReader<IntWritable, NullWritable> createRecordReader(InputSplit split, TaskAttemptContext ctx) {
      return new RecordReader<IntWritable, NullWritable>() {
        int records;
        int read;
        final IntWritable key = new IntWritable();

        @Override
        public void initialize(InputSplit s, TaskAttemptContext c) {
          records = c.getConfiguration().getInt(RECORDS, 20);
        }

        @Override
        public boolean nextKeyValue() {
          if (read >= records) {
            return false;
          }
          key.set(read++);
          return true;
        }

        @Override
        public IntWritable getCurrentKey() {
          return key;
        }

        @Override
        public NullWritable getCurrentValue() {
          return NullWritable.get();
        }

        @Override
        public float getProgress() {
          return records == 0 ? 1f : (float) read / records;
        }

        @Override
        public void close() {}
      };
    }
  }

  /** Sleeps on every record; the first attempt of the straggler task sleeps much longer. */
  public static class SleepMapper extends Mapper<IntWritable, NullWritable, IntWritable, LongWritable> {
    private long sleepPerRecord;
    private long records;

    @Override
    protected void setup(Context ctx) {
      Configuration conf = ctx.getConfiguration();
      TaskAttemptID attempt = ctx.getTaskAttemptID();
      int n = Math.max(1, conf.getInt(RECORDS, 20));
      boolean straggler = attempt.getTaskID().getId() == conf.getInt(STRAGGLER_TASK, 0) && attempt.getId() == 0;
      long total = straggler ? conf.getLong(STRAGGLER_MS, 60000) : conf.getLong(MAP_MS, 5000);
      String node = System.getenv("NM_HOST") + ":" + System.getenv("NM_PORT");
      boolean slow = conf.getTrimmedStringCollection(SLOW_NODES).contains(node);
      if (slow) {
        total = (long) (total * Math.max(1.0, conf.getDouble(SLOW_FACTOR, 1.0)));
      }
      sleepPerRecord = total / n;
      ctx.setStatus((straggler ? "straggler" : "normal") + " attempt " + attempt + (slow ? " on slow node " + node : "")
          + ": " + total + " ms");
    }

    @Override
    protected void map(IntWritable key, NullWritable value, Context ctx) throws IOException, InterruptedException {
      Thread.sleep(sleepPerRecord);
      records++;
      ctx.progress();
    }

    @Override
    protected void cleanup(Context ctx) throws IOException, InterruptedException {
      ctx.write(new IntWritable(ctx.getTaskAttemptID().getTaskID().getId()), new LongWritable(records));
    }
  }

  /** Sums each map's record count. */
  public static class SumReducer extends Reducer<IntWritable, LongWritable, IntWritable, LongWritable> {
    @Override
    protected void reduce(IntWritable key, Iterable<LongWritable> values, Context ctx)
        throws IOException, InterruptedException {
      long sum = 0;
      for (LongWritable v : values) {
        sum += v.get();
      }
      ctx.write(key, new LongWritable(sum));
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: StragglerJob [generic options] OUTPUT_DIR");
      return 2;
    }
    Configuration conf = getConf();
    Job job = Job.getInstance(conf, "specbridge-e2e-straggler");
    job.setJarByClass(StragglerJob.class);
    job.setInputFormatClass(SyntheticInput.class);
    job.setMapperClass(SleepMapper.class);
    job.setReducerClass(SumReducer.class);
    job.setMapOutputKeyClass(IntWritable.class);
    job.setMapOutputValueClass(LongWritable.class);
    job.setOutputKeyClass(IntWritable.class);
    job.setOutputValueClass(LongWritable.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    job.setNumReduceTasks(conf.getInt("mapreduce.job.reduces", 1));
    Path out = new Path(args[0]);
    FileOutputFormat.setOutputPath(job, out);
    FileSystem fs = out.getFileSystem(conf);
    fs.delete(out, true);

    job.submit();
    String id = job.getJobID().toString();
    System.out.println("e2e: submitted " + id);
    String idFile = conf.get(JOBID_FILE);
    if (idFile != null) {
      writeAtomically(new File(idFile), id + "\n");
    }
    boolean ok = job.waitForCompletion(false);
    JobStatus.State state = job.getJobState();
    System.out.println("e2e: " + id + " " + state);

    String jhistOut = conf.get(JHIST_OUT);
    if (jhistOut != null) {
      copyHistory(conf, id, new File(jhistOut), conf.getLong(JHIST_WAIT_MS, 60000));
    }
    return ok ? 0 : 1;
  }

  /**
   * Copies the job's .jhist to a local file. The AM moves it to the intermediate done directory
   * as the job ends (possibly just after the client saw the end); the JobHistory server later moves
   * it to the done directory; both are searched until the file appears.
   */
  static void copyHistory(Configuration conf, String id, File dest, long waitMs) throws IOException, InterruptedException {
    String staging = conf.get("yarn.app.mapreduce.am.staging-dir", "/tmp/hadoop-yarn/staging");
    String intermediate = conf.get("mapreduce.jobhistory.intermediate-done-dir", staging + "/history/done_intermediate");
    String done = conf.get("mapreduce.jobhistory.done-dir", staging + "/history/done");
    Path[] globs = {
      new Path(intermediate + "/*/" + id + "*.jhist"),
      new Path(done + "/*/*/*/*/" + id + "*.jhist"),
    };
    FileSystem fs = FileSystem.get(conf);
    long deadline = System.currentTimeMillis() + waitMs;
    while (true) {
      for (Path g : globs) {
        FileStatus[] found = fs.globStatus(g);
        if (found != null && found.length > 0) {
          File tmp = new File(dest.getPath() + ".tmp");
          tmp.delete();
          fs.copyToLocalFile(false, found[0].getPath(), new Path(tmp.getAbsolutePath()), true);
          if (!tmp.renameTo(dest)) {
            throw new IOException("cannot rename " + tmp + " to " + dest);
          }
          System.out.println("e2e: history " + found[0].getPath() + " -> " + dest);
          return;
        }
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("no .jhist for " + id + " under " + intermediate + " or " + done + " after " + waitMs + " ms");
      }
      Thread.sleep(500); // the AM is still moving the history file
    }
  }

  static void writeAtomically(File f, String text) throws IOException {
    File tmp = new File(f.getPath() + ".tmp");
    Files.write(tmp.toPath(), text.getBytes(StandardCharsets.UTF_8));
    if (!tmp.renameTo(f)) {
      throw new IOException("cannot rename " + tmp + " to " + f);
    }
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new StragglerJob(), args));
  }
}
