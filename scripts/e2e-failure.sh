#!/usr/bin/env bash
# e2e-failure.sh — FARMS live on the mini cluster (issue 5, item 5): a NodeManager made unresponsive
# mid-job, with the sidecar running `farms` (the fault analyzer embedded in `specbridge serve`, probing
# the RM) against Hadoop's stock speculator with lowered timeouts. Both times are printed.
#
# The job (e2e/src/org/specbridge/e2e/StragglerJob.java without a straggler): E2E_MAPS maps of
# E2E_MAP_S seconds and one reduce. Runs:
#   1. failure-free — the shim with `farms`, no failure: the reference time T0;
#   2. stock        — Hadoop's DefaultSpeculator (no shim), mapreduce.task.timeout E2E_TASK_TIMEOUT_MS;
#                     the node fails mid-job;
#   3. farms        — the shim with `farms`; the node fails mid-job: the job must SUCCEED within
#                     E2E_FACTOR x T0.
# "The node fails": once the job's maps have run E2E_FAIL_AFTER_S seconds, every map container of the
# NodeManager holding most of them is frozen with SIGSTOP (the AM's container is never frozen). The
# NodeManager itself cannot be stopped: MiniHadoopClusterManager runs every NM inside its own JVM and
# offers no control to stop one, so YARN still sees that NM healthy; only the job's heartbeats stop.
#
# Usage: scripts/e2e-failure.sh   (environment as scripts/e2e.sh, plus E2E_FACTOR (3),
#   E2E_FAIL_AFTER_S (10), E2E_TASK_TIMEOUT_MS (30000), E2E_MAPS (4), E2E_MAP_S (40),
#   E2E_RUNS (default "failure-free stock farms"))
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${SPECBRIDGE_E2E_DIR:-${TMPDIR:-/tmp}/specbridge-e2e-failure}
export SPECBRIDGE_MINICLUSTER_DIR=${SPECBRIDGE_MINICLUSTER_DIR:-$work/cluster}
policy=farms
maps=${E2E_MAPS:-4}
map_s=${E2E_MAP_S:-40}
factor=${E2E_FACTOR:-3}
fail_after_s=${E2E_FAIL_AFTER_S:-10}
task_timeout_ms=${E2E_TASK_TIMEOUT_MS:-30000}
job_timeout=${E2E_JOB_TIMEOUT:-400}
runs=${E2E_RUNS:-failure-free stock farms}

job_args=(-D mapreduce.job.reduces=1 -D e2e.maps="$maps" -D e2e.records=$((map_s * 2))
  -D e2e.map.ms=$((map_s * 1000)) -D e2e.straggler.ms=$((map_s * 1000))
  -D mapreduce.task.timeout="$task_timeout_ms")
# shellcheck source=scripts/e2e-lib.sh
source "$root/scripts/e2e-lib.sh"
# The embedded fault analyzer probes the RM's node list and the NMs, every second here.
sidecar_flags=(--rm-url "http://localhost:${RM_WEB_PORT:-19088}" --gather-interval 1s)
setup

# map_containers: "NM-index pid" for each task JVM (YarnChild) of the job, from the container
# directory in its command line (…-localDir-nm-<i>_<j>/…/container_…); never the AM.
map_containers() {
  local app=${job_id/job_/application_} pid cmd nm
  for pid in $(descendants "$(cat "$SPECBRIDGE_MINICLUSTER_DIR/pid")"); do
    cmd=$({ tr '\0' ' ' < "/proc/$pid/cmdline"; } 2> /dev/null) || continue # it may have exited
    [[ $cmd == *YarnChild* && $cmd == *"/$app/container_"* ]] || continue
    nm=$(sed -n 's/.*-localDir-nm-\([0-9]*\)_.*/\1/p' <<< "$cmd" | head -n 1)
    [[ -z $nm ]] || echo "$nm $pid"
  done
}

