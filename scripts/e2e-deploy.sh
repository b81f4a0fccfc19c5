#!/usr/bin/env bash
# e2e-deploy.sh — every deploy recipe of docs/deploy.md, run on one real Hadoop mini cluster
# (scripts/minicluster.sh: HDFS, YARN with 3 NodeManagers and two capacity-scheduler queues, default
# and pilot, JobHistory) with the real sidecar (`specbridge serve`) and the real shim jar. Short jobs
# (StragglerJob: E2E_MAPS maps of E2E_MAP_S seconds, no reduce); each must SUCCEED.
#
#   1. one job      — the shim enabled by -D on the job's command line, shipped with -libjars, and in a
#                     second job at the same time taken from a directory on the nodes through the job's
#                     mapreduce.application.classpath: each AM runs BridgeSpeculator with the sidecar in
#                     charge; the sidecar saw each job.
#   2. whole cluster — mapred-site.xml on the cluster (the client's and AMs' configuration directory)
#                     loads the shim from a node-local directory on mapreduce.application.classpath and
#                     turns it on; the job says nothing about specbridge and is bridged.
#   3. one queue    — the same mapred-site.xml plus specbridge.enabled.queues=pilot: a job in queue
#                     pilot is bridged, a job in queue default (run at the same time) runs Hadoop's
#                     DefaultSpeculator inside the shim, and the sidecar never hears of it.
#   4. roll back    — specbridge.enabled=false in mapred-site.xml, and separately the properties
#                     removed: both jobs run Hadoop's DefaultSpeculator, and the sidecar never hears
#                     of either (its sessions_opened count does not move).
#   5. availability — two sidecars, specbridge.url=ws://A,ws://B. Once the job's maps report to A, A is
#                     SIGKILLed: the AM must log the handover to Hadoop's speculator and its session with
#                     B within E2E_FAILOVER_MS (1000) of the kill, measured from the kill's timestamp to
#                     the AM log lines' timestamps, and B must rebuild the job from the AM's resync. Then B
#                     is SIGKILLed too: the AM must fall back to Hadoop's speculator within
#                     E2E_FAILOVER_MS. The job must SUCCEED.
#
# One mini cluster serves all runs; its ports are free ones picked at start (no clash with
# scripts/e2e.sh or another cluster). Timings are printed at the end.
#
# Usage: scripts/e2e-deploy.sh   (from anywhere; needs go, java 17 (javac, jar), mvn, curl)
# Environment:
#   SPECBRIDGE_E2E_DIR   work directory (default ${TMPDIR:-/tmp}/specbridge-e2e-deploy); logs stay there
#   SPECBRIDGE_SHIM_JAR  a prebuilt shim jar (default: mvn -f java-shim/pom.xml package -Dmaven.test.skip=true)
#   E2E_KEEP_CLUSTER=1   leave the mini cluster running at the end
#   E2E_MAPS (2), E2E_MAP_S (4), E2E_FAILOVER_MAP_S (20: the availability run's maps),
#   E2E_FAILOVER_MS (1000), E2E_JOB_TIMEOUT (s per job, 240),
#   E2E_RUNS (which runs, default "one-job cluster queue rollback availability")
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${SPECBRIDGE_E2E_DIR:-${TMPDIR:-/tmp}/specbridge-e2e-deploy}
export SPECBRIDGE_MINICLUSTER_DIR=${SPECBRIDGE_MINICLUSTER_DIR:-$work/cluster}
policy=late
maps=${E2E_MAPS:-2}
map_s=${E2E_MAP_S:-4}
failover_map_s=${E2E_FAILOVER_MAP_S:-20}
failover_ms=${E2E_FAILOVER_MS:-1000}
job_timeout=${E2E_JOB_TIMEOUT:-240}
runs=${E2E_RUNS:-one-job cluster queue rollback availability}

# No speculation settings: Hadoop's defaults (speculation on) or the recipe's. AMs of 1 GB (the
# minimum allocation) so that two run at once in one queue.
job_args=(-D mapreduce.job.reduces=0 -D e2e.maps="$maps" -D e2e.records=20 -D e2e.map.ms=$((map_s * 1000))
  -D e2e.straggler.ms=$((map_s * 1000)) -D yarn.app.mapreduce.am.resource.mb=1024 -D mapreduce.map.memory.mb=1024)
# shellcheck source=scripts/e2e-lib.sh
source "$root/scripts/e2e-lib.sh"

