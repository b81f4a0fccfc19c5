#!/usr/bin/env bash
# bench-vs-sls.sh [RUMEN_TRACE] — replay the same Rumen trace with Hadoop's Scheduler Load Simulator
# (org.apache.hadoop.yarn.sls.SLSRunner from hadoop-sls on Maven Central, classpath resolved by
# scripts/sls/pom.xml) and with `specbridge replay --speculators none`, one after the other on this
# machine, and print for each: wall time, peak RSS (/usr/bin/time -v) and makespan. docs/scale-sls.md
# says how the two are compared.
#
# SLS runs in real time: its AM and NM simulators are threads that wait out every heartbeat and task
# duration on the wall clock, so its wall time is at least the trace's span. specbridge replay is a
# discrete-event simulation. Both are given only the trace (no speculation: SLS has none).
#
# Makespans: SLS's from its jobruntime.csv (simulate_start_time / simulate_end_time of each job, ms
# since the simulation started), ours from `replay --output json` (makespan_s).
#
# Default trace: yarnclient/history/testdata/2jobs-rumen.json (SLS's own 2-job Rumen sample; 80 s
# span). Another trace's jobs must name queues scripts/sls/conf/capacity-scheduler.xml declares
# (sls_queue_1, sls_queue_2), else SLS skips them ("Can't find the queue"). Environment: HADOOP_VERSION (default 3.4.2; hadoop-sls 3.5.0 is also on Maven Central),
# SLS_TIMEOUT (s, default 600; SLS's JVM stays up after a failed start, so it is ended then). Heavy: wrap in `flock /tmp/specbridge-heavy.lock`.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
trace=$(realpath "${1:-$repo/yarnclient/history/testdata/2jobs-rumen.json}")
hadoop_version=${HADOOP_VERSION:-3.4.2}
timeout_s=${SLS_TIMEOUT:-600}
[ -r "$trace" ] || { echo "bench-vs-sls: cannot read trace $trace" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench-vs-sls: /usr/bin/time (package time) is needed for peak RSS" >&2; exit 2; }
command -v mvn >/dev/null || { echo "bench-vs-sls: mvn is needed to fetch hadoop-sls" >&2; exit 2; }

work=$(mktemp -d)
# KEEP=1 keeps the run's files (SLS's log, output and configuration) and prints where.
if [ "${KEEP:-}" = 1 ]; then trap 'echo "bench-vs-sls: files kept in $work" >&2' EXIT; else trap 'rm -rf "$work"' EXIT; fi

# Classpath (cached per Hadoop version).
cache=${XDG_CACHE_HOME:-$HOME/.cache}/specbridge
mkdir -p "$cache"
cp_file=$cache/sls-classpath-$hadoop_version
if [ ! -s "$cp_file" ]; then
  mvn -q -B -f "$repo/scripts/sls/pom.xml" -Dhadoop.version="$hadoop_version" \
    dependency:build-classpath -Dmdep.outputFile="$cp_file" >&2
fi

# SLS's configuration: ours with a free port for its metrics web server.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$work/conf"
cp "$repo"/scripts/sls/conf/* "$work/conf/"
sed -i "s/@PORT@/$port/" "$work/conf/sls-runner.xml"

# peak FILE: the peak RSS (MiB) and wall time (s) /usr/bin/time -v wrote to FILE.
peak() { awk '/Maximum resident set size/ {printf "%.0f MiB", $NF/1024}' "$1"; }
wall() {
  awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.2f s", s}' "$1"
}

echo "== trace: $trace"
echo "== specbridge replay --speculators none"
go build -C "$repo" -o "$work/specbridge" ./cmd/specbridge
/usr/bin/time -v -o "$work/ours.time" "$work/specbridge" replay -q --speculators none --output json "$trace" >"$work/ours.json"
read -r ours_makespan ours_jobs < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print(r["makespan_s"], r["jobs"] - r["unfinished_jobs"])' "$work/ours.json")
echo "   wall $(wall "$work/ours.time"), peak RSS $(peak "$work/ours.time"), makespan ${ours_makespan} s over $ours_jobs finished jobs"
# /usr/bin/time counts in 10 ms steps: the mean of REPS more runs (default 20) resolves ours.
reps=${REPS:-20}
t0=$(date +%s%N)
for _ in $(seq "$reps"); do "$work/specbridge" replay -q --speculators none --output json "$trace" >/dev/null; done
echo "   mean wall of $reps more runs: $(( ($(date +%s%N) - t0) / reps / 1000000 )) ms"
python3 -c 'import json,sys
for j in json.load(open(sys.argv[1]))["results"][0]["recorded"]["jobs"]:
    print("   %s: %.3f s simulated (recorded %.3f s)" % (j["job"], j["simulated_s"], j["recorded_s"]))' "$work/ours.json"

echo "== Hadoop SLS $hadoop_version (SLSRunner -tracetype RUMEN)"
mkdir -p "$work/sls-out"
# Hadoop's web apps (Guice) reflect into the JDK: open it on Java 17+ (hadoop_opens).
# shellcheck source=scripts/proc-lib.sh
source "$repo/scripts/proc-lib.sh"
status=0
( cd "$work" && /usr/bin/time -v -o "$work/sls.time" timeout "$timeout_s" \
    java -Xmx2g "${hadoop_opens[@]}" -cp "$work/conf:$(cat "$cp_file")" org.apache.hadoop.yarn.sls.SLSRunner \
    -tracetype RUMEN -tracelocation "$trace" -output "$work/sls-out" -printsimulation ) >"$work/sls.log" 2>&1 || status=$?
if [ ! -s "$work/sls-out/jobruntime.csv" ]; then
  echo "bench-vs-sls: SLS wrote no jobruntime.csv (exit $status); its log:" >&2
  tail -50 "$work/sls.log" >&2
  exit 1
fi
# jobruntime.csv: JobID, real_start_time, real_end_time (the trace's), simulate_start_time,
# simulate_end_time (SLS's clock, which is the wall clock).
sls_jobs=$(awk -F, 'NR > 1 && $5 != ""' "$work/sls-out/jobruntime.csv" | wc -l)
sls_makespan=$(awk -F, 'NR > 1 && $5 != "" {if (min == "" || $4 < min) min = $4; if ($5 > max) max = $5} END {printf "%.3f", (max - min) / 1000}' "$work/sls-out/jobruntime.csv")
echo "   wall $(wall "$work/sls.time"), peak RSS $(peak "$work/sls.time"), makespan ${sls_makespan} s over $sls_jobs finished jobs (exit $status)"
awk -F, 'NR > 1 && $5 != "" {n++; id[n] = $1; st[n] = $4; en[n] = $5; if (min == "" || $4 < min) min = $4}
  END {for (i = 1; i <= n; i++) printf "   %s: started at %.3f s, ran %.3f s\n", id[i], (st[i] - min) / 1000, (en[i] - st[i]) / 1000}' \
  "$work/sls-out/jobruntime.csv"
if [ "$sls_jobs" != "$ours_jobs" ]; then
  echo "bench-vs-sls: SLS finished $sls_jobs jobs, replay $ours_jobs: the makespans do not cover the same jobs" >&2
fi
echo "== SLS jobruntime.csv"
cat "$work/sls-out/jobruntime.csv"
