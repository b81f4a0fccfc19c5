#!/usr/bin/env bash
# e2e.sh — specbridge end to end on a real Hadoop cluster (scripts/minicluster.sh: HDFS, YARN with 3
# NodeManagers, JobHistory), with the real sidecar (`specbridge serve`) and the real shim jar on the
# MapReduce ApplicationMaster's classpath (shipped with -libjars).
#
# The job (e2e/src/org/specbridge/e2e/StragglerJob.java): E2E_MAPS maps of E2E_MAP_S seconds and one
# reduce; the FIRST attempt of map 0 takes E2E_STRAGGLER_S seconds, any later attempt of it is quick.
# Four runs:
#   1. speculation  — the shim with the sidecar running E2E_POLICY (late; its one-minute rule lowered
#                     to E2E_MIN_RUNTIME_MS): the history must show a SPECULATIVE attempt of map 0, the
#                     sidecar must have sent a speculate decision the AM applied (its /metrics and the
#                     AM's log), and the job must SUCCEED;
#   2. baseline     — the same job with speculation off: it must SUCCEED, with no speculative attempt,
#                     and take longer than run 1; its history is written Avro-Binary (Hadoop 3's
#                     default), and `specbridge replay hdfs://…/history/done/` must then read every job
#                     run so far from the JobHistory done directory;
#   3. sidecar-killed — the shim again, the sidecar told never to speculate (min-runtime 10 min) and
#                     SIGKILLed once the job's maps are running: the AM must log the handover to
#                     Hadoop's own speculator and the job must SUCCEED.
#   4. order        — two jobs (12 maps, then 2) under E2E_ORDER_POLICY (auto) with `serve --rm-job-order`:
#                     the ResourceManager must show the YARN application priorities the sidecar set from
#                     the policy's job order, the later, smaller job's above the other's.
# Histories are read from the cluster's JobHistory directories with yarnclient/history
# (scripts/e2echeck; the job writes them as Avro-JSON, mapreduce.jobhistory.jhist.format=json).
# Timings are printed at the end.
#
# Usage: scripts/e2e.sh   (from anywhere; needs go, java 17 (javac, jar), mvn, curl)
# Environment:
#   SPECBRIDGE_E2E_DIR   work directory (default ${TMPDIR:-/tmp}/specbridge-e2e); logs stay there
#   SPECBRIDGE_SHIM_JAR  a prebuilt shim jar (default: mvn -f java-shim/pom.xml package -Dmaven.test.skip=true)
#   E2E_KEEP_CLUSTER=1   leave the mini cluster running at the end (a later run reuses it)
#   E2E_POLICY (late), E2E_MAPS (4), E2E_MAP_S (6), E2E_STRAGGLER_S (60), E2E_MIN_RUNTIME_MS (5000),
#   E2E_JOB_TIMEOUT (s per job, 240), E2E_RUNS (which runs, default "speculation baseline killed order"),
#   E2E_ORDER_POLICY (auto)
#   The cluster's ports (NN_PORT, RM_PORT, ... as scripts/minicluster.sh reads them).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${SPECBRIDGE_E2E_DIR:-${TMPDIR:-/tmp}/specbridge-e2e}
export SPECBRIDGE_MINICLUSTER_DIR=${SPECBRIDGE_MINICLUSTER_DIR:-$work/cluster}
policy=${E2E_POLICY:-late}
maps=${E2E_MAPS:-4}
map_s=${E2E_MAP_S:-6}
straggler_s=${E2E_STRAGGLER_S:-60}
min_runtime_ms=${E2E_MIN_RUNTIME_MS:-5000}
job_timeout=${E2E_JOB_TIMEOUT:-240}
runs=${E2E_RUNS:-speculation baseline killed order}

job_args=(-D mapreduce.job.reduces=1 -D e2e.maps="$maps" -D e2e.records=60 -D e2e.map.ms=$((map_s * 1000))
  -D e2e.straggler.ms=$((straggler_s * 1000)) -D e2e.straggler.task=0)