# A block of 10 free ports below Linux's ephemeral range for the cluster's fixed ports (minicluster.sh):
# NameNode, its web UI, the RM's scheduler, tracker, client and admin ports (RM_PORT-2 .. RM_PORT+1),
# the RM's web UI, JobHistory and its admin port, JobHistory's web UI.
pick_ports() {
  local base p busy
  for _ in $(seq 100); do
    base=$((20000 + RANDOM % 12000))
    busy=0
    for ((p = base; p < base + 10; p++)); do
      if port_busy "$p"; then
        busy=1
        break
      fi
    done
    if ((!busy)); then
      export NN_PORT=$base NN_HTTP_PORT=$((base + 1)) RM_PORT=$((base + 4)) RM_WEB_PORT=$((base + 6))
      export JHS_PORT=$((base + 7)) JHS_WEB_PORT=$((base + 9))
      return 0
    fi
  done
  fail "found no 10 free consecutive ports in 20000-32000"
}
if ! "$root/scripts/minicluster.sh" status > /dev/null 2>&1; then
  pick_ports
fi

# Two capacity-scheduler queues of half the cluster each, either free to use it all, and AMs allowed
# half of each queue (Hadoop's default, 10%, admits one AM per queue at a time).
cluster_defs=(-D yarn.scheduler.capacity.root.queues=default,pilot
  -D yarn.scheduler.capacity.root.default.capacity=50 -D yarn.scheduler.capacity.root.pilot.capacity=50
  -D yarn.scheduler.capacity.root.default.maximum-capacity=100
  -D yarn.scheduler.capacity.root.pilot.maximum-capacity=100
  -D yarn.scheduler.capacity.maximum-am-resource-percent=0.5)
setup

declare -A client_of job_of

# launch NAME CONF_DIR ARGS...: submits job NAME with the client configuration in CONF_DIR, in the background.
launch() {
  local name=$1 conf=$2
  shift 2
  HADOOP_CONF_DIR=$conf submit "$name" "$@"
  client_of[$name]=$client_pid
  job_of[$name]=$job_id
  extra_pids+=("$client_pid")
  client_pid=""
}

# done_ok NAME: waits for job NAME to SUCCEED (its client's exit status and its history) and keeps its
# AM's whole log as NAME.am.syslog.
done_ok() {
  client_pid=${client_of[$1]}
  job_id=${job_of[$1]}
  finish "$1"
  check "$1" || fail "$1: see above"
  cp "$(am_syslog "$1")" "$work/$1.am.syslog"
}

# am_syslog NAME: the path of job NAME's ApplicationMaster log (its first attempt's container).
am_syslog() {
  local app=${job_of[$1]/job_/application_} f
  f=$(find "$SPECBRIDGE_MINICLUSTER_DIR" -path "*/$app/container_*_01_000001/syslog" 2> /dev/null | head -n 1)
  [[ -n $f ]] || return 1
  echo "$f"
}

