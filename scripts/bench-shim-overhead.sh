#!/usr/bin/env bash
# Benchmark of what the shim costs the MapReduce AM (docs/shim.md, "What the shim costs the AM"):
# ShimOverheadMRAppTest runs a 20,000-map job in Hadoop's MRApp harness with Hadoop's DefaultSpeculator
# and with the shim talking to the real sidecar, three times each after a warm-up, and asserts that the
# AM's event-handling CPU with the shim's share in place of Hadoop's is within 1.10x (medians, thread CPU
# clocks). Not part of the test command (scripts/test.sh): a speed target is checked by a benchmark.
# Prints the figures and writes them to java-shim/target/shim-overhead.txt. Takes 3-4 minutes on a
# loaded 2-core machine (38 s at load 1).
# Usage: scripts/bench-shim-overhead.sh                (from anywhere inside the repository)
#        TASKS=5000 scripts/bench-shim-overhead.sh     (another job size: -Dspecbridge.overhead.tasks)
#        HADOOP_PROFILE=hadoop-3.4 scripts/bench-shim-overhead.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p java-shim/target
go build -o java-shim/target/specbridge ./cmd/specbridge
args=(-Dspecbridge.binary="$PWD/java-shim/target/specbridge" -Dspecbridge.test.excludedGroups=
  -Dtest=ShimOverheadMRAppTest -Dsurefire.failIfNoSpecifiedTests=false)
[ -n "${HADOOP_PROFILE:-}" ] && args+=(-P "$HADOOP_PROFILE")
[ -n "${TASKS:-}" ] && args+=(-Dspecbridge.overhead.tasks="$TASKS")
rm -f java-shim/target/shim-overhead.txt
status=0
mvn -B -q -f java-shim/pom.xml "${args[@]}" test || status=$?
if [ -s java-shim/target/shim-overhead.txt ]; then
  cat java-shim/target/shim-overhead.txt
else
  echo "no figures written (java-shim/target/shim-overhead.txt); see java-shim/target/surefire-reports" >&2
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
