#!/usr/bin/env bash
# live-bench.sh — does a replay predict what the policies do live? One workload of real MapReduce jobs
# on the mini cluster (scripts/minicluster.sh: HDFS, YARN, JobHistory), run under stock Hadoop
# (speculation off) and under each policy of BENCH_POLICIES through the shim and a real `specbridge
# serve`; then `specbridge replay` of the stock run's own histories under the same policies. Prints, per
# policy, the live mean job time (submit to finish, from the histories) and PoCD of the deadline jobs,
# the replay's predicted mean, and the error; and whether the replay ranks the policies as the live run
# does. docs/live-bench.md has the table of a run.
#
# The workload (e2e's StragglerJob), one job after the other, on a cluster of heterogeneous
# NodeManagers: every third NodeManager (by id) is slow, each attempt on it sleeping BENCH_SLOW_FACTOR
# times as long (e2e.slow.nodes). Jobs 1.. (one per value of BENCH_STRAGGLERS_S, heavy-tailed draws):
# BENCH_MAPS maps of BENCH_MAP_S s and a reduce, the first attempt of map 0 taking the value's seconds
# (any later attempt of it is quick), with a deadline of BENCH_DEADLINE_S (specbridge.grass.deadline-ms,
# for srquant and PoCD). The last job: BENCH_MAPS maps of BENCH_FAIL_MAP_S s, no straggler, no deadline,
# and a node failure BENCH_FAIL_AFTER_S s into its maps (scripts/e2e-failure.sh's: the NodeManager
# running most of its maps, never the AM's, frozen and stopped as a crash; the NM liveness expiry, and
# this job's task timeout, lowered to 30 s in every run alike). Each configuration's failure uses up one NodeManager, so
# the cluster starts with 3 more than the configurations run live.
#
# Outside the test command: about 3.5 minutes a configuration on two cores. The live runs can be split
# over several invocations sharing SPECBRIDGE_BENCH_DIR (BENCH_LIVE names the configurations to run this
# time; the table uses every history there), so that the mini cluster is not held for the whole run.
#
# Usage: scripts/live-bench.sh   (needs what e2e.sh needs, and python3 for the table)
# Environment: SPECBRIDGE_BENCH_DIR (default ${TMPDIR:-/tmp}/specbridge-live-bench), BENCH_POLICIES
#   (default "hadoop late mantri sca srquant farms", and auto when `specbridge speculators` lists it),
#   BENCH_LIVE (default "stock" and every policy; "" replays and tabulates only), BENCH_STRAGGLERS_S
#   ("40 20"), BENCH_MAPS (4), BENCH_MAP_S (5), BENCH_DEADLINE_S (60), BENCH_SLOW_FACTOR (3),
#   BENCH_FAIL_MAP_S (10), BENCH_FAIL_AFTER_S (8), BENCH_JOB_CAP_S (240: a job still running this long
#   after its client started is killed and counted at the cap, marked >=), NODEMANAGERS
#   (3 more than BENCH_LIVE's configurations; set it to keep the cluster the same over split runs),
#   BENCH_REPLAY_ARGS (more `specbridge replay` flags; default "--runs 10": a copy's work is a draw from
#   the job's recorded attempts, so one seed is one draw; add "--nodes 7 --slots 4" for the live
#   cluster's size in place of the recorded NodeManagers' busiest moments),
#   E2E_KEEP_CLUSTER=1 as for e2e.sh.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${SPECBRIDGE_BENCH_DIR:-${TMPDIR:-/tmp}/specbridge-live-bench}
export SPECBRIDGE_MINICLUSTER_DIR=${SPECBRIDGE_MINICLUSTER_DIR:-$work/cluster}
stragglers=${BENCH_STRAGGLERS_S:-40 20}
maps=${BENCH_MAPS:-4}
map_s=${BENCH_MAP_S:-5}
deadline_s=${BENCH_DEADLINE_S:-60}
slow_factor=${BENCH_SLOW_FACTOR:-3}
fail_map_s=${BENCH_FAIL_MAP_S:-10}
fail_after_s=${BENCH_FAIL_AFTER_S:-8}
job_cap=${BENCH_JOB_CAP_S:-240}
job_timeout=$((job_cap + 60))
policy=hadoop # e2e-lib's shim_args name a policy; each run below names its own
njobs=$(($(wc -w <<< "$stragglers") + 1))

mkdir -p "$work/bin"
go build -o "$work/bin/specbridge" "$root/cmd/specbridge"
go build -o "$work/bin/e2echeck" "$root/scripts/e2echeck"
if [[ -n ${BENCH_POLICIES:-} ]]; then
  policies=$BENCH_POLICIES
