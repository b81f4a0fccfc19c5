package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// JobClass is the MapReduce driver in the sweep job jar (java-sweep/).
const JobClass = "org.specbridge.sweep.SweepJob"

// shippedBinary is the name the specbridge binary has in a mapper's working
// directory (the distributed cache's symlink).
const shippedBinary = "specbridge"

// YARN runs a grid as a MapReduce job on a YARN cluster: the driver
// (java-sweep/, JobClass) puts the cell lines on HDFS under Dir, one map per
// CellsPerTask lines (NLineInputFormat); each mapper runs the shipped
// specbridge binary on its cells (`sweep --cell LINE`) and writes their rows
// to Dir/rows on HDFS; the driver then copies the rows to a local file, and
// Run merges them into cell order (Merge).
//
// The job is submitted with `hadoop jar` when Hadoop is set (a hadoop
// command), else with `java -cp CONF:JAR:Classpath`: both take the cluster's
// configuration from HadoopConf (as HADOOP_CONF_DIR). Run fills in the
// fields left empty, as each field says.
type YARN struct {
	// JobJar is the sweep job jar (mvn -f java-sweep/pom.xml package);
	// "": specbridge-sweep.jar beside Binary, else the Maven module's
	// build output under the working directory.
	JobJar string
	// Binary is the specbridge executable the mappers run; it must suit
	// the cluster's nodes (same OS and architecture). "": this process's
	// own executable.
	Binary string
	// Hadoop is the hadoop command; "" submits with Java and Classpath,
	// or, without a Classpath either, with the hadoop command on PATH.
	Hadoop string
	// Java is the java command for Classpath submission.
	Java string
	// Classpath holds Hadoop's client jars (`hadoop classpath`).
	Classpath string
	// HadoopConf is the cluster's configuration directory; "" keeps the
	// environment's HADOOP_CONF_DIR.
	HadoopConf string
	// Dir is the job's HDFS working directory (relative: under the user's
	// home); it must not exist yet. The cells and rows stay there. "":
	// specbridge-sweep/TIME-PID.
	Dir string
	// JobConf holds KEY=VALUE settings for the job (-D).
	JobConf []string
	// CellsPerTask is how many cell lines one map runs (at least 1).
	CellsPerTask int
	// WorkDir is a local directory for the cells and the merged rows; "":
	// a temporary directory, removed when Run returns.
	WorkDir string
	// Log receives the job client's output (progress, counters).
	Log io.Writer
}

// jvmOpens lets Hadoop's client reflect into the JDK on Java 17, as
// scripts/minicluster.sh and `hadoop` itself do.
var jvmOpens = []string{"--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
	"--add-opens=java.base/java.util.concurrent=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
	"--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
	"--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED"}

// Ship rewrites the cells for the mappers: every local input is shipped
// through the distributed cache under a name of its own (File), hdfs://
// inputs are read where they are. It returns the -files list (binary
// first) and the cells to run.
func (y YARN) Ship(cells []Cell) (files []string, out []Cell, err error) {
	bin, err := filepath.Abs(y.Binary)
	if err != nil {
		return nil, nil, fmt.Errorf("--binary %s: %w", y.Binary, err)
	}
	if st, err := os.Stat(bin); err != nil || st.IsDir() {
		return nil, nil, fmt.Errorf("--binary %s: not a file", y.Binary)
	}
	files = []string{bin + "#" + shippedBinary}
	shipped := map[string]string{}
	out = make([]Cell, len(cells))
	for i, c := range cells {
		out[i] = c
		if hdfs.IsURL(c.Input) {
			continue
		}
		name, ok := shipped[c.Input]
		if !ok {
			abs, err := filepath.Abs(c.Input)
			if err != nil {
				return nil, nil, fmt.Errorf("input %s: %w", c.Input, err)
			}
			if _, err := os.Stat(abs); err != nil {
				return nil, nil, fmt.Errorf("input %s: %w", c.Input, err)
			}
			if strings.ContainsAny(abs, "#,") {
				return nil, nil, fmt.Errorf("input %s: a path holding '#' or ',' cannot be shipped with -files; rename it or put it on HDFS", c.Input)
			}
			name = fmt.Sprintf("input-%d-%s", len(shipped), filepath.Base(abs))
			shipped[c.Input] = name
			files = append(files, abs+"#"+name)
		}
		out[i].File = name
	}
	return files, out, nil
}

