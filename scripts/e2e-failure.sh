#!/usr/bin/env bash
# e2e-failure.sh — FARMS live on the mini cluster (issue 5, item 5): the NodeManager running a job's
# maps fails mid-job, with the sidecar running `farms` (the fault analyzer embedded in `specbridge
# serve`, probing the RM) and, for comparison, with Hadoop's stock speculator. Both times are printed.
#
# The cluster (scripts/minicluster.sh, E2E_NODEMANAGERS NodeManagers of 4 GB each) runs with the
# ResourceManager's NM liveness expiry lowered to E2E_NM_EXPIRY_MS. The job
# (e2e/src/org/specbridge/e2e/StragglerJob.java without a straggler): E2E_MAPS maps of E2E_MAP_S
# seconds and one reduce; its AM asks for a whole NodeManager (4 GB), and the scheduler is set to
# place containers at NodeManager heartbeats, several at a time, so the maps converge on another
# one, the node that fails (FARMS §2.2.1's converged tasks). Runs:
#   1. failure-free — the shim with `farms`, no failure: the reference time T0. The history must show
#                     no speculative attempt: `farms` copies only on a failed node here, since its base
#                     policy (`late`) waits a task's first minute and the maps take E2E_MAP_S < 60 s;
#   2. stock        — Hadoop's DefaultSpeculator (no shim) with mapreduce.task.timeout lowered to
#                     E2E_TASK_TIMEOUT_MS; the node fails mid-job. Capped at E2E_STOCK_CAP_S: past it the
#                     job is killed and its time printed as ">= cap";
#   3. farms        — the shim with `farms`; the node fails mid-job. The job must SUCCEED within
#                     E2E_FACTOR x T0 and sooner than the stock run, the fault analyzer must have
#                     told the job that NodeManager (by its id, host:port) failed, and the sidecar
#                     must have sent speculate decisions.
# "The node fails", once the maps have run E2E_FAIL_AFTER_S seconds: every task process of the job on
# the NodeManager holding most of its maps (never the AM's) is frozen with SIGSTOP, then that
# NodeManager is stopped as a crash does (`minicluster.sh stop-nm`: no unregistration, so the RM keeps
# it RUNNING until the expiry; it kills its containers on the way down). Each failure run uses up one
# NodeManager, hence 4 by default.
# Both failure runs lower the AM's NodeManager connect retries (yarn.client.nodemanager-connect.*,
# ipc.client.connect.max.retries): by default an AM spends 3 minutes retrying to stop a container on
# a dead NodeManager before it lets the attempt fail, in both runs alike.
#
# --defaults (issue 13, item 6): the stock and farms runs only, with Hadoop's default NodeManager
# liveness expiry (yarn.nm.liveness-monitor.expiry-interval-ms) and task timeout
# (mapreduce.task.timeout), 600 s each, the delays FARMS removes (FARMS §2.3); the stock run is
# capped at 1500 s. It takes 15-25 minutes, so it is not in scripts/test.sh; the lowered-timeout run
# (no flag) is. The AM's NodeManager connect retries stay lowered in both runs alike (see above).
#
# Usage: scripts/e2e-failure.sh [--defaults]   (environment as scripts/e2e.sh, plus E2E_FACTOR (2),
#   E2E_FAIL_AFTER_S (10), E2E_TASK_TIMEOUT_MS (30000), E2E_NM_EXPIRY_MS (30000), E2E_MAPS (4),
#   E2E_MAP_S (40), E2E_STOCK_CAP_S (300), E2E_NODEMANAGERS (4),
#   E2E_RUNS (default "failure-free stock farms"))
set -euo pipefail

defaults=false
case ${1:-} in
  --defaults) defaults=true ;;
  "") ;;
  *) echo "usage: $0 [--defaults]" >&2; exit 2 ;;
esac
if $defaults; then
  : "${E2E_TASK_TIMEOUT_MS:=600000}" "${E2E_NM_EXPIRY_MS:=600000}" "${E2E_STOCK_CAP_S:=1500}"
  : "${E2E_JOB_TIMEOUT:=1500}" "${E2E_RUNS:=stock farms}"
  : "${SPECBRIDGE_E2E_DIR:=${TMPDIR:-/tmp}/specbridge-e2e-failure-defaults}"