else
  policies="hadoop late mantri sca srquant farms"
  # auto (the policy that picks one per job) when this build has it.
  # grep reads it all (no -q): an early exit would fail the pipeline (pipefail) by SIGPIPE.
  "$work/bin/specbridge" speculators | grep '^auto ' > /dev/null && policies+=" auto"
fi
live=${BENCH_LIVE-stock $policies}

# The AM's node blacklisting is off: it blacklists a host after 3 failed attempts there
# (mapreduce.job.maxtaskfailures.per.tracker), and every NodeManager of the mini cluster is the host
# localhost, so one blacklisting took the whole cluster from the job (sca's failure job hung so, its
# clones timed out at start-up on the loaded machine: docs/live-bench.md). A real cluster's hosts differ.
job_args=(-D mapreduce.job.reduces=1 -D e2e.maps="$maps" -D e2e.straggler.task=0
  -D yarn.app.mapreduce.am.job.node-blacklisting.enable=false)
# The failure job: the task timeout and the AM's NodeManager connect retries lowered as e2e-failure.sh
# does, so that its lost attempts fail in seconds, not minutes, in every run alike. Only there: on a
# loaded machine a 30 s timeout also kills attempts whose JVMs are slow to start (sca's clones, 20 at
# once, failed a straggler job that way).
fail_args=(-D mapreduce.task.timeout=30000 -D mapreduce.task.timeout.check-interval-ms=5000
  -D yarn.client.nodemanager-connect.max-wait-ms=5000 -D yarn.client.nodemanager-connect.retry-interval-ms=1000
  -D ipc.client.connect.max.retries=1)
cluster_defs=(-D yarn.nm.liveness-monitor.expiry-interval-ms=30000
  -D yarn.scheduler.capacity.schedule-asynchronously.enable=false
  -D yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments=8)
export NODEMANAGERS=${NODEMANAGERS:-$((3 + $(wc -w <<< "$live")))}
((NODEMANAGERS >= 3 + $(wc -w <<< "$live"))) || { echo "live-bench: NODEMANAGERS=$NODEMANAGERS: want 3 more than the $(wc -w <<< "$live") configurations of BENCH_LIVE" >&2; exit 2; }
# shellcheck source=scripts/e2e-lib.sh
source "$root/scripts/e2e-lib.sh"
command -v python3 > /dev/null || fail "python3 is not on PATH"

# Per-policy parameters for jobs of seconds (the papers' defaults are for minutes-long tasks).
policy_args() {
  case $1 in
    late) echo "-D specbridge.param.late.min-runtime-ms=5000" ;;
    farms) echo "-D specbridge.param.farms.base-params=min-runtime-ms=5000" ;;
    srquant | laser) echo "-D specbridge.param.$1.tau-est-s=3 -D specbridge.param.$1.tau-kill-s=5" ;;
    *) echo "" ;;
  esac
}

# finish_capped NAME: finish, unless the job is still running job_cap s after its client started:
# then it is killed through the ResourceManager and NAME.capped holds the cap (its time is at least that).
finish_capped() {
  local name=$1 app=${job_id/job_/application_}
  rm -f "$work/$name.capped"
  while kill -0 "$client_pid" 2> /dev/null && ((SECONDS < job_t0 + job_cap)); do
    sleep 1 # the job is running
  done
  if ! kill -0 "$client_pid" 2> /dev/null; then
    finish "$name"
    return
  fi
  say "$name: not done ${job_cap} s after its client started; killing $job_id, counted as >= ${job_cap} s"
  curl -fsS -X PUT -H 'Content-Type: application/json' -d '{"state":"KILLED"}' \
    "$SPECBRIDGE_RM_WEB/ws/v1/cluster/apps/$app/state" > /dev/null || say "$name: the RM did not take the kill"
  kill "$client_pid" 2> /dev/null || true
  wait "$client_pid" 2> /dev/null || true
  client_pid=""
  am_log "$name"
  echo "$job_cap" > "$work/$name.capped"
}

# run_workload NAME ARGS...: every job of the workload, one after the other; NAME-<i>.jhist each.
run_workload() {
  local name=$1 i=0 s
  shift
  for s in $stragglers; do
    i=$((i + 1))
    rm -f "$work/$name-$i.capped"
    submit "$name-$i" -D e2e.records=$((map_s * 4)) -D e2e.map.ms=$((map_s * 1000)) -D e2e.straggler.ms=$((s * 1000)) \
      -D specbridge.grass.deadline-ms=$((deadline_s * 1000)) "${slow_args[@]}" "$@"
    finish "$name-$i"
    say "$name-$i: $("$work/bin/e2echeck" "$work/$name-$i.jhist" | head -n 1)"
  done
  i=$((i + 1))
  submit "$name-$i" -D e2e.records=$((fail_map_s * 2)) -D e2e.map.ms=$((fail_map_s * 1000)) \
    -D e2e.straggler.ms=$((fail_map_s * 1000)) -D yarn.app.mapreduce.am.resource.mb=4096 "${fail_args[@]}" "${slow_args[@]}" "$@"
  wait_until 240 "$job_id's maps to start" running_maps "$maps"
  sleep "$fail_after_s" # not a condition: the failure is meant to land this far into the maps
  fail_node
  finish_capped "$name-$i"
  thaw
  [[ -e $work/$name-$i.capped ]] || say "$name-$i: $("$work/bin/e2echeck" "$work/$name-$i.jhist" | head -n 1)"
}

