package org.specbridge.sweep;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * Runs one sweep cell per input line: execs the specbridge binary shipped through the distributed cache
 * ({@code specbridge.sweep.binary}, a symlink in the task's working directory) as
 * {@code specbridge sweep --cell LINE} and writes the row it prints (one JSON line) as the map's output.
 * The binary's stderr goes to the task's stderr log. While the cell runs the task reports progress, so a
 * long cell is not killed by mapreduce.task.timeout; a cell that fails fails the map attempt with the
 * binary's exit status and the cell's index.
 */
public class SweepMapper extends Mapper<LongWritable, Text, NullWritable, Text> {
  static final String BINARY = "specbridge.sweep.binary";

  @Override
  protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
    String cell = line.toString().trim();
    if (cell.isEmpty()) {
      return;
    }
    File binary = new File(context.getConfiguration().get(BINARY, "specbridge")).getAbsoluteFile();
    if (!binary.canExecute() && !binary.setExecutable(true)) {
      throw new IOException("sweep: " + binary + " is not executable (was it shipped with -files?)");
    }
    ProcessBuilder pb = new ProcessBuilder(binary.getPath(), "sweep", "--cell", cell);
    pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    context.setStatus("running " + abbreviate(cell));
    Process p = pb.start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Thread reader = new Thread(() -> copy(p.getInputStream(), out), "sweep-cell-stdout");
    reader.start();
    while (!p.waitFor(5, TimeUnit.SECONDS)) {
      context.progress();
    }
    reader.join();
    int code = p.exitValue();
    if (code != 0) {
      throw new IOException("sweep: specbridge sweep --cell exited " + code + " for " + abbreviate(cell)
          + " (its error is in this task's stderr log)");
    }
    String rows = new String(out.toByteArray(), StandardCharsets.UTF_8);
    int written = 0;
    for (String row : rows.split("\n")) {
      if (!row.trim().isEmpty()) {
        context.write(NullWritable.get(), new Text(row.trim()));
        written++;
      }
    }
    if (written != 1) {
      throw new IOException("sweep: specbridge sweep --cell printed " + written + " rows, want 1, for " + abbreviate(cell));
    }
  }

  private static void copy(InputStream in, ByteArrayOutputStream out) {
    byte[] buf = new byte[8192];
    try {
      for (int n; (n = in.read(buf)) > 0; ) {
        synchronized (out) {
          out.write(buf, 0, n);
        }
      }
    } catch (IOException e) {
      // The process ended; its exit status says whether the cell ran.
    }
  }

  private static String abbreviate(String cell) {
    return cell.length() <= 200 ? cell : cell.substring(0, 200) + "...";
  }
}