// Run submits the job, waits for it and returns the rows in cell order.
func (y YARN) Run(cells []Cell) ([]Row, error) {
	if len(cells) == 0 {
		return nil, errors.New("on YARN: the grid has no cells")
	}
	if y.HadoopConf == "" {
		y.HadoopConf = os.Getenv("HADOOP_CONF_DIR")
	}
	if y.Binary == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("on YARN: this binary's path: %w (give --binary)", err)
		}
		y.Binary = exe
	}
	if y.JobJar == "" {
		y.JobJar = defaultJobJar(y.Binary)
	}
	if y.Hadoop == "" && y.Classpath == "" {
		hadoop, err := exec.LookPath("hadoop")
		if err != nil {
			return nil, errors.New("on YARN: no hadoop command on PATH and no --hadoop-classpath: give Hadoop's client classpath (`hadoop classpath` on a cluster node) and --hadoop-conf")
		}
		y.Hadoop = hadoop
	}
	if y.Dir == "" {
		y.Dir = fmt.Sprintf("specbridge-sweep/%s-%d", time.Now().UTC().Format("20060102T150405Z"), os.Getpid())
	}
	if y.WorkDir == "" {
		work, err := os.MkdirTemp("", "specbridge-sweep-")
		if err != nil {
			return nil, fmt.Errorf("on YARN: %w", err)
		}
		defer os.RemoveAll(work)
		y.WorkDir = work
	}
	if y.Log == nil {
		y.Log = io.Discard
	}
	fmt.Fprintf(y.Log, "sweep: %d cells as a MapReduce job on YARN, working directory %s on HDFS\n", len(cells), y.Dir)
	if y.JobJar == "" {
		return nil, errors.New("on YARN: no job jar (build it with mvn -f java-sweep/pom.xml package, pass --job-jar)")
	}
	if _, err := os.Stat(y.JobJar); err != nil {
		return nil, fmt.Errorf("--job-jar: %w (build it with mvn -f java-sweep/pom.xml package)", err)
	}
	files, shipped, err := y.Ship(cells)
	if err != nil {
		return nil, err
	}
	var lines bytes.Buffer
	for _, c := range shipped {
		line, err := c.Line()
		if err != nil {
			return nil, err
		}
		lines.WriteString(line + "\n")
	}
	cellsFile := filepath.Join(y.WorkDir, "cells.jsonl")
	rowsFile := filepath.Join(y.WorkDir, "rows.jsonl")
	if err := os.WriteFile(cellsFile, lines.Bytes(), 0o644); err != nil {
		return nil, fmt.Errorf("on YARN: %w", err)
	}
	per := max(y.CellsPerTask, 1)
	args := []string{"-D", "specbridge.sweep.binary=" + shippedBinary,
		"-D", "mapreduce.input.lineinputformat.linespermap=" + strconv.Itoa(per),
		"-D", "mapreduce.job.name=specbridge sweep (" + strconv.Itoa(len(cells)) + " cells)"}
	for _, kv := range y.JobConf {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return nil, fmt.Errorf("--job-conf %q: want KEY=VALUE", kv)
		}
		args = append(args, "-D", kv)
	}
	args = append(args, "-files", strings.Join(files, ","), cellsFile, y.Dir, rowsFile)
	cmd := y.command(args)
	cmd.Stdout, cmd.Stderr = y.Log, y.Log
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("on YARN: the sweep job failed (%v); its client's output is above, the cells' errors are in the failed maps' stderr logs", err)
	}
	f, err := os.Open(rowsFile)
	if err != nil {
		return nil, fmt.Errorf("on YARN: the job wrote no rows: %w", err)
	}
	defer f.Close()
	return Merge(f, "the job's rows ("+y.Dir+"/rows)", len(cells))
}

// defaultJobJar is specbridge-sweep.jar beside the binary, else the Maven
// module's build output in the working directory ("" when neither exists:
// Run then says how to build it).
func defaultJobJar(binary string) string {
	for _, p := range []string{filepath.Join(filepath.Dir(binary), "specbridge-sweep.jar"), filepath.Join("java-sweep", "target", "specbridge-sweep.jar")} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// command is the job client: hadoop jar, or java with the classpath.
func (y YARN) command(args []string) *exec.Cmd {
	var cmd *exec.Cmd
	if y.Hadoop != "" {
		cmd = exec.Command(y.Hadoop, append([]string{"jar", y.JobJar, JobClass}, args...)...)
	} else {
		java := y.Java
		if java == "" {
			java = "java"
		}
		cp := y.JobJar + string(os.PathListSeparator) + y.Classpath
		if y.HadoopConf != "" {
			cp = y.HadoopConf + string(os.PathListSeparator) + cp
		}
		jargs := append(append(append([]string{}, jvmOpens...), "-cp", cp, JobClass), args...)
		cmd = exec.Command(java, jargs...)
	}
	cmd.Env = os.Environ()
	if y.HadoopConf != "" {
		cmd.Env = append(cmd.Env, "HADOOP_CONF_DIR="+y.HadoopConf)
	}
	return cmd
}
