#!/usr/bin/env bash
# jobconf-fixtures.sh OUT — records the issue-30 history fixtures (replay/testdata/jobconf): Hadoop's own
# SleepJob (hadoop-mapreduce-client-jobclient tests jar) run on a running mini cluster
# (scripts/minicluster.sh start; its env file is sourced from $SPECBRIDGE_MINICLUSTER_DIR) under
# different job configurations, then each job's .jhist and _conf.xml copied from the JobHistory done
# directory on HDFS into OUT/<name>/. Runs (a few minutes on two cores):
#   timeout-1attempt  1 map, mapreduce.task.timeout=5000, maxattempts 1: its attempt's JVM is stopped
#                     (SIGSTOP: no progress, no heartbeat) as a hung task is, the AM times it out: FAILED
#   nospec-maps       4 maps, 1 reduce, mapreduce.map.speculative=false
#   slowstart-1       4 maps, 1 reduce, mapreduce.job.reduce.slowstart.completedmaps=1.0
#   slowstart-0       4 maps, 1 reduce, slowstart 0.0 (kept apart: not tuned on)
#   maxattempts-2     the same with maxattempts 2: both attempts stopped, FAILED after 2 (not tuned on)
# SleepJob's maps report progress while they sleep, so a sleeping map never times out: the hang is made
# by stopping the attempt's JVM. ONLY=name[,name] records only those.
set -euo pipefail
out=${1:?usage: jobconf-fixtures.sh OUT}
mkdir -p "$out"
state=${SPECBRIDGE_MINICLUSTER_DIR:-${TMPDIR:-/tmp}/specbridge-minicluster}
# shellcheck disable=SC1091
source "$state/env"
export HADOOP_CONF_DIR
cp=$HADOOP_CONF_DIR:$(cat "$state/classpath")
quick_jvm="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:CICompilerCount=1"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/proc-lib.sh
source "$here/proc-lib.sh"
common=(-D mapreduce.jvm.add-opens-as-default=true -D mapreduce.jobhistory.jhist.format=json
  -D yarn.app.mapreduce.am.command-opts="-Xmx512m $quick_jvm"
  -D mapreduce.map.java.opts="-Xmx200m $quick_jvm" -D mapreduce.reduce.java.opts="-Xmx200m $quick_jvm")
fs() { java "${hadoop_opens[@]}" -Xmx256m $quick_jvm -cp "$cp" org.apache.hadoop.fs.FsShell "$@"; }
hang=0 # run: stop the JVM of each of the first $hang attempts of map 0
run() { # NAME -D... -- SleepJob args
  local name=$1
  shift
  if [[ -n ${ONLY:-} && ,$ONLY, != *,$name,* ]]; then return; fi
  echo "== $name"
  java "${hadoop_opens[@]}" -Xmx512m $quick_jvm -cp "$cp" org.apache.hadoop.mapreduce.SleepJob "${common[@]}" "$@" \
    > "$out/$name.client.log" 2>&1 &
  local client=$! n pid jid=
  for _ in $(seq 120); do # the job's id, printed on submission
    jid=$(grep -o 'job_[0-9]*_[0-9]*' "$out/$name.client.log" | head -n 1 || true)
    [[ -n $jid ]] && break
    sleep 1
  done
  for ((n = 0; n < hang; n++)); do
    pid=
    for _ in $(seq 120); do
      pid=$(pgrep -f "^[^ ]*java .*org.apache.hadoop.mapred.YarnChild .*attempt_${jid#job_}_m_000000_$n " | head -n 1 || true)
      [[ -n $pid ]] && break
      sleep 1
    done
    [[ -n $pid ]] || { echo "no attempt $n of map 0 to stop"; break; }
    sleep 3 # past the JVM's start-up, into the map
    kill -STOP "$pid" && echo "stopped attempt $n (pid $pid)"
  done
  wait "$client" || true
  local id
  id=$(grep -o 'job_[0-9]*_[0-9]*' "$out/$name.client.log" | head -n 1)
  [[ -n $id ]] || { tail "$out/$name.client.log"; exit 1; }
  mkdir -p "$out/$name"
  local i
  for i in $(seq 60); do # the JobHistory server moves the files to done after the job
    if fs -ls -R /specbridge/staging/history/done 2>/dev/null | grep -q "${id}_conf.xml"; then break; fi
    sleep 2
  done
  fs -ls -R / 2>/dev/null | awk '{print $NF}' | grep "/$id[-_]" | grep -E '\.jhist$|_conf\.xml$' | grep done/ |
    while read -r f; do fs -get "$f" "$out/$name/"; done
  # Trim the configuration (~350 kB, every key of the cluster) to the keys the replay reads
  # (history.ConfKept) and the job's name: Configuration.writeXml puts one property on a line.
  local c
  for c in "$out/$name"/*_conf.xml; do
    { head -n 1 "$c"
      grep -E '^<property><name>(mapreduce\.(map\.|reduce\.|task\.timeout|job\.speculative\.|job\.reduce\.slowstart\.|job\.name<)|mapred\.(map\.|reduce\.|task\.timeout)|specbridge\.)' "$c"
      echo '</configuration>'; } > "$c.trim" && mv "$c.trim" "$c"
  done
  ls -la "$out/$name"
}
# The AM checks for timed-out attempts every mapreduce.task.timeout.check-interval-ms (30 s by default):
# 1 s here, so a stopped attempt is failed ~5 s after its last heartbeat.
timeout=(-D mapreduce.task.timeout=5000 -D mapreduce.task.timeout.check-interval-ms=1000)
hang=1 run timeout-1attempt "${timeout[@]}" -D mapreduce.map.maxattempts=1 -m 1 -r 0 -mt 20000
run nospec-maps -D mapreduce.map.speculative=false -m 4 -r 1 -mt 3000 -rt 2000
run slowstart-1 -D mapreduce.job.reduce.slowstart.completedmaps=1.0 -m 4 -r 1 -mt 3000 -rt 2000
run slowstart-0 -D mapreduce.job.reduce.slowstart.completedmaps=0.0 -m 4 -r 1 -mt 3000 -rt 2000
hang=2 run maxattempts-2 "${timeout[@]}" -D mapreduce.map.maxattempts=2 -m 1 -r 0 -mt 20000