fi

root=$(cd "$(dirname "$0")/.." && pwd)
work=${SPECBRIDGE_E2E_DIR:-${TMPDIR:-/tmp}/specbridge-e2e-failure}
export SPECBRIDGE_MINICLUSTER_DIR=${SPECBRIDGE_MINICLUSTER_DIR:-$work/cluster}
export NODEMANAGERS=${E2E_NODEMANAGERS:-4}
policy=farms
maps=${E2E_MAPS:-4}
map_s=${E2E_MAP_S:-40}
factor=${E2E_FACTOR:-2}
fail_after_s=${E2E_FAIL_AFTER_S:-10}
task_timeout_ms=${E2E_TASK_TIMEOUT_MS:-30000}
nm_expiry_ms=${E2E_NM_EXPIRY_MS:-30000}
stock_cap_s=${E2E_STOCK_CAP_S:-300}
job_timeout=${E2E_JOB_TIMEOUT:-300}
runs=${E2E_RUNS:-failure-free stock farms}

job_args=(-D mapreduce.job.reduces=1 -D e2e.maps="$maps" -D e2e.records=$((map_s * 2))
  -D e2e.map.ms=$((map_s * 1000)) -D e2e.straggler.ms=$((map_s * 1000))
  -D yarn.app.mapreduce.am.resource.mb=4096
  -D mapreduce.task.timeout="$task_timeout_ms" -D mapreduce.task.timeout.check-interval-ms=5000
  -D yarn.client.nodemanager-connect.max-wait-ms=5000 -D yarn.client.nodemanager-connect.retry-interval-ms=1000
  -D ipc.client.connect.max.retries=1)
# shellcheck source=scripts/e2e-lib.sh
source "$root/scripts/e2e-lib.sh"
# The embedded fault analyzer probes the RM's node list and the NMs, every second here; nodes are
# named host:port on both sides (the shim's and the analyzer's default node key).
sidecar_flags=(--rm-url "http://localhost:${RM_WEB_PORT:-19088}" --gather-interval 1s)
# The scheduler places containers at NodeManager heartbeats, up to 8 unlocal ones per heartbeat
# (Hadoop 3.5's defaults: asynchronously, spread over the nodes; at a heartbeat, one): the job's
# maps converge on the first NodeManager with room, as tasks converge on the nodes holding their
# data in FARMS §2.2.1.
cluster_defs=(-D "yarn.nm.liveness-monitor.expiry-interval-ms=$nm_expiry_ms"
  -D yarn.scheduler.capacity.schedule-asynchronously.enable=false
  -D yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments=8)
setup

# containers, running_maps, fail_node and thaw: scripts/e2e-lib.sh (scripts/live-bench.sh fails a node too).
run_failure_free() {
  echo "== run: failure-free, farms"
  start_sidecar failure-free
  submit failure-free "${shim_args[@]}" -D specbridge.url="ws://$sidecar_addr/v1/am"
  finish failure-free
  check failure-free -no-speculative || fail "failure-free: see above"
  timing "  history: submit to finish" "$("$work/bin/e2echeck" -print duration "$work/failure-free.jhist")"
  stop_sidecar
}

# fail_mid_job NAME ARGS...: submits the job and fails its node once the maps have run a while.
fail_mid_job() {
  local name=$1
  shift
  submit "$name" "$@"
  wait_until 240 "$job_id's maps to start" running_maps "$maps"
  sleep "$fail_after_s" # not a condition: the failure is meant to land this far into the maps
  fail_node
}