# conf_dir NAME KEY=VALUE...: a copy of the cluster's client configuration whose mapred-site.xml sets
# each KEY; prints its path. The mini cluster writes every key into each *-site.xml (minicluster.sh), so
# each KEY is first taken out of all of them: its value comes from mapred-site.xml alone.
conf_dir() {
  local dir=$work/conf-$1 kv key value f
  shift
  rm -rf "$dir"
  cp -r "$HADOOP_CONF_DIR_CLUSTER" "$dir"
  for kv in "$@"; do
    key=${kv%%=*}
    value=${kv#*=}
    for f in core hdfs yarn; do
      grep -vF "<name>$key</name>" "$dir/$f-site.xml" > "$dir/$f-site.xml.tmp" || true
      mv "$dir/$f-site.xml.tmp" "$dir/$f-site.xml"
    done
    grep -vF "<name>$key</name>" "$dir/mapred-site.xml" | sed '/<\/configuration>/d' > "$dir/mapred-site.xml.tmp"
    printf '<property><name>%s</name><value>%s</value></property>\n</configuration>\n' "$key" "$value" \
      >> "$dir/mapred-site.xml.tmp"
    mv "$dir/mapred-site.xml.tmp" "$dir/mapred-site.xml"
  done
  echo "$dir"
}

# bridged NAME [SIDECAR_LOG]: job NAME's AM ran the shim with the sidecar in charge, and the sidecar
# opened a session for it.
bridged() {
  local am=$work/$1.am.syslog log=${2:-$sidecar_log} job=${job_of[$1]}
  grep -q "org.specbridge.shim.BridgeSpeculator: specbridge: sidecar .* is in charge of speculation" "$am" ||
    fail "$1: the AM did not hand speculation to the sidecar ($am)"
  grep -F "$job" "$log" | grep -q "session opened" || fail "$1: the sidecar opened no session for $job ($log)"
  say "$1: $job bridged; sidecar: $(grep -F "$job" "$log" | grep "session opened" | head -n 1 | grep -o 'queue=[^ ]*' || true)"
}

# stock NAME SHIM: job NAME's AM ran Hadoop's DefaultSpeculator (it handled the job's events) and the
# sidecar never heard of the job. SHIM: "shim" when the shim was loaded and stood aside (its log line
# says why), "none" when the AM did not load it at all.
stock() {
  local am=$work/$1.am.syslog job=${job_of[$1]}
  grep -q "org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator: JOB_CREATE $job" "$am" ||
    fail "$1: Hadoop's DefaultSpeculator did not handle $job ($am)"
  if [[ $2 == shim ]]; then
    grep -q "specbridge: not for this job" "$am" || fail "$1: the shim did not stand aside ($am)"
    say "$1: $job: AM: $(grep -o 'specbridge: not for this job.*' "$am" | head -n 1)"
  else
    ! grep -q "org.specbridge.shim" "$am" || fail "$1: the AM loaded the shim ($am)"
    say "$1: $job: AM ran Hadoop's DefaultSpeculator, no shim"
  fi
  ! grep -qF "$job" "$sidecar_log" || fail "$1: the sidecar heard of $job ($sidecar_log)"
}

opened() { metric specbridge_bridge_sessions_opened_total ""; }

shim_dir=$work/lib
mkdir -p "$shim_dir"
cp "$shim_jar" "$shim_dir/specbridge-shim.jar"
HADOOP_CONF_DIR_CLUSTER=$HADOOP_CONF_DIR
if [[ " $runs " == *" queue "* ]]; then
  curl -fsS "$SPECBRIDGE_RM_WEB/ws/v1/cluster/scheduler" | grep -q '"queueName":"pilot"' ||
    fail "the mini cluster's capacity scheduler has no queue pilot ($SPECBRIDGE_RM_WEB/ws/v1/cluster/scheduler)"
fi

# The whole-cluster mapred-site.xml (recipe 2): the shim jar from a directory on every node, on the
# AMs' classpath after Hadoop's own MapReduce entries, and the shim turned on for every job.
cluster_props=(
  "mapreduce.application.classpath=\$HADOOP_MAPRED_HOME/share/hadoop/mapreduce/*,\$HADOOP_MAPRED_HOME/share/hadoop/mapreduce/lib/*,$shim_dir/*"
  mapreduce.map.speculative=true
  yarn.app.mapreduce.am.job.speculator.class=org.specbridge.shim.BridgeSpeculator
  specbridge.token.file="$work/token"
  specbridge.speculator="$policy")

# Two jobs at once: the shim shipped with -libjars, and the shim taken from a directory on the nodes
# through the job's own mapreduce.application.classpath.
run_one_job() {
  echo "== recipe: one job (-D on its command line; the shim by -libjars, or from the nodes)"
  local t=$SECONDS
  [[ ${shim_args[0]} == -libjars ]] || fail "shim_args (e2e-lib.sh) no longer start with -libjars"
  launch one-job "$HADOOP_CONF_DIR_CLUSTER" "${shim_args[@]}" -D specbridge.url="ws://$sidecar_addr/v1/am"
  launch one-job-classpath "$HADOOP_CONF_DIR_CLUSTER" "${shim_args[@]:2}" -D specbridge.url="ws://$sidecar_addr/v1/am" \
    -D "${cluster_props[0]}"
  done_ok one-job
  done_ok one-job-classpath
  bridged one-job
  bridged one-job-classpath
  timing "  recipe one job (two jobs at once)" $((SECONDS - t))
}

run_cluster() {
  echo "== recipe: whole cluster (mapred-site.xml)"
  local t=$SECONDS conf
  conf=$(conf_dir cluster "${cluster_props[@]}" specbridge.url="ws://$sidecar_addr/v1/am")
  launch cluster "$conf"
  done_ok cluster
  bridged cluster
  timing "  recipe whole cluster" $((SECONDS - t))
}

run_queue() {
  echo "== recipe: one queue (specbridge.enabled.queues=pilot in mapred-site.xml; queues default and pilot)"
  local t=$SECONDS conf
  conf=$(conf_dir queue "${cluster_props[@]}" specbridge.url="ws://$sidecar_addr/v1/am" specbridge.enabled.queues=pilot)
  launch queue-pilot "$conf" -D mapreduce.job.queuename=pilot
  launch queue-default "$conf" -D mapreduce.job.queuename=default
  done_ok queue-pilot
  done_ok queue-default
  bridged queue-pilot
  stock queue-default shim
  timing "  recipe one queue (two jobs at once)" $((SECONDS - t))
}

run_rollback() {
  echo "== recipe: roll back (specbridge.enabled=false; the properties removed)"
  local t=$SECONDS conf before
  conf=$(conf_dir rollback "${cluster_props[@]}" specbridge.url="ws://$sidecar_addr/v1/am" specbridge.enabled=false)
  before=$(opened)
  launch rollback-disabled "$conf"
  launch rollback-removed "$HADOOP_CONF_DIR_CLUSTER"
  done_ok rollback-disabled
  done_ok rollback-removed
  stock rollback-disabled shim
  stock rollback-removed none
  (($(opened) == before)) || fail "rollback: the sidecar opened $(($(opened) - before)) session(s)"
  timing "  recipe roll back (two jobs at once)" $((SECONDS - t))
}

# ms_at LINE: a log4j line's timestamp (yyyy-MM-dd HH:mm:ss,SSS, the AM's local time) in ms since the epoch.
ms_at() {
  local ts
  ts=$(cut -c1-23 <<< "$1")
  date -d "${ts/,/.}" +%s%3N
}

# first_after FILE MS PATTERN: the first line of FILE matching PATTERN stamped at or after MS.
first_after() {
  local line
  while IFS= read -r line; do
    if (($(ms_at "$line") >= $2)); then
      echo "$line"
      return 0
    fi
  done < <(grep -E "$3" "$1" 2> /dev/null)
  return 1
}

# wait_am_line NAME MS PATTERN: waits (up to 60 s) for job NAME's AM to log PATTERN at or after MS;
# prints the line.
wait_am_line() {
  local deadline=$((SECONDS + 60)) f line
  while ((SECONDS < deadline)); do
    if f=$(am_syslog "$1") && line=$(first_after "$f" "$2" "$3"); then
      echo "$line"
      return 0
    fi
    sleep 0.2 # polling the AM's log; the latency is measured from the lines' own timestamps
  done
  fail "$1: the AM did not log /$3/ within 60 s (log: $(am_syslog "$1" || echo none yet))"
}

# within NAME WHAT T0 LINE: LINE's timestamp is at most failover_ms after T0.
within() {
  local dt=$(($(ms_at "$4") - $3))
  say "$1: $2 $dt ms after the kill: ${4#*specbridge: }"
  timings+=("$(printf '%-44s %5s ms' "    $2" "$dt")")
  ((dt <= failover_ms)) || fail "$1: $2 took $dt ms, more than $failover_ms ms"
}

run_availability() {
  echo "== recipe: availability (two sidecars in specbridge.url; each killed in turn)"
  local t=$SECONDS a_pid a_addr a_log b_pid b_addr b_log t_kill line url_b
  stop_sidecar
  start_sidecar avail-b
  b_pid=$sidecar_pid b_addr=$sidecar_addr b_log=$sidecar_log
  extra_pids+=("$b_pid")
  sidecar_pid=""
  start_sidecar avail-a
  a_pid=$sidecar_pid a_addr=$sidecar_addr a_log=$sidecar_log
  url_b="ws://$b_addr/v1/am"
  job_args+=(-D e2e.map.ms=$((failover_map_s * 1000)) -D e2e.straggler.ms=$((failover_map_s * 1000)))
  launch availability "$HADOOP_CONF_DIR_CLUSTER" "${shim_args[@]}" -D specbridge.url="ws://$a_addr/v1/am,$url_b"
  client_pid=${client_of[availability]}
  wait_until 180 "${job_of[availability]}'s maps to report to sidecar A" maps_reporting $((2 * maps))
  wait_am_line availability 0 "sidecar ws://$a_addr/v1/am is in charge" > /dev/null

  t_kill=$(date +%s%3N)
  kill -KILL "$a_pid"
  wait "$a_pid" 2> /dev/null || true
  sidecar_pid=""
  say "availability: sidecar A ($a_addr) SIGKILLed at $(date -d "@${t_kill:0:10}" +%T).${t_kill:10}"
  line=$(wait_am_line availability "$t_kill" "specbridge: sidecar unhealthy")
  within availability "fallback to Hadoop's speculator" "$t_kill" "$line"
  line=$(wait_am_line availability "$t_kill" "specbridge: sidecar $url_b is in charge")
  within availability "reconnection to sidecar B" "$t_kill" "$line"
  grep -F "${job_of[availability]}" "$b_log" | grep -q "state rebuilt from a resync" ||
    fail "availability: sidecar B did not rebuild ${job_of[availability]} from a resync ($b_log)"

  t_kill=$(date +%s%3N)
  kill -KILL "$b_pid"
  wait "$b_pid" 2> /dev/null || true
  say "availability: sidecar B ($b_addr) SIGKILLed at $(date -d "@${t_kill:0:10}" +%T).${t_kill:10}"
  line=$(wait_am_line availability "$t_kill" "specbridge: sidecar unhealthy")
  within availability "fallback with both sidecars gone" "$t_kill" "$line"
  client_pid=""
  done_ok availability
  timing "  recipe availability" $((SECONDS - t))
  start_sidecar main # for any run after this one
}

start_sidecar main
for run in $runs; do
  case $run in
    one-job | cluster | queue | rollback | availability) "run_${run/-/_}" ;;
    *) fail "E2E_RUNS: unknown run $run (one-job, cluster, queue, rollback, availability)" ;;
  esac
done
failed=0
