#!/usr/bin/env bash
# Profile-guided optimisation profile (issue 31): writes cmd/specbridge/default.pgo, which `go build`
# (and `go install`, `go test` of that package, the Dockerfile) applies to specbridge by itself (-pgo=auto).
# Builds specbridge without a profile, replays every registered policy alone (one seed, --parallel 1, as
# scripts/bench-policies.sh runs it) on each input with --cpuprofile, and merges the CPU profiles. Each
# replay weighs about the same in the merge: a profile with fewer samples than the largest is repeated
# (round(largest / its own), at most 25 times), so that hadoop's or none's path counts as much as gs's.
# docs/scale.md ("Profile-guided optimisation") says how much it gives and when to refresh it.
# Usage: scripts/pgo-profile.sh
#        POLICIES=hadoop,gs scripts/pgo-profile.sh   (default: every registered policy)
#        INPUTS="scenarios/xulau/ese.yaml" scripts/pgo-profile.sh
#        OUT=/tmp/x.pgo scripts/pgo-profile.sh       (default: cmd/specbridge/default.pgo)
# Runs under nice; takes about 15 minutes on a shared 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-cmd/specbridge/default.pgo}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -pgo=off -o "$tmp/specbridge" ./cmd/specbridge
if [[ -n "${POLICIES:-}" ]]; then
  IFS=, read -r -a policies <<<"$POLICIES"
else
  mapfile -t policies < <("$tmp/specbridge" speculators | awk '/^[^ ]/ {print $1}')
fi
if [[ -n "${INPUTS:-}" ]]; then
  read -r -a inputs <<<"$INPUTS"
else
  # The four Xu and Lau files of issue 31's matrix, whole, and two bundled scenarios with deadlines,
  # error bounds and failures (paths the Xu and Lau files do not take).
  inputs=(scenarios/xulau/ese.yaml scenarios/xulau/sca-sda.yaml scenarios/xulau/load-0.75.yaml
    scenarios/xulau/ese-overload.yaml scenarios/grass-deadline.yaml scenarios/farms-overall.yaml)
fi
profiles=()
n=0
for input in "${inputs[@]}"; do
  for p in "${policies[@]}"; do
    n=$((n + 1))
    f="$tmp/$n.pprof"
    nice -n 10 "$tmp/specbridge" replay -q --parallel 1 --speculators "$p" --cpuprofile "$f" "$input" >/dev/null
    profiles+=("$f")
  done
done
# samples N: the number of CPU samples in a profile.
samples() {
  go tool pprof -raw "$1" 2>/dev/null | awk '/^Samples:/ {on = 1; next} /^Locations/ {on = 0} on && $1 ~ /^[0-9]+$/ {s += $1} END {print s + 0}'
}
declare -A count
most=0
for f in "${profiles[@]}"; do
  count[$f]=$(samples "$f")
  ((count[$f] > most)) && most=${count[$f]}
done
merge=()
for f in "${profiles[@]}"; do
  ((count[$f] == 0)) && continue
  k=$(awk -v m="$most" -v c="${count[$f]}" 'BEGIN {k = int(m / c + 0.5); print (k > 25) ? 25 : (k < 1 ? 1 : k)}')
  for ((i = 0; i < k; i++)); do merge+=("$f"); done
done
go tool pprof -proto "${merge[@]}" >"$out" 2>/dev/null
echo "$out: ${#profiles[@]} replays (${#policies[@]} policies x ${#inputs[@]} inputs), $(wc -c <"$out") bytes"
