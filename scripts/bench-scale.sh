#!/usr/bin/env bash
# Scale benchmark of `specbridge replay` (issue 17): wall time and peak RSS
# (GNU /usr/bin/time -v) of replaying
#   1. the bundled SWIM FB-2009 day (data/swim/...) with hadoop,late,none;
#   2. the SWIM FB-2010 day (../shared/scale/FB-2010_samples_24_times_1hr_0.tsv)
#      with hadoop,late,none on --nodes 3000 (skipped, saying so, when
#      ../shared is absent: it is not in the repository).
# It also prints the machine's load average before each run: on a shared
# machine the wall time follows the load; user+system CPU time does not.
# Usage: scripts/bench-scale.sh              (from anywhere in the repository)
#        PARALLEL=1 scripts/bench-scale.sh   (--parallel N; default: cores)
#        ONLY=fb2009 scripts/bench-scale.sh  (fb2009 or fb2010)
#        PROFILE=DIR scripts/bench-scale.sh  (also write cpu/heap pprof files to DIR)
#        GOMEMLIMIT=900MiB scripts/bench-scale.sh (override replay's own soft
#                                             memory limit, --memory-limit auto)
# Targets: FB-2010 under 60 s wall and 1 GiB peak RSS on 2 cores with no
# environment variable (issue 31; 120 s before); FB-2009 under 2 s.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh
bench_build bench-scale
bin=$bench_dir
shared=${SHARED:-$root/../shared}
fb2010=$shared/scale/FB-2010_samples_24_times_1hr_0.tsv
fb2009=$root/data/swim/FB-2009_samples_24_times_1hr_0.tsv
# No GOMEMLIMIT of our own: replay sets its soft memory limit itself
# (--memory-limit, default auto), so these figures are what a user gets.
par=()
[[ -n "${PARALLEL:-}" ]] && par=(--parallel "$PARALLEL")

run() { # name input args...
  local name=$1 input=$2
  shift 2
  local prof=()
  if [[ -n "${PROFILE:-}" ]]; then
    mkdir -p "$PROFILE"
    prof=(--cpuprofile "$PROFILE/$name.cpu" --memprofile "$PROFILE/$name.heap")
  fi
  echo "== $name: replay $* ${par[*]} $(basename "$input")"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc), GOMEMLIMIT=${GOMEMLIMIT:-unset}"
  /usr/bin/time -v -o "$bin/$name.time" "$bin/specbridge" replay -q --speculators hadoop,late,none "${par[@]}" "${prof[@]}" "$@" "$input" >"$bin/$name.out"
  cat "$bin/$name.out" | sed -n '1,6p'
  awk -F': ' '/Elapsed \(wall clock\)/ {print "wall time: " $2}
    /User time/ {u=$2} /System time/ {s=$2}
    /Maximum resident set size/ {printf "peak RSS: %.0f MB\n", $2/1024}
    END {printf "cpu time: %.1f s (user+system)\n", u+s}' "$bin/$name.time"
}

if [[ "${ONLY:-fb2009}" == fb2009 || -z "${ONLY:-}" ]]; then
  run fb2009 "$fb2009"
fi
if [[ "${ONLY:-fb2010}" == fb2010 || -z "${ONLY:-}" ]]; then
  if [[ -f "$fb2010" ]]; then
    run fb2010 "$fb2010" --nodes 3000
  else
    echo "== fb2010: SKIPPED: $fb2010 is absent (it lives in ../shared/scale beside the repository, not in it)"
  fi
fi
