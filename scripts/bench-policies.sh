#!/usr/bin/env bash
# Policy cost matrix (issue 31): wall time, CPU time (user+system) and peak
# RSS of `specbridge replay` with one policy at a time (one seed, --parallel
# 1, as a user runs one policy), on every bundled scenario and on the SWIM
# FB-2009 day, each also as a ratio to `hadoop` on the same input in the same
# run. Prints a Markdown table (docs/scale.md keeps the latest).
# Usage: scripts/bench-policies.sh
#        POLICIES=hadoop,late,gs,mantri scripts/bench-policies.sh  (default: every registered policy)
#        INPUTS="scenarios/xulau/sca-sda.yaml data/swim/..." scripts/bench-policies.sh
#        MAX_JOBS=1500 scripts/bench-policies.sh  (replay --max-jobs; default: every job)
#        TIMEOUT=600 scripts/bench-policies.sh    (seconds per run; a run cut short shows as >TIMEOUT)
# The machine may be shared: CPU time is the figure to compare, wall time
# follows the load. Runs under nice. Target (issue 31): every policy at most
# 3x hadoop's time, or at most 1 s more where hadoop takes under 0.5 s.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh
bench_build bench-policies
tmp=$bench_dir
if [[ -n "${POLICIES:-}" ]]; then
  IFS=, read -r -a policies <<<"$POLICIES"
else
  mapfile -t policies < <("$tmp/specbridge" speculators | awk '/^[^ ]/ {print $1}')
fi
if [[ ! " ${policies[*]} " =~ " hadoop " ]]; then
  policies=(hadoop "${policies[@]}")
fi
if [[ -n "${INPUTS:-}" ]]; then
  read -r -a inputs <<<"$INPUTS"
else
  inputs=(scenarios/*.yaml scenarios/*/*.yaml data/swim/FB-2009_samples_24_times_1hr_0.tsv)
fi
limit=()
[[ -n "${MAX_JOBS:-}" ]] && limit=(--max-jobs "$MAX_JOBS")
timeout_s=${TIMEOUT:-600}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc), GOMEMLIMIT=${GOMEMLIMIT:-unset}, max jobs: ${MAX_JOBS:-all}"
echo
echo "| input | policy | wall s | CPU s | peak RSS MiB | wall / hadoop | CPU / hadoop | RSS / hadoop | within target |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
fails=0
for input in "${inputs[@]}"; do
  name=$(basename "$input" .tsv)
  [[ $input == scenarios/* ]] && name=${input#scenarios/} && name=${name%.yaml}
  hw="" hc="" hr=""
  for p in "${policies[@]}"; do
    ok=1
    nice /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" timeout "$timeout_s" \
      "$tmp/specbridge" replay -q --parallel 1 --speculators "$p" "${limit[@]}" "$input" >/dev/null 2>"$tmp/err" || ok=0
    read -r wall user sys rss < <(tail -1 "$tmp/time")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u+s}')
    mib=$(awk -v k="$rss" 'BEGIN {printf "%.0f", k/1024}')
    if [[ $ok == 0 ]]; then
      echo "| $name | $p | >$timeout_s or failed: $(head -c 200 "$tmp/err" | tr '\n|' '  ') | | | | | | no |"
      fails=$((fails + 1))
      continue
    fi
    if [[ $p == hadoop ]]; then
      hw=$wall hc=$cpu hr=$mib
    fi
    read -r rw rc rr verdict < <(awk -v w="$wall" -v c="$cpu" -v r="$mib" -v hw="$hw" -v hc="$hc" -v hr="$hr" 'BEGIN {
      ok = (hc < 0.5) ? (c <= hc + 1) : (c <= 3 * hc)
      printf "%.2f %.2f %.2f %s\n", w / (hw > 0 ? hw : 1), c / (hc > 0 ? hc : 1), r / (hr > 0 ? hr : 1), ok ? "yes" : "no"
    }')
    [[ $verdict == no ]] && fails=$((fails + 1))
    echo "| $name | $p | $wall | $cpu | $mib | $rw | $rc | $rr | $verdict |"
  done
done
echo
echo "runs outside the target (CPU time against hadoop's): $fails"