if [[ -n ${live// /} ]]; then
  setup
  sidecar_flags=(--rm-url "$SPECBRIDGE_RM_WEB" --gather-interval 1s)
  # Every third NodeManager by id is slow.
  slow_nodes=$(curl -fsS "$SPECBRIDGE_RM_WEB/ws/v1/cluster/nodes?states=RUNNING" | grep -o '"id":"[^"]*"' |
    sed 's/"id":"\(.*\)"/\1/' | sort | awk 'NR % 3 == 1' | paste -sd, -)
  [[ -n $slow_nodes ]] || fail "the ResourceManager lists no NodeManager"
  say "slow NodeManagers (x$slow_factor): $slow_nodes"
  slow_args=(-D e2e.slow.nodes="$slow_nodes" -D e2e.slow.factor="$slow_factor")
  for p in $live; do
    if [[ $p == stock ]]; then
      echo "== stock Hadoop, speculation off"
      run_workload stock -D mapreduce.map.speculative=false -D mapreduce.reduce.speculative=false
      continue
    fi
    echo "== $p through the shim and the sidecar"
    start_sidecar "$p"
    # shellcheck disable=SC2046
    run_workload "$p" "${shim_args[@]}" -D specbridge.speculator="$p" -D specbridge.url="ws://$sidecar_addr/v1/am" \
      $(policy_args "$p")
    stop_sidecar
  done
fi

echo "== replay of the stock run's histories"
# A .jhist holds no job configuration; the replay reads the job's conf.xml beside it (as a JobHistory
# done directory keeps them). Beside each deadline job's history the benchmark writes the one submitted
# setting the replay reads that the history lacks, its deadline (without it srquant has none in replay).
for f in "$work"/*-[0-9]*.jobid; do
  n=$(basename "$f" .jobid)
  ((${n##*-} < njobs)) || continue
  conf=$work/$(cat "$f")_conf.xml
  [[ -s $conf ]] || printf '<?xml version="1.0"?>\n<configuration>\n<property><name>specbridge.grass.deadline-ms</name><value>%d</value></property>\n</configuration>\n' \
    $((deadline_s * 1000)) > "$conf"
done
replay_default="--runs 10"
params=()
for p in $policies; do
  for a in $(policy_args "$p"); do
    [[ $a == -D ]] && continue
    params+=(--param "${a#specbridge.param.}")
  done
done
stock_hists=()
for i in $(seq 1 "$njobs"); do
  [[ -s $work/stock-$i.jhist ]] || fail "no $work/stock-$i.jhist: run the stock configuration live first (BENCH_LIVE)"
  stock_hists+=("$work/stock-$i.jhist")
done
# The NodeManagers' speeds are measured from every history of the stock run's cluster (the same
# ResourceManager: the job ids' cluster timestamp), the other configurations' runs included: three jobs
# of 4 maps give a node one or two attempts, too few to tell a slow node from a straggling task
# (docs/live-bench.md). BENCH_NODE_SPEEDS=own measures them from the stock run alone.
speed_args=()
if [[ ${BENCH_NODE_SPEEDS:-cluster} != own ]]; then
  cluster_ts=$(cut -d_ -f2 "$work/stock-1.jobid")
  rm -rf "$work/speeds" && mkdir -p "$work/speeds"
  for f in "$work"/*.jobid; do
    n=$(basename "$f" .jobid)
    [[ $n == stock-* || ! -s $work/$n.jhist || $(cut -d_ -f2 "$f") != "$cluster_ts" ]] || ln -s "$work/$n.jhist" "$work/speeds/$n.jhist"
  done
  [[ -z $(ls "$work/speeds") ]] || speed_args=(--node-speeds-from "$work/speeds")
  say "node speeds from the stock run and $(ls "$work/speeds" | wc -l) more histories of its cluster"
fi
# shellcheck disable=SC2086 # BENCH_REPLAY_ARGS is a list of flags
"$work/bin/specbridge" replay --speculators "none,${policies// /,}" "${params[@]}" "${speed_args[@]}" ${BENCH_REPLAY_ARGS-$replay_default} --output json "${stock_hists[@]}" \
  > "$work/replay.json" 2> "$work/replay.err" || fail "replay failed: $(tail -n 5 "$work/replay.err")"

# live.txt: POLICY JOB SECONDS DEADLINE_S (0: no deadline) CAPPED (1: killed at the cap, at least
# SECONDS) AM_START_S (submit to the first task's start, which no policy changes; - when capped), for
# every job run there.
for p in stock $policies; do
  for i in $(seq 1 "$njobs"); do
    d=$deadline_s
    ((i < njobs)) || d=0
    if [[ -s $work/$p-$i.capped ]]; then
      echo "$p $i $(cat "$work/$p-$i.capped") $d 1 -"
    elif [[ -s $work/$p-$i.jhist ]]; then
      echo "$p $i $("$work/bin/e2echeck" -print duration "$work/$p-$i.jhist") $d 0 $("$work/bin/e2echeck" -print am-start "$work/$p-$i.jhist")"
    fi
  done
done > "$work/live.txt"

echo "replay flags: ${BENCH_REPLAY_ARGS-$replay_default}"
python3 - "$work/live.txt" "$work/replay.json" <<'EOF'
import json, sys
live, replay = sys.argv[1], sys.argv[2]
times, deadline, capped, am = {}, 0.0, set(), {}
for line in open(live):
    p, i, s, d, c, a = line.split()
    times.setdefault(p, []).append((int(i), float(s), float(d)))
    deadline = max(deadline, float(d))
    if c == "1":
        capped.add(p)
    else:
        am[(p, int(i))] = float(a)
reports = json.load(open(replay))
if isinstance(reports, dict):
    reports = [reports]
pred = {}  # policy -> job index -> predicted s; reports are in the order of the stock jobs
for k, r in enumerate(reports):
    for res in r["results"]:
        pred.setdefault(res["speculator"], {})[k + 1] = res["mean_job_s"]
# The AM's start-up (submit to the first task) is no policy's doing, and on a shared machine it drifts
# with the load from one configuration to the next; "after AM start" compares the rest: the live time
# less its own AM start against the prediction less the stock job's (which the replay's calibration
# put in every policy's prediction).
print("| policy | jobs | live mean job s | live PoCD (deadline jobs, %.0f s) | replay mean job s | replay PoCD | error | live after AM start s | replay after AM start s | error after AM start |" % deadline)
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
rows, rows_after = [], []
for p, ts in times.items():
    key = "none" if p == "stock" else p
    m = sum(t for _, t, _ in ts) / len(ts)
    dl = [(t, d) for _, t, d in ts if d > 0]
    pocd = "%.2f" % (sum(t <= d for t, d in dl) / len(dl)) if dl else "-"
    ps = pred.get(key, {})
    live_s = ">= %.1f" % m if p in capped else "%.1f" % m
    if all(i in ps for i, _, _ in ts):
        pm = sum(ps[i] for i, _, _ in ts) / len(ts)
        err = "%+.1f%%" % (100 * (pm - m) / m)
        # The replay's PoCD: its job's mean time over the runs against the deadline.
        ppocd = "%.2f" % (sum(ps[i] <= d for i, _, d in ts if d > 0) / len(dl)) if dl else "-"
        after = "| - | - | - |"
        if p not in capped and all(("stock", i) in am for i, _, _ in ts):
            la = sum(t - am[(p, i)] for i, t, _ in ts) / len(ts)
            pa = sum(ps[i] - am[("stock", i)] for i, _, _ in ts) / len(ts)
            after = "| %.1f | %.1f | %+.1f%% |" % (la, pa, 100 * (pa - la) / la)
            rows_after.append((p, la, pa))
        rows.append((p, m, pm))
        print("| %s | %s | %s | %s | %.1f | %s | %s %s" % (p, ",".join(str(i) for i, _, _ in ts), live_s, pocd, pm, ppocd, err, after))
    else:
        print("| %s | %s | %s | %s | - | - | - | - | - | - |" % (p, ",".join(str(i) for i, _, _ in ts), live_s, pocd))
live_rank = [p for p, _, _ in sorted(rows, key=lambda r: r[1])]
pred_rank = [p for p, _, _ in sorted(rows, key=lambda r: r[2])]
print()
print("live ranking:   " + " < ".join(live_rank))
print("replay ranking: " + " < ".join(pred_rank) + ("  (same)" if live_rank == pred_rank else "  (differs)"))
la_rank = [p for p, _, _ in sorted(rows_after, key=lambda r: r[1])]
pa_rank = [p for p, _, _ in sorted(rows_after, key=lambda r: r[2])]
print("after AM start, live:   " + " < ".join(la_rank))
print("after AM start, replay: " + " < ".join(pa_rank) + ("  (same)" if la_rank == pa_rank else "  (differs)"))
EOF
failed=0