# shellcheck source=scripts/e2e-lib.sh
source "$root/scripts/e2e-lib.sh"
# AMs allowed half the queue: the order run's two jobs run at once (Hadoop's default, 10%, admits one AM
# at a time on the mini cluster, and the second job would start only after the first ended).
cluster_defs=(-D yarn.scheduler.capacity.maximum-am-resource-percent=0.5)
setup


run_speculation() {
  echo "== run: speculation decided by the sidecar ($policy)"
  start_sidecar speculation
  submit speculation "${shim_args[@]}" -D specbridge.url="ws://$sidecar_addr/v1/am" \
    -D "specbridge.param.$policy.min-runtime-ms=$min_runtime_ms"
  finish speculation
  local job=$job_id am=$work/speculation.am.log
  check speculation -speculative-map 0 || fail "speculation: see above"
  timing "  history: submit to finish" "$("$work/bin/e2echeck" -print duration "$work/speculation.jhist")"
  grep -q "$job" "$sidecar_log" || fail "speculation: the sidecar never saw $job (log: $sidecar_log)"
  local decided applied
  decided=$(metric specbridge_bridge_decisions_total 'kind="speculate"')
  applied=$(metric specbridge_bridge_acks_total 'result="applied"')
  say "sidecar: $decided speculate decision(s), $applied applied by the AM"
  ((decided >= 1)) || fail "speculation: the sidecar sent no speculate decision"
  ((applied >= 1)) || fail "speculation: the AM applied no decision"
  grep -q "in charge of speculation" "$am" || fail "speculation: the AM log does not show the sidecar in charge ($am)"
  grep -q "speculating task_${job#job_}_m_000000" "$am" ||
    fail "speculation: the AM log shows no sidecar decision to speculate map 0 ($am)"
  if grep -q "sidecar unhealthy" "$am"; then
    fail "speculation: the AM lost the sidecar during the run, so a copy may be the fallback's ($am)"
  fi
  grep "speculating task_" "$am" | sed 's/^.*specbridge: /  AM: /'
  # The job's specbridge counters are in its history, as JobHistory shows them.
  counter speculation SPECULATIVE_ATTEMPTS 1 || fail "speculation: see above"
  stop_sidecar
}

# counter RUN NAME MIN: the job history of RUN holds the shim's counter NAME (group specbridge) at MIN or
# more. The history is Avro-JSON, whose counters read {"name":"NAME","displayName":"...","value":N}.
counter() {
  local v
  v=$(grep -oE "\{\"name\":\"$2\",\"displayName\":\"[^\"]*\",\"value\":[0-9]+" "$work/$1.jhist" | head -n 1 | grep -oE '[0-9]+$')
  if [[ -z $v ]] || ((v < $3)); then
    echo "$1: the job's counter specbridge $2 is ${v:-absent}, want >= $3 ($work/$1.jhist)" >&2
    return 1
  fi
  say "job counter specbridge $2: $v"
}

# The baseline writes its history in Hadoop 3's default encoding, Avro-Binary (the other runs write
# Avro-JSON), and `specbridge replay` then reads the cluster's JobHistory done directory over HDFS.
run_baseline() {
  echo "== run: baseline, speculation off"
  submit baseline -D mapreduce.map.speculative=false -D mapreduce.reduce.speculative=false \
    -D mapreduce.jobhistory.jhist.format=binary
  finish baseline
  [[ $(head -c 11 "$work/baseline.jhist") == Avro-Binary ]] || fail "baseline: history not in Avro-Binary"
  check baseline -no-speculative || fail "baseline: see above"
  timing "  history: submit to finish" "$("$work/bin/e2echeck" -print duration "$work/baseline.jhist")"
  replay_done_dir
}

