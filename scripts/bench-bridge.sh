#!/usr/bin/env bash
# Load benchmarks of the bridge over a real loopback websocket (issue 3):
#   1. attempt status updates per second sustained with 1,000 concurrent job
#      sessions (and the process CPU time per update, steadier than the rate
#      on a shared machine);
#   2. p50/p99 time from an event to the resulting decision frame, on an idle
#      sidecar and while 1,000 other sessions send 100,000 updates/s;
#   3. sidecar memory per tracked attempt: live heap (100 sessions), and resident memory (RSS from
#      /proc/self/statm) with 1,000 AMs of 200 attempts, with the fault analyzer on and off.
# Each benchmark runs COUNT times (default 3); every run is printed, then the
# median of each number.
# Usage: scripts/bench-bridge.sh            (from anywhere inside the repository)
#        COUNT=5 scripts/bench-bridge.sh
# Targets: >= 100,000 updates/s, p99 <= 5 ms beyond the decide interval,
# <= 1 KiB per attempt.
set -euo pipefail
cd "$(dirname "$0")/.."

count=${COUNT:-3}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go test -c -o "$bin/bridge.test" ./bridge
# The benchmarks start from the package directory, like go test.
cd bridge

run() { # pattern benchtime
  "$bin/bridge.test" -test.run '^$' -test.bench "$1" -test.benchtime "$2" -test.count "$count" | tee -a "$bin/out" | grep '^Benchmark' || {
    cat "$bin/out" >&2
    exit 1
  }
}
echo "== updates/s with 1,000 sessions (2,000,000 updates a run)"
run '^BenchmarkStatusUpdates1000Sessions$' 2000000x
echo "== event to decision, idle sidecar (5,000 probes a run)"
run '^BenchmarkEventToDecision$' 5000x
echo "== event to decision under 100,000 updates/s from 1,000 sessions (3,000 probes a run)"
run '^BenchmarkEventToDecisionUnderLoad$' 3000x
echo "== memory per attempt (100 sessions x 2,000 attempts)"
run '^BenchmarkMemoryPerAttempt$' 2000x
echo "== resident memory per attempt, 1,000 AMs x 200 attempts, fault analyzer on and off"
run '^BenchmarkRSSPerAttempt1000AMs$' 200x

# median BENCH UNIT: the median of UNIT over BENCH's runs.
median() {
  grep "^$1-" "$bin/out" | awk -v unit="$2" '{for (i = 2; i <= NF; i++) if ($i == unit) print $(i-1)}' |
    sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "?"; else if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2] + v[NR/2+1]) / 2}'
}
cat <<EOF

== summary (median of $count runs)
1. updates/s, 1,000 sessions:        $(median BenchmarkStatusUpdates1000Sessions updates/s) updates/s   ($(median BenchmarkStatusUpdates1000Sessions cpu-ns/update) ns CPU per update)
2. event -> decision, idle:          p50 $(median BenchmarkEventToDecision p50-µs) µs   p99 $(median BenchmarkEventToDecision p99-µs) µs
   event -> decision, under load:    p50 $(median BenchmarkEventToDecisionUnderLoad p50-µs) µs   p99 $(median BenchmarkEventToDecisionUnderLoad p99-µs) µs
   (decisions are sent right after the events frame that causes them, not at the next decide tick)
3. memory per tracked attempt:       $(median BenchmarkMemoryPerAttempt B/attempt) B heap   (per open session: $(median BenchmarkMemoryPerAttempt B/session) B)
   RSS per attempt, 1,000 AMs:       analyzer on $(median BenchmarkRSSPerAttempt1000AMs/analyzer B/attempt-rss) B ($(median BenchmarkRSSPerAttempt1000AMs/analyzer B/attempt-rss-with-sessions) B with the sessions' own cost),
                                     analyzer off $(median BenchmarkRSSPerAttempt1000AMs/none B/attempt-rss) B ($(median BenchmarkRSSPerAttempt1000AMs/none B/attempt-rss-with-sessions) B)
EOF
