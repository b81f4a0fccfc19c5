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
# and a node failure BENCH_FAIL_AFTER_S s into its maps (the NodeManager running map BENCH_FAIL_MAP's
# first attempt (0), never the AM's, frozen and stopped as a crash; BENCH_FAIL_MAP= fails
# scripts/e2e-failure.sh's NodeManager running most of the job's tasks instead, which a policy's copies
# beside their originals make the target; the NM liveness expiry, and
# this job's task timeout, lowered to 30 s in every run alike). Each configuration's failure uses up one NodeManager, so
# the cluster starts with 3 more than the configurations run live.
#
# About 3.5 minutes a configuration on two cores. The live runs can be split over several invocations
# sharing SPECBRIDGE_BENCH_DIR (BENCH_LIVE names the configurations to run this time; the table uses
# every history there), so that the mini cluster is not held for the whole run.
#
# Rounds (BENCH_ROUNDS): on a shared machine the load drifts over the half hour of a run, and a policy
# run after stock is measured on a busier machine than stock was. With R rounds every configuration runs
# R times, interleaved (round r runs BENCH_LIVE rotated by r-1, so that each configuration takes each
# place in the order), the NAME of round r > 1 being POLICY.rR; each round's stock histories are
# replayed on their own, and the table gives per policy the median over rounds of the live mean job
# time and of the predicted one (and a per-round table).
#
# The short form (BENCH_SHORT=1; scripts/test.sh runs it): stock and late, one round, one straggler job
# of 3 maps of 2 s and a 12 s straggler, no failure job, 4 NodeManagers; it then checks that every
# policy has a live time and a prediction and that the replay of the stock history predicts the stock
# run's live mean within BENCH_CHECK_STOCK_PCT (30) percent (BENCH_CHECK=1 checks any run so).
#
# Usage: scripts/live-bench.sh   (needs what e2e.sh needs, and python3 for the table)
# Environment: SPECBRIDGE_BENCH_DIR (default ${TMPDIR:-/tmp}/specbridge-live-bench), BENCH_POLICIES
#   (default "hadoop late mantri sca srquant farms", and auto when `specbridge speculators` lists it),
#   BENCH_LIVE (default "stock" and every policy; "" replays and tabulates only), BENCH_STRAGGLERS_S
#   ("40 20"), BENCH_MAPS (4), BENCH_MAP_S (5), BENCH_DEADLINE_S (60), BENCH_SLOW_FACTOR (3),
#   BENCH_FAIL_MAP_S (10), BENCH_FAIL_AFTER_S (8), BENCH_FAIL_MAP (0; "" for the busiest NodeManager), BENCH_JOB_CAP_S (240: a job still running this long
#   after its client started is killed and counted at the cap, marked >=), NODEMANAGERS
#   (3 more than BENCH_LIVE's configurations; set it to keep the cluster the same over split runs),
#   BENCH_REPLAY_ARGS (more `specbridge replay` flags; default "--runs 10 --node-slots N", N the
#   NodeManagers' capacity the live run's ResourceManager reported: a copy's work is a draw from
#   the job's recorded attempts, so one seed is one draw; "--no-copy-cost" leaves the copy cost out; add "--nodes 7 --slots 4" for the live
#   cluster's size in place of the recorded NodeManagers' busiest moments),
#   BENCH_ROUNDS (1), BENCH_FAIL (1: the failure job; 0 leaves it out), E2E_KEEP_CLUSTER=1 as for e2e.sh.
set -euo pipefail