# running_maps N: at least N task JVMs of the job are up.
running_maps() {
  kill -0 "$client_pid" 2> /dev/null || fail "the job client exited before its maps ran"
  (($(map_containers | wc -l) >= $1))
}

# fail_node: freezes every task container process on the NM running most of the job's tasks.
fail_node() {
  local nm
  nm=$(map_containers | awk '{print $1}' | sort | uniq -c | sort -rn | awk 'NR == 1 {print $2}')
  [[ -n $nm ]] || fail "no task containers of $job_id found to freeze"
  frozen=$(map_containers | awk -v nm="$nm" '$1 == nm {print $2}' | tr '\n' ' ')
  say "node failure: NodeManager $nm, SIGSTOP to $(wc -w <<< "$frozen") container processes ($frozen)"
  # shellcheck disable=SC2086
  kill -STOP $frozen
  fail_t=$SECONDS
}

# thaw: the frozen processes are killed once the job is over (they belong to a failed node).
thaw() {
  # shellcheck disable=SC2086
  [[ -z $frozen ]] || kill -KILL $frozen 2>/dev/null || true
  frozen=""
}

run_failure_free() {
  echo "== run: failure-free, farms"
  start_sidecar failure-free
  submit failure-free "${shim_args[@]}" -D specbridge.url="ws://$sidecar_addr/v1/am"
  finish failure-free
  check failure-free || fail "failure-free: see above"
  timing "  history: submit to finish" "$("$work/bin/e2echeck" -print duration "$work/failure-free.jhist")"
  stop_sidecar
}

run_with_failure() { # NAME ARGS...
  local name=$1
  shift
  submit "$name" "$@"
  wait_until 240 "$job_id's maps to start" running_maps "$maps"
  sleep "$fail_after_s" # the maps run a while before their node fails
  fail_node
  finish "$name"
  thaw
  check "$name" || fail "$name: see above"
  timing "  history: submit to finish" "$("$work/bin/e2echeck" -print duration "$work/$name.jhist")"
}

run_stock() {
  echo "== run: node failure, Hadoop's stock speculator (task timeout ${task_timeout_ms} ms)"
  run_with_failure stock -D mapreduce.map.speculative=true -D mapreduce.reduce.speculative=true
}

run_farms() {
  echo "== run: node failure, farms"
  start_sidecar farms
  run_with_failure farms "${shim_args[@]}" -D specbridge.url="ws://$sidecar_addr/v1/am"
  grep -E "node-(suspected|failed|resumed)|node (suspected|failed|resumed)|NodeFailed|NodeSuspected" "$sidecar_log" |
    head -n 5 | sed 's/^/  sidecar: /' || true
  say "sidecar: $(metric specbridge_bridge_decisions_total 'kind="speculate"') speculate and" \
    "$(metric specbridge_bridge_decisions_total 'kind="rerun"') rerun decisions"
  stop_sidecar
}

for run in $runs; do
  case $run in
    failure-free) run_failure_free ;;
    stock | farms) "run_$run" ;;
    *) fail "E2E_RUNS: unknown run $run (failure-free, stock, farms)" ;;
  esac
done

echo "== times (submit to finish)"
for run in $runs; do
  printf '  %-14s %6ss\n' "$run" "$("$work/bin/e2echeck" -print duration "$work/$run.jhist")"
done
if [[ " $runs " == *" failure-free "* && " $runs " == *" farms "* ]]; then
  t0=$("$work/bin/e2echeck" -print duration "$work/failure-free.jhist")
  tf=$("$work/bin/e2echeck" -print duration "$work/farms.jhist")
  awk -v t0="$t0" -v tf="$tf" -v k="$factor" 'BEGIN { printf "  farms / failure-free = %.2f (limit %s)\n", tf / t0, k; exit !(tf <= k * t0) }' ||
    fail "farms took ${tf}s, more than ${factor}x the failure-free ${t0}s"
fi
failed=0