# replay_done_dir: every job run so far is replayed from the JobHistory done directory on HDFS
# (hdfs://…/history/done/YYYY/MM/DD/serial/*.jhist, JSON and binary mixed). The JobHistory server moves
# a finished job's files there from the intermediate directory when it scans it, which a query about
# the job starts (otherwise every 3 minutes).
replay_done_dir() {
  local done=$SPECBRIDGE_FS${SPECBRIDGE_STAGING:-/specbridge/staging}/history/done/ t0=$SECONDS
  curl -fsS "$SPECBRIDGE_JHS_WEB/ws/v1/history/mapreduce/jobs/$job_id" > /dev/null ||
    fail "the JobHistory server does not know $job_id"
  wait_until 120 "$jobs_run job(s) in $done" done_dir_has "$done" "$jobs_run"
  timing "  replay from the HDFS done directory" $((SECONDS - t0))
  say "replay $done: $(grep -o '"jobs": [0-9]*' "$work/replay-done.json" | head -n 1), $(grep -o '"tasks": [0-9]*' "$work/replay-done.json" | head -n 1)"
}

# done_dir_has DIR N: `specbridge replay DIR` reads N jobs of E2E_MAPS maps and one reduce each.
done_dir_has() {
  "$work/bin/specbridge" replay --mode decisions --speculators hadoop --output json "$1" \
    > "$work/replay-done.json" 2> "$work/replay-done.err" || return 1
  grep -q "\"jobs\": $2," "$work/replay-done.json" && grep -q "\"tasks\": $(($2 * (maps + 1)))," "$work/replay-done.json"
}

# The sidecar runs the policy with a 10-minute rule, so it cannot have speculated before it dies: any
# speculative attempt is the fallback's (Hadoop's DefaultSpeculator inside the shim).
run_killed() {
  echo "== run: the sidecar killed mid-job (fallback)"
  start_sidecar killed
  submit killed "${shim_args[@]}" -D specbridge.url="ws://$sidecar_addr/v1/am" \
    -D "specbridge.param.$policy.min-runtime-ms=600000"
  wait_until 180 "$job_id's maps to report to the sidecar" maps_reporting $((2 * maps))
  say "killing the sidecar (pid $sidecar_pid, SIGKILL) with $job_id running"
  kill -KILL "$sidecar_pid"
  wait "$sidecar_pid" 2>/dev/null || true
  sidecar_pid=""
  finish killed
  local am=$work/killed.am.log
  check killed || fail "killed: see above"
  timing "  history: submit to finish" "$("$work/bin/e2echeck" -print duration "$work/killed.jhist")"
  grep -q "sidecar unhealthy" "$am" || fail "killed: the AM log does not show the handover to the fallback ($am)"
  grep "sidecar unhealthy" "$am" | head -n 1 | sed 's/^.*specbridge: /  AM: /'
  counter killed HANDOVERS 1 || fail "killed: see above"
}

# app_priority APP: the YARN application priority of APP, as the ResourceManager reports it.
app_priority() {
  curl -fsS "$SPECBRIDGE_RM_WEB/ws/v1/cluster/apps/$1/priority" 2> /dev/null | grep -oE -- '-?[0-9]+' | head -n 1
}

# both_set A B: the RM reports both applications' priorities set by the sidecar (1 or more).
both_set() {
  local a b
  a=$(app_priority "$1") b=$(app_priority "$2")
  [[ -n $a && -n $b ]] && ((a >= 1 && b >= 1))
}

# written_levels APP: the levels the sidecar wrote for APP (its debug log: "job order: priority set").
written_levels() {
  grep -a "job order: priority set" "$sidecar_log" | grep -a "app=$1 " | grep -oE 'level=[0-9]+' | cut -d= -f2
}

# ordered_in_log FIRST SECOND: the sidecar wrote FIRST a level above one it wrote SECOND (the highest
# FIRST had above the lowest SECOND had): some round ranked FIRST ahead.
ordered_in_log() {
  local a b
  a=$(written_levels "$1" | sort -n | tail -n 1) b=$(written_levels "$2" | sort -n | head -n 1)
  [[ -n $a && -n $b ]] && ((a > b))
}