if [[ ${BENCH_SHORT:-0} == 1 ]]; then
  # The short form's defaults (each still overridable): about 3-4 minutes with the cluster's start.
  : "${BENCH_POLICIES:=late}" "${BENCH_STRAGGLERS_S:=12}" "${BENCH_MAPS:=3}" "${BENCH_MAP_S:=2}"
  : "${BENCH_FAIL:=0}" "${BENCH_ROUNDS:=1}" "${BENCH_CHECK:=1}" "${NODEMANAGERS:=4}" "${BENCH_JOB_CAP_S:=150}"
  : "${SPECBRIDGE_BENCH_DIR:=${TMPDIR:-/tmp}/specbridge-live-bench-short}"
  export BENCH_POLICIES BENCH_STRAGGLERS_S BENCH_MAPS BENCH_MAP_S BENCH_FAIL BENCH_ROUNDS BENCH_CHECK NODEMANAGERS BENCH_JOB_CAP_S SPECBRIDGE_BENCH_DIR
  if [[ ${BENCH_LIVE-unset} != "" ]]; then
    # A run that goes live starts from no histories: an earlier run's left there would join its table.
    rm -f "$SPECBRIDGE_BENCH_DIR"/*.jhist "$SPECBRIDGE_BENCH_DIR"/*.jobid "$SPECBRIDGE_BENCH_DIR"/*.capped \
      "$SPECBRIDGE_BENCH_DIR"/*_conf.xml "$SPECBRIDGE_BENCH_DIR"/node-slots
  fi
fi

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
rounds=${BENCH_ROUNDS:-1}
with_fail=${BENCH_FAIL:-1}
[[ $rounds =~ ^[1-9][0-9]?$ ]] || { echo "live-bench: BENCH_ROUNDS=$rounds: want 1 to 99" >&2; exit 2; }
[[ $with_fail == [01] ]] || { echo "live-bench: BENCH_FAIL=$with_fail: want 0 or 1" >&2; exit 2; }
ndl=$(wc -w <<< "$stragglers") # jobs 1..ndl have a straggler and a deadline; job ndl+1 is the failure job
njobs=$((ndl + with_fail))
# run_name POLICY ROUND: the configuration's name in round ROUND (its histories NAME-<job>.jhist).
run_name() { if (($2 == 1)); then echo "$1"; else echo "$1.r$2"; fi; }

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
# Each run of the failure job uses up one NodeManager.
nm_min=$((3 + with_fail * rounds * $(wc -w <<< "$live")))
export NODEMANAGERS=${NODEMANAGERS:-$nm_min}
((NODEMANAGERS >= nm_min)) || { echo "live-bench: NODEMANAGERS=$NODEMANAGERS: want $nm_min (3 more than the failure jobs of BENCH_LIVE x BENCH_ROUNDS)" >&2; exit 2; }
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
  ((with_fail)) || return 0
  i=$((i + 1))
  submit "$name-$i" -D e2e.records=$((fail_map_s * 2)) -D e2e.map.ms=$((fail_map_s * 1000)) \
    -D e2e.straggler.ms=$((fail_map_s * 1000)) -D yarn.app.mapreduce.am.resource.mb=4096 "${fail_args[@]}" "${slow_args[@]}" "$@"
  wait_until 240 "$job_id's maps to start" running_maps "$maps"
  sleep "$fail_after_s" # not a condition: the failure is meant to land this far into the maps
  fail_node "${BENCH_FAIL_MAP-0}"
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
  # The NodeManagers' capacity in 1 GB containers (the jobs' default), as the ResourceManager reports
  # it: no history records it, so the replay gets it as --node-slots (in place of the most containers
  # each NodeManager ran at once, which leaves sca no idle slot to clone into).
  curl -fsS "$SPECBRIDGE_RM_WEB/ws/v1/cluster/nodes?states=RUNNING" | python3 -c '
import json, sys
nodes = json.load(sys.stdin)["nodes"]["node"]
print(min((int(n["availMemoryMB"]) + int(n["usedMemoryMB"])) // 1024 for n in nodes))' > "$work/node-slots" ||
    fail "could not read the NodeManagers' capacity from the ResourceManager"
  say "NodeManager capacity: $(cat "$work/node-slots") containers each"
  slow_args=(-D e2e.slow.nodes="$slow_nodes" -D e2e.slow.factor="$slow_factor")
  read -ra order <<< "$live"
  for r in $(seq 1 "$rounds"); do
    for k in $(seq 0 $((${#order[@]} - 1))); do
      # Round r runs the configurations rotated by r-1: each takes each place of the order in turn.
      p=${order[$(((k + r - 1) % ${#order[@]}))]}
      name=$(run_name "$p" "$r")
      if [[ $p == stock ]]; then
        echo "== round $r: stock Hadoop, speculation off ($name)"
        run_workload "$name" -D mapreduce.map.speculative=false -D mapreduce.reduce.speculative=false
        continue
      fi
      echo "== round $r: $p through the shim and the sidecar ($name)"
      start_sidecar "$name"
      # shellcheck disable=SC2046
      run_workload "$name" "${shim_args[@]}" -D specbridge.speculator="$p" -D specbridge.url="ws://$sidecar_addr/v1/am" \
        $(policy_args "$p")
      stop_sidecar
    done
  done
fi

echo "== replay of the stock run's histories"
# A .jhist holds no job configuration; the replay reads the job's conf.xml beside it (as a JobHistory
# done directory keeps them). Beside each job's history the benchmark writes the submitted settings the
# replay reads that the history lacks: the deadline of a deadline job (without it srquant has none in
# replay), and the speculation switches the policies ran live with (e2e-lib.sh's shim_args: maps on,
# reduces off), not the stock run's (both off), so that the replay lets a policy copy what it could copy
# live and nothing more (before, the replay cloned reduces that the AM refused live).
for f in "$work"/*-[0-9]*.jobid; do
  n=$(basename "$f" .jobid)
  conf=$work/$(cat "$f")_conf.xml
  {
    printf '<?xml version="1.0"?>\n<configuration>\n'
    printf '<property><name>%s</name><value>%s</value></property>\n' mapreduce.map.speculative true mapreduce.reduce.speculative false
    if ((${n##*-} <= ndl)); then
      printf '<property><name>specbridge.grass.deadline-ms</name><value>%d</value></property>\n' $((deadline_s * 1000))
    fi
    printf '</configuration>\n'
  } > "$conf"
done
replay_default="--runs 10"
# The capacity the live run's ResourceManager reported (above), when this directory has it.
if [[ $(cat "$work/node-slots" 2> /dev/null) =~ ^[1-9][0-9]*$ ]]; then
  replay_default+=" --node-slots $(cat "$work/node-slots")"
fi
params=()
for p in $policies; do
  for a in $(policy_args "$p"); do
    [[ $a == -D ]] && continue
    params+=(--param "${a#specbridge.param.}")
  done
done
# Rounds present (of this invocation or earlier ones sharing the directory): round r has NAME.rR-* files.
maxr=$rounds
for f in "$work"/*.r[0-9]*-1.jobid; do
  [[ -e $f ]] || continue
  r=${f##*.r}
  r=${r%%-*}
  if [[ $r =~ ^[0-9]+$ ]] && ((r > maxr)); then maxr=$r; fi
done
[[ -s $work/stock-1.jhist ]] || fail "no $work/stock-1.jhist: run the stock configuration live first (BENCH_LIVE)"
# Each round's stock histories are replayed on their own (replay-R.json), so that each round's
# policies are compared with the stock run of their own hour.
# The NodeManagers' speeds, and the copy cost (how much slower a copy starts up than an original:
# docs/live-bench.md), are measured from every history of the stock run's cluster (the same
# ResourceManager: the job ids' cluster timestamp), the other configurations' runs included: three jobs
# of 4 maps give a node one or two attempts, too few to tell a slow node from a straggling task, and
# a stock run has no copies. With several rounds, round r's replay pools only the other rounds'
# histories, so that no prediction uses a live outcome of its own round. BENCH_NODE_SPEEDS=own measures
# them from the stock run alone.
echo "replay flags: ${BENCH_REPLAY_ARGS-$replay_default}"
for r in $(seq 1 "$maxr"); do
  sname=$(run_name stock "$r")
  stock_hists=()
  for i in $(seq 1 "$njobs"); do
    if [[ -s $work/$sname-$i.jhist ]]; then stock_hists+=("$work/$sname-$i.jhist"); fi
  done
  rm -f "$work/replay-$r.json"
  ((${#stock_hists[@]} == njobs)) || { say "round $r: no complete stock run ($sname-*.jhist) to replay"; continue; }
  speed_args=()
  if [[ ${BENCH_NODE_SPEEDS:-cluster} != own ]]; then
    cluster_ts=$(cut -d_ -f2 "$work/$sname-1.jobid")
    rm -rf "$work/speeds-$r" && mkdir -p "$work/speeds-$r"
    for f in "$work"/*.jobid; do
      n=$(basename "$f" .jobid)
      nr=1
      if [[ $n =~ \.r([0-9]+)-[0-9]+$ ]]; then nr=${BASH_REMATCH[1]}; fi
      ((maxr == 1 || nr != r)) || continue
      [[ ${n%-*} == "$sname" || ! -s $work/$n.jhist || $(cut -d_ -f2 "$f") != "$cluster_ts" ]] || ln -s "$work/$n.jhist" "$work/speeds-$r/$n.jhist"
    done
    [[ -z $(ls "$work/speeds-$r") ]] || speed_args=(--node-speeds-from "$work/speeds-$r")
    say "round $r: node speeds from $sname and $(ls "$work/speeds-$r" | wc -l) more histories of its cluster"
  fi
  # shellcheck disable=SC2086 # BENCH_REPLAY_ARGS is a list of flags
  "$work/bin/specbridge" replay --speculators "none,${policies// /,}" "${params[@]}" "${speed_args[@]}" ${BENCH_REPLAY_ARGS-$replay_default} --output json "${stock_hists[@]}" \
    > "$work/replay-$r.json" 2> "$work/replay-$r.err" || fail "replay of $sname failed: $(tail -n 5 "$work/replay-$r.err")"
done
cp "$work/replay-1.json" "$work/replay.json" 2> /dev/null || true

# live.txt: POLICY ROUND JOB SECONDS DEADLINE_S (0: no deadline) CAPPED (1: killed at the cap, at least
# SECONDS) AM_START_S (submit to the first task's start, which no policy changes; - when capped), for
# every job run there.
for p in stock $policies; do
  for r in $(seq 1 "$maxr"); do
    name=$(run_name "$p" "$r")
    for i in $(seq 1 "$njobs"); do
      d=$deadline_s
      ((i <= ndl)) || d=0
      if [[ -s $work/$name-$i.capped ]]; then
        echo "$p $r $i $(cat "$work/$name-$i.capped") $d 1 -"
      elif [[ -s $work/$name-$i.jhist ]]; then
        echo "$p $r $i $("$work/bin/e2echeck" -print duration "$work/$name-$i.jhist") $d 0 $("$work/bin/e2echeck" -print am-start "$work/$name-$i.jhist")"
      fi
    done
  done
done > "$work/live.txt"

python3 - "$work" "$maxr" "stock $policies" "${BENCH_CHECK:-0}" "${BENCH_CHECK_STOCK_PCT:-30}" <<'EOF'
import json, os, statistics, sys
work, maxr, want, check, pct = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4] == "1", float(sys.argv[5])
times, deadline, capped, am = {}, 0.0, set(), {}
for line in open(os.path.join(work, "live.txt")):
    p, r, i, s, d, c, a = line.split()
    r, i = int(r), int(i)
    times.setdefault(p, {}).setdefault(r, []).append((i, float(s), float(d)))
    deadline = max(deadline, float(d))
    if c == "1":
        capped.add((p, r))
    else:
        am[(p, r, i)] = float(a)
pred = {}  # round -> policy -> job index -> predicted s; a report per stock job, in job order
for r in range(1, maxr + 1):
    f = os.path.join(work, "replay-%d.json" % r)
    if not os.path.exists(f):
        continue
    reports = json.load(open(f))
    if isinstance(reports, dict):
        reports = [reports]
    for k, rep in enumerate(reports):
        for res in rep["results"]:
            pred.setdefault(r, {}).setdefault(res["speculator"], {})[k + 1] = res["mean_job_s"]
med = statistics.median
# Each round is compared with its own stock run's replay; a round without one (an earlier split
# invocation) with round 1's.
def replay_round(r):
    return r if r in pred else (1 if 1 in pred else None)
# The AM's start-up (submit to the first task) is no policy's doing, and on a shared machine it drifts
# with the load from one configuration to the next; "after AM start" compares the rest: the live time
# less its own AM start against the prediction less the stock job's of the replayed round (which the
# replay's calibration put in every policy's prediction).
print("| policy | rounds | live mean job s | live PoCD (deadline jobs, %.0f s) | replay mean job s | replay PoCD | error | live after AM start s | replay after AM start s | error after AM start |" % deadline)
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
rows, rows_after, per_round, problems = [], [], {}, []
for p in want:
    if p not in times:
        problems.append("%s: no live run" % p)
        continue
    key = "none" if p == "stock" else p
    lm, pm, la, pa, dl, pdl = [], [], [], [], [], []
    for r, ts in sorted(times[p].items()):
        m = sum(t for _, t, _ in ts) / len(ts)
        dl += [t <= d for _, t, d in ts if d > 0]
        rr = replay_round(r)
        ps = pred.get(rr, {}).get(key, {}) if rr else {}
        if not all(i in ps for i, _, _ in ts):
            per_round.setdefault(p, []).append((r, m, None, (p, r) in capped))
            continue
        lm.append(m)
        pm.append(sum(ps[i] for i, _, _ in ts) / len(ts))
        # The replay's PoCD: its job's mean time over the runs against the deadline.
        pdl += [ps[i] <= d for i, _, d in ts if d > 0]
        per_round.setdefault(p, []).append((r, m, pm[-1], (p, r) in capped))
        if (p, r) not in capped and all((p, r, i) in am and ("stock", rr, i) in am for i, _, _ in ts):
            la.append(sum(t - am[(p, r, i)] for i, t, _ in ts) / len(ts))
            pa.append(sum(ps[i] - am[("stock", rr, i)] for i, _, _ in ts) / len(ts))
    nr = len(times[p])
    pocd = "%.2f" % (sum(dl) / len(dl)) if dl else "-"
    if not lm:
        problems.append("%s: no prediction" % p)
        print("| %s | %d | %.1f | %s | - | - | - | - | - | - |" % (p, nr, med([m for _, m, _, _ in per_round[p]]), pocd))
        continue
    m, q = med(lm), med(pm)
    cap = ">= " if any((p, r) in capped for r in times[p]) else ""
    after = "| - | - | - |"
    if la:
        a, b = med(la), med(pa)
        after = "| %.1f | %.1f | %+.1f%% |" % (a, b, 100 * (b - a) / a)
        rows_after.append((p, a, b))
    rows.append((p, m, q))
    ppocd = "%.2f" % (sum(pdl) / len(pdl)) if pdl else "-"
    print("| %s | %d | %s%.1f | %s | %.1f | %s | %+.1f%% %s" % (p, nr, cap, m, pocd, q, ppocd, 100 * (q - m) / m, after))
    if p == "stock" and abs(q - m) > pct / 100 * m:
        problems.append("stock: the replay of its own history predicts %.1f s, live %.1f s: off by more than %g%%" % (q, m, pct))
if maxr > 1:
    print()
    print("Per round (live / replay of that round's stock run, mean job s):")
    print()
    print("| policy | " + " | ".join("round %d" % r for r in range(1, maxr + 1)) + " |")
    print("| --- |" + " --- |" * maxr)
    for p in want:
        cells = {r: ("%s%.1f / %s" % (">= " if c else "", m, "-" if q is None else "%.1f" % q)) for r, m, q, c in per_round.get(p, [])}
        print("| %s | %s |" % (p, " | ".join(cells.get(r, "-") for r in range(1, maxr + 1))))
def ranking(rs, k):
    return [p for p, _, _ in sorted(rs, key=lambda x: x[k])]
print()
print("live ranking:   " + " < ".join(ranking(rows, 1)))
print("replay ranking: " + " < ".join(ranking(rows, 2)) + ("  (same)" if ranking(rows, 1) == ranking(rows, 2) else "  (differs)"))
# Where the two rankings differ, each pair the replay orders otherwise, with its live gap and the spread
# of the two policies' per-round live means (the smaller of their max - min): a pair closer live than
# that spread is a draw of the rounds (where YARN placed the straggler and the copies), not an order
# the live run shows.
if ranking(rows, 1) != ranking(rows, 2) and maxr > 1:
    spread = {p: max(m for _, m, _, _ in per_round[p]) - min(m for _, m, _, _ in per_round[p]) for p, _, _ in rows}
    swapped, ties = [], True
    for i, (a, la, pa) in enumerate(rows):
        for b, lb, pb in rows[i + 1:]:
            if (la - lb) * (pa - pb) < 0:
                gap, sp = abs(la - lb), min(spread[a], spread[b])
                ties = ties and gap < sp
                swapped.append("%s/%s (live %.1f s apart, rounds spread %.1f s)" % (a, b, gap, sp))
    print("pairs ordered otherwise: " + "; ".join(swapped) + ("  (each closer live than its rounds' spread)" if ties else ""))
    # Does the live run order such a pair at all? Each round runs every configuration once, close in
    # time, so the pair's per-round differences are paired samples: live separates the two when their
    # mean is more than two standard errors from 0, and n = (2 sd / mean)^2 rounds would make it so.
    apart = []
    for i, (a, la, pa) in enumerate(rows):
        for b, lb, pb in rows[i + 1:]:
            if (la - lb) * (pa - pb) >= 0:
                continue
            ma = {r: m for r, m, _, _ in per_round[a]}
            d = [ma[r] - m for r, m, _, _ in per_round[b] if r in ma]
            if len(d) < 2:
                continue
            mean, sd = statistics.mean(d), statistics.stdev(d)
            sep = abs(mean) > 2 * sd / len(d) ** 0.5
            apart.append(sep)
            need = "" if sep or mean == 0 else ", about %d rounds would separate them" % max(len(d) + 1, -(-(2 * sd / mean) ** 2 // 1))
            print("  %s - %s per round: mean %+.1f s, sd %.1f s over %d rounds: %s%s" % (a, b, mean, sd, len(d), "live separates them" if sep else "within live's noise", need))
    print("replay agrees with every pair live separates: " + ("no" if any(apart) else "yes"))
print("after AM start, live:   " + " < ".join(ranking(rows_after, 1)))
print("after AM start, replay: " + " < ".join(ranking(rows_after, 2)) + ("  (same)" if ranking(rows_after, 1) == ranking(rows_after, 2) else "  (differs)"))
if check:
    for m in problems:
        print("live-bench: CHECK FAILED: " + m, file=sys.stderr)
    if problems:
        sys.exit(1)
    print("check: every configuration (%s) has a live time and a prediction; stock's prediction is within %g%%" % (", ".join(want), pct))
EOF
failed=0
