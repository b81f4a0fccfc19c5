#!/usr/bin/env bash
# live-bench.sh — does a replay predict what the policies do live? One workload of real MapReduce jobs
# on the mini cluster (scripts/minicluster.sh: HDFS, YARN with 3 NodeManagers, JobHistory; the jobs are
# e2e's StragglerJob), run under stock Hadoop (speculation off) and under each policy of BENCH_POLICIES
# through the shim and a real `specbridge serve`; then `specbridge replay` of the stock run's own
# histories under the same policies. Prints, per policy, the live mean job time (submit to finish, from
# the histories) and PoCD against the deadline, the replay's predicted mean, and the error; and whether
# the replay ranks the policies as the live run does. docs/live-bench.md has the table of a run.
#
# The workload: one job per value of BENCH_STRAGGLERS_S, run one after the other; each has BENCH_MAPS
# maps of BENCH_MAP_S seconds and a reduce, and the first attempt of its map 0 takes the value's seconds
# (heavy-tailed draws), any later attempt of it
# is quick: a task stuck on a slow NodeManager, as e2e.sh's straggler. Every job carries a deadline
# (specbridge.grass.deadline-ms = BENCH_DEADLINE_S) for srquant and for PoCD.
#
# Not covered, and why (the docs say so too): heterogeneous NodeManagers beyond the one slow attempt per
# job (StragglerJob slows a task, not a node), and a node failure (scripts/e2e-failure.sh runs farms
# against a crashed NodeManager). Outside the test command: it takes tens of minutes on two cores.
#
# Usage: scripts/live-bench.sh   (needs what e2e.sh needs, and python3 for the table)
# Environment: SPECBRIDGE_BENCH_DIR (default ${TMPDIR:-/tmp}/specbridge-live-bench), BENCH_POLICIES
#   ("hadoop late srquant"), BENCH_STRAGGLERS_S ("7 12 30"), BENCH_MAPS (4), BENCH_MAP_S (6),
#   BENCH_DEADLINE_S (60), BENCH_JOB_TIMEOUT (s per job, 300), E2E_KEEP_CLUSTER=1 as for e2e.sh.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${SPECBRIDGE_BENCH_DIR:-${TMPDIR:-/tmp}/specbridge-live-bench}
export SPECBRIDGE_MINICLUSTER_DIR=${SPECBRIDGE_MINICLUSTER_DIR:-$work/cluster}
policies=${BENCH_POLICIES:-hadoop late srquant}
stragglers=${BENCH_STRAGGLERS_S:-7 12 30}
maps=${BENCH_MAPS:-4}
map_s=${BENCH_MAP_S:-6}
deadline_s=${BENCH_DEADLINE_S:-60}
job_timeout=${BENCH_JOB_TIMEOUT:-300}
policy=hadoop # e2e-lib's shim_args name a policy; each run below names its own

job_args=(-D mapreduce.job.reduces=1 -D e2e.maps="$maps" -D e2e.records=60 -D e2e.map.ms=$((map_s * 1000))
  -D e2e.straggler.task=0 -D specbridge.grass.deadline-ms=$((deadline_s * 1000)))
# shellcheck source=scripts/e2e-lib.sh
source "$root/scripts/e2e-lib.sh"
command -v python3 > /dev/null || fail "python3 is not on PATH"
setup

# Per-policy parameters for jobs of seconds (the papers' defaults are for minutes-long tasks).
policy_args() {
  case $1 in
    late) echo "-D specbridge.param.late.min-runtime-ms=5000" ;;
    srquant | laser) echo "-D specbridge.param.$1.tau-est-s=3 -D specbridge.param.$1.tau-kill-s=5" ;;
    *) echo "" ;;
  esac
}

# run_workload NAME ARGS...: every job of the workload, one after the other; NAME-<i>.jhist each.
run_workload() {
  local name=$1 i=0 s
  shift
  for s in $stragglers; do
    i=$((i + 1))
    submit "$name-$i" -D e2e.straggler.ms=$((s * 1000)) "$@"
    finish "$name-$i"
    say "$name-$i: $("$work/bin/e2echeck" "$work/$name-$i.jhist")"
  done
}

echo "== stock Hadoop, speculation off"
run_workload stock -D mapreduce.map.speculative=false -D mapreduce.reduce.speculative=false
for p in $policies; do
  echo "== $p through the shim and the sidecar"
  start_sidecar "$p"
  # shellcheck disable=SC2046
  run_workload "$p" "${shim_args[@]}" -D specbridge.speculator="$p" -D specbridge.url="ws://$sidecar_addr/v1/am" \
    $(policy_args "$p")
  stop_sidecar
done

echo "== replay of the stock run's histories"
params=()
for p in $policies; do
  for a in $(policy_args "$p"); do
    [[ $a == -D ]] && continue
    params+=(--param "${a#specbridge.param.}")
  done
done
stock_hists=()
for i in $(seq 1 "$(wc -w <<< "$stragglers")"); do
  stock_hists+=("$work/stock-$i.jhist")
done
"$work/bin/specbridge" replay --speculators "none,${policies// /,}" "${params[@]}" --output json "${stock_hists[@]}" \
  > "$work/replay.json" 2> "$work/replay.err" || fail "replay failed: $(tail -n 5 "$work/replay.err")"

for p in stock $policies; do
  for i in $(seq 1 "$(wc -w <<< "$stragglers")"); do
    echo "$p $("$work/bin/e2echeck" -print duration "$work/$p-$i.jhist")"
  done
done > "$work/live.txt"

python3 - "$work/live.txt" "$work/replay.json" "$deadline_s" <<'EOF'
import json, sys
live, replay, deadline = sys.argv[1], sys.argv[2], float(sys.argv[3])
times = {}
for line in open(live):
    p, s = line.split()
    times.setdefault(p, []).append(float(s))
reports = json.load(open(replay))
if isinstance(reports, dict):
    reports = [reports]
pred = {}
for r in reports:
    for res in r["results"]:
        pred.setdefault(res["speculator"], []).append(res["mean_job_s"])
print("| policy | live mean job s | live PoCD (%.0f s) | replay mean job s | error |" % deadline)
print("| --- | --- | --- | --- | --- |")
rows = []
for p, ts in times.items():
    key = "none" if p == "stock" else p
    m = sum(ts) / len(ts)
    pocd = sum(t <= deadline for t in ts) / len(ts)
    ps = pred.get(key)
    if ps:
        pm = sum(ps) / len(ps)
        err = "%+.1f%%" % (100 * (pm - m) / m)
        rows.append((p, m, pm))
        print("| %s | %.1f | %.2f | %.1f | %s |" % (p, m, pocd, pm, err))
    else:
        print("| %s | %.1f | %.2f | - | - |" % (p, m, pocd))
live_rank = [p for p, _, _ in sorted(rows, key=lambda r: r[1])]
pred_rank = [p for p, _, _ in sorted(rows, key=lambda r: r[2])]
print()
print("live ranking:   " + " < ".join(live_rank))
print("replay ranking: " + " < ".join(pred_rank) + ("  (same)" if live_rank == pred_rank else "  (differs)"))
EOF
failed=0
