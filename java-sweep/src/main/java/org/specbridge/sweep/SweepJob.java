package org.specbridge.sweep;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.NLineInputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The driver of {@code specbridge sweep --on-yarn} (docs/sweep.md):
 * {@code SweepJob [generic options] CELLS_FILE HDFS_DIR ROWS_FILE}. Copies the local cell lines to
 * HDFS_DIR/cells.jsonl, runs a map-only job over them with NLineInputFormat
 * (mapreduce.input.lineinputformat.linespermap lines per map, 1 by default) and {@link SweepMapper}, whose
 * rows land in HDFS_DIR/rows, and concatenates the rows' part files into the local ROWS_FILE, where
 * specbridge merges them into cell order. The binary and local inputs come through the distributed cache
 * with the generic option -files, which ToolRunner handles. HDFS_DIR must not exist: a sweep never mixes its
 * rows with another's.
 */
public class SweepJob extends Configured implements Tool {
  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new SweepJob(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: SweepJob [generic options] CELLS_FILE HDFS_DIR ROWS_FILE");
      return 2;
    }
    Configuration conf = getConf();
    Path dir = new Path(args[1]);
    FileSystem fs = dir.getFileSystem(conf);
    dir = fs.makeQualified(dir);
    if (fs.exists(dir)) {
      System.err.println("sweep: " + dir + " already exists; give a new directory");
      return 1;
    }
    Path cells = new Path(dir, "cells.jsonl");
    Path rows = new Path(dir, "rows");
    fs.mkdirs(dir);
    fs.copyFromLocalFile(false, true, new Path(Paths.get(args[0]).toAbsolutePath().toUri()), cells);

    Job job = Job.getInstance(conf);
    job.setJarByClass(SweepJob.class);
    job.setMapperClass(SweepMapper.class);
    job.setNumReduceTasks(0);
    job.setInputFormatClass(NLineInputFormat.class);
    NLineInputFormat.addInputPath(job, cells);
    job.setOutputFormatClass(TextOutputFormat.class);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(Text.class);
    TextOutputFormat.setOutputPath(job, rows);
    if (!job.waitForCompletion(true)) {
      System.err.println("sweep: job " + job.getJobID() + " " + job.getStatus().getState()
          + ": " + job.getStatus().getFailureInfo());
      return 1;
    }

    List<Path> parts = new ArrayList<>();
    for (FileStatus st : fs.listStatus(rows)) {
      if (st.getPath().getName().startsWith("part-")) {
        parts.add(st.getPath());
      }
    }
    Collections.sort(parts);
    try (OutputStream out = Files.newOutputStream(Paths.get(args[2]))) {
      for (Path part : parts) {
        try (InputStream in = fs.open(part)) {
          IOUtils.copyBytes(in, out, 65536, false);
        }
      }
    }
    System.err.println("sweep: job " + job.getJobID() + " succeeded; " + parts.size() + " part files in " + rows);
    return 0;
  }
}