run_stock() {
  echo "== run: node failure, Hadoop's stock speculator (task timeout ${task_timeout_ms} ms, NM expiry ${nm_expiry_ms} ms)"
  fail_mid_job stock -D mapreduce.map.speculative=true -D mapreduce.reduce.speculative=true
  local deadline=$((job_t0 + stock_cap_s))
  while kill -0 "$client_pid" 2> /dev/null && ((SECONDS < deadline)); do
    sleep 1 # the job is running
  done
  if kill -0 "$client_pid" 2> /dev/null; then
    # Its time so far, submit to now, as the RM counts it (the client started before the submit).
    local elapsed_ms
    elapsed_ms=$(curl -fsS "$SPECBRIDGE_RM_WEB/ws/v1/cluster/apps/${job_id/job_/application_}" |
      sed -n 's/.*"elapsedTime":\([0-9]*\).*/\1/p')
    stock_time=">= $((${elapsed_ms:-0} / 1000))"
    say "stock: not done ${stock_cap_s} s after its client started ($stock_time s after submit); killing $job_id"
    curl -fsS -X PUT -H 'Content-Type: application/json' -d '{"state":"KILLED"}' \
      "$SPECBRIDGE_RM_WEB/ws/v1/cluster/apps/${job_id/job_/application_}/state" > /dev/null ||
      say "stock: the RM did not take the kill"
    kill "$client_pid" 2> /dev/null || true
    wait "$client_pid" 2> /dev/null || true
    client_pid=""
    thaw
    return
  fi
  finish stock
  thaw
  check stock || fail "stock: see above"
  stock_time=$("$work/bin/e2echeck" -print duration "$work/stock.jhist")
  timing "  history: submit to finish" "$stock_time"
}

run_farms() {
  echo "== run: node failure, farms"
  start_sidecar farms
  fail_mid_job farms "${shim_args[@]}" -D specbridge.url="ws://$sidecar_addr/v1/am"
  finish farms
  thaw
  check farms || fail "farms: see above"
  timing "  history: submit to finish" "$("$work/bin/e2echeck" -print duration "$work/farms.jhist")"
  grep "fault analyzer notice" "$sidecar_log" | sed 's/^/  sidecar: /' || true
  grep "fault analyzer notice" "$sidecar_log" | grep "node-failed" | grep -qF "$failed_nm" ||
    fail "farms: the fault analyzer never told the job that $failed_nm failed (log: $sidecar_log)"
  local spec
  spec=$(metric specbridge_bridge_decisions_total 'kind="speculate"')
  say "sidecar: $spec speculate and $(metric specbridge_bridge_decisions_total 'kind="rerun"') rerun decisions," \
    "$(metric specbridge_bridge_acks_total 'result="applied"') applied by the AM"
  ((spec >= 1)) || fail "farms: the sidecar sent no speculate decision for the failed node's tasks"
  stop_sidecar
}

stock_time=""
for run in $runs; do
  case $run in
    failure-free | stock | farms) "run_${run/-/_}" ;;
    *) fail "E2E_RUNS: unknown run $run (failure-free, stock, farms)" ;;
  esac
done

echo "== times (submit to finish, from the histories)"
for run in $runs; do
  if [[ $run == stock ]]; then
    printf '  %-14s %6ss\n' "$run" "$stock_time"
  else
    printf '  %-14s %6ss\n' "$run" "$("$work/bin/e2echeck" -print duration "$work/$run.jhist")"
  fi
done
if [[ " $runs " == *" failure-free "* && " $runs " == *" farms "* ]]; then
  t0=$("$work/bin/e2echeck" -print duration "$work/failure-free.jhist")
  tf=$("$work/bin/e2echeck" -print duration "$work/farms.jhist")
  awk -v t0="$t0" -v tf="$tf" -v k="$factor" 'BEGIN { printf "  farms / failure-free = %.2f (limit %s)\n", tf / t0, k; exit !(tf <= k * t0) }' ||
    fail "farms took ${tf}s, more than ${factor}x the failure-free ${t0}s"
fi
if [[ " $runs " == *" stock "* && " $runs " == *" farms "* ]]; then
  tf=$("$work/bin/e2echeck" -print duration "$work/farms.jhist")
  if [[ $stock_time == ">="* ]]; then # capped: the stock run did not finish
    awk -v s="${stock_time#>= }" -v tf="$tf" 'BEGIN { printf "  stock / farms >= %.2f\n", s / tf }'
  else
    awk -v s="$stock_time" -v tf="$tf" 'BEGIN { printf "  stock / farms = %.2f\n", s / tf }'
    check farms -faster-than "$work/stock.jhist" > /dev/null || fail "farms (${tf}s) was not faster than Hadoop's stock speculator (${stock_time}s)"
  fi
fi
failed=0