# Two jobs under E2E_ORDER_POLICY (auto) at once, the sidecar setting their YARN application priorities
# from the policy's job order (serve --rm-job-order; the mini cluster runs with 10 priority levels), as
# the replay orders jobs on free slots: the sidecar must write the 2-map job's priority above the 12-map
# job's in some round (least work first, though it was submitted second; the order moves as the jobs run),
# the RM must show both set, the sidecar must count the writes, and both jobs must SUCCEED. It prints
# when each job's last map started: with the order the small job's maps may take containers ahead of the
# big job's second wave, which FIFO gives the big job first (whether they do depends on when the small
# job's AM starts; docs/operations.md has the figures).
# E2E_ORDER_OFF=1 runs the same two jobs without --rm-job-order, for that comparison (no checks).
run_order() {
  local pol=${E2E_ORDER_POLICY:-auto} saved=("${sidecar_flags[@]}") how="serve --rm-job-order sets their YARN priorities"
  [[ -z ${E2E_ORDER_OFF:-} ]] || how="E2E_ORDER_OFF: YARN's own order"
  echo "== run: job order ($pol on two jobs at once; $how)"
  [[ -n ${E2E_ORDER_OFF:-} ]] || sidecar_flags+=(--rm "$SPECBRIDGE_RM_WEB" --rm-job-order --rm-job-order-interval 1s)
  start_sidecar order
  sidecar_flags=("${saved[@]}")
  local args=("${shim_args[@]}" -D specbridge.url="ws://$sidecar_addr/v1/am" -D specbridge.speculator="$pol"
    -D e2e.straggler.ms=0)
  submit order-big "${args[@]}" -D e2e.maps=12
  local big_pid=$client_pid big_job=$job_id big_t0=$job_t0
  extra_pids+=("$big_pid") # cleanup stops it if the run fails before its finish
  submit order-small "${args[@]}" -D e2e.maps=2
  local big_app=${big_job/job_/application_} small_app=${job_id/job_/application_}
  if [[ -z ${E2E_ORDER_OFF:-} ]]; then
    # Both AMs must run at once: a cluster started without the AM limit above (E2E_KEEP_CLUSTER, or another
    # script's) admits the second only when the first ends, and this wait times out.
    wait_until 120 "the sidecar to write $small_app's priority above $big_app's (if only one AM runs at a time, restart the cluster with this script's yarn.scheduler.capacity.maximum-am-resource-percent)" \
      ordered_in_log "$small_app" "$big_app"
    wait_until 30 "the RM to show both priorities set" both_set "$small_app" "$big_app"
    say "sidecar wrote $small_app (2 maps) levels $(written_levels "$small_app" | paste -sd,), $big_app (12 maps) $(written_levels "$big_app" | paste -sd,); RM now: $(app_priority "$small_app") and $(app_priority "$big_app")"
  fi
  finish order-small
  client_pid=$big_pid job_id=$big_job job_t0=$big_t0
  finish order-big
  local small_last big_last
  small_last=$("$work/bin/e2echeck" -print last-map-start "$work/order-small.jhist")
  big_last=$("$work/bin/e2echeck" -print last-map-start "$work/order-big.jhist")
  say "last map started: the 2-map job's $(((big_last - small_last) / 1000)) s before the 12-map job's; 2-map job $("$work/bin/e2echeck" -print duration "$work/order-small.jhist") s, 12-map job $("$work/bin/e2echeck" -print duration "$work/order-big.jhist") s (submit to finish)"
  jobs_run=$((jobs_run + 1)) # two jobs
  if [[ -z ${E2E_ORDER_OFF:-} ]]; then
    local updates
    updates=$(metric specbridge_rm_job_order_updates_total '')
    say "sidecar: $updates application priorities set"
    ((updates >= 2)) || fail "order: the sidecar counts $updates priorities set, want >= 2"
  fi
  stop_sidecar
}

jobs_run=0 # jobs submitted so far (each SUCCEEDS or the script fails)
for run in $runs; do
  jobs_run=$((jobs_run + 1))
  case $run in
    speculation | baseline | killed | order) "run_$run" ;;
    *) fail "E2E_RUNS: unknown run $run (speculation, baseline, killed, order)" ;;
  esac
done
if [[ " $runs " == *" speculation "* && " $runs " == *" baseline "* ]]; then
  echo "== speculation versus baseline"
  check speculation -faster-than "$work/baseline.jhist" || fail "speculation was not faster than the baseline"
fi

failed=0
