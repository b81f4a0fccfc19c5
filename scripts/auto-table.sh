#!/usr/bin/env bash
# auto-table.sh: the evidence tables of docs/auto-history.md. Every shipped
# policy on every bundled scenario (and, apart, the tuning set of
# scenarios/tuning and the held-out sets, every scenarios/heldout*
# folder), SEEDS seeds each; for each scenario the headline
# measure (time to bound for error-bound jobs, accuracy for deadline jobs,
# PoCD where jobs have deadlines to meet, else mean job time), the best
# single policy, auto, hadoop, and how far auto is from the best.
#
#   scripts/auto-table.sh [OUTDIR]     (SEEDS=5, XULAU_JOBS=300, PARALLEL=2, POLICIES=all)
#
# POLICIES (comma-separated) narrows the policies replayed, auto always
# among them; the best single policy is then the best of those. EXTRA adds
# replay flags to every run (e.g. EXTRA="--job-order yarn": the job order as
# serve --rm-job-order gives it live).
#
# The Xu and Lau scenarios (22,000 to 458,000 tasks) are cut to their first
# XULAU_JOBS jobs (--max-jobs), as the scenario test cuts them further.
#
# Every scenario is replayed afresh on every call: a JSON already in OUTDIR
# is never reused silently. OUTDIR/BUILD records the build that wrote it
# (commit, plus a hash of uncommitted changes, seeds, jobs, policies). With
# RESUME=1 the scenarios whose JSON exists are skipped (to finish an
# interrupted run), and only if OUTDIR/BUILD names this same build; a
# different build stops the script; without RESUME, another build's JSONs
# are deleted first, so that none is printed beside this build's rows. (A
# table made before this rule reused an old run's xulau JSON across rule
# versions.)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-$(mktemp -d)}
seeds=${SEEDS:-5}
xjobs=${XULAU_JOBS:-300}
par=${PARALLEL:-2}
mkdir -p "$out"
build="$(git rev-parse --short HEAD)"
git diff --quiet HEAD -- . || build="$build+$(git diff HEAD -- . | sha1sum | cut -c1-8)"
build="$build seeds=$seeds xulau_jobs=$xjobs policies=${POLICIES:-all} extra=${EXTRA:-}"
prev=$(cat "$out/BUILD" 2>/dev/null || echo "an unrecorded build")
if [ "$prev" != "$build" ] && compgen -G "$out/*.json" >/dev/null; then
	if [ "${RESUME:-0}" = 1 ]; then
		echo "auto-table.sh: $out holds a run of another build ($prev), not $build" >&2
		exit 1
	fi
	rm -f "$out"/*.json # another build's rows never join this table
fi
echo "$build" >"$out/BUILD"
go build -o "$out/specbridge" ./cmd/specbridge
pols=${POLICIES:-$("$out/specbridge" speculators | awk '/^[a-z]/ {print $1}' | paste -sd, -)}
case ",$pols," in *,auto,*) ;; *) pols="$pols,auto" ;; esac
run() { # file extra-args...
	local f=$1; shift
	local name=${f#scenarios/}; name=${name%.yaml}; name=${name//\//_}
	case $f in scenarios/xulau/*) set -- --max-jobs "$xjobs" "$@" ;; esac
	[ "${RESUME:-0}" = 1 ] && [ -s "$out/$name.json" ] && return
	nice "$out/specbridge" replay --speculators "$pols" --runs "$seeds" --seed 1 \
		--parallel "$par" --output json ${EXTRA:-} "$@" "$f" >"$out/$name.json" 2>/dev/null
}
if [ -n "${ONLY:-}" ]; then # ONLY=scenarios/heldout4 replays that folder alone (ONLY=scenarios/xulau too)
	for f in "$ONLY"/*.yaml; do run "$f"; done
else
	for f in scenarios/*.yaml; do run "$f"; done
	for f in scenarios/xulau/*.yaml; do run "$f"; done
	for f in scenarios/tuning/*.yaml scenarios/heldout*/*.yaml; do run "$f"; done
fi
python3 - "$out" "$seeds" <<'PY'
import json, os, sys, glob
out, seeds = sys.argv[1], sys.argv[2]
def headline(r):
    if r.get("error_bound_jobs") and r.get("mean_time_to_bound_s") is not None:
        return "time to bound s", r["mean_time_to_bound_s"], False
    if r.get("deadline_jobs") and r.get("accuracy") is not None:
        return "accuracy", r["accuracy"], True
    if r.get("pocd") is not None:
        return "PoCD", r["pocd"], True
    return "mean job s", r["mean_job_s"], False
def table(files, title):
    print(f"\n### {title} ({seeds} seeds)\n")
    print("| scenario | measure | best single | auto | hadoop | auto vs best |")
    print("|---|---|---|---|---|---|")
    for fn in files:
        try:
            d = json.load(open(fn))
        except ValueError:
            continue  # still being written (a partial table)
        rs = d["results"]
        singles = [r for r in rs if r["speculator"] != "auto" and r.get("jobs")]
        auto = next(r for r in rs if r["speculator"] == "auto")
        m, av, hi = headline(auto)
        vals = [(headline(r)[1], r["speculator"]) for r in singles]
        bv, bn = (max if hi else min)(vals)
        hv = next(v for v, n in vals if n == "hadoop")
        gap = ((bv - av) / bv if hi else (av - bv) / bv) * 100 if bv else 0
        name = os.path.basename(fn)[:-5]
        fmt = (lambda x: f"{x:.4f}") if hi else (lambda x: f"{x:.1f}")
        print(f"| {name} | {m} | {bn} {fmt(bv)} | {fmt(av)} | {fmt(hv)} | {gap:+.1f}% |")
allf = sorted(glob.glob(os.path.join(out, "*.json")))
def folder(f):  # "heldout3" for heldout3_x.json, "" for a bundled scenario
    b = os.path.basename(f)
    return b.split("_", 1)[0] if "_" in b and b.startswith(("tuning_", "heldout")) else ""
table([f for f in allf if folder(f) == ""], "Bundled scenarios")
table([f for f in allf if folder(f) == "tuning"], "Tuning scenarios (the rule chosen on them)")
held = sorted({folder(f) for f in allf if folder(f).startswith("heldout")}, key=lambda h: int(h[7:] or 1))
for h in held:  # every scenarios/heldout* folder replayed, in set order
    print_set = "first" if h == "heldout" else "set " + h[7:]
    table([f for f in allf if folder(f) == h], f"Held-out scenarios, {print_set} (never tuned on)")
PY
