#!/usr/bin/env bash
# Runs every test specbridge has: Go vet and tests (including the LATE
# scenario outcomes and the determinism check), brief fuzzing of every parser,
# and the Java shim's tests on Hadoop when Maven is available.
# Usage: scripts/test.sh            (from anywhere inside the repository)
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== go vet"
go vet ./...

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi

echo "== go test"
go test -count=1 ./...

echo "== fuzz (brief)"
fuzz() { # package target seconds
  # Minimising new inputs can eat a whole brief run; a failure is still reported unminimised.
  go test -run='^$' -fuzz="^$2\$" -fuzztime="$3" -fuzzminimizetime=0 "$1"
}
fuzz ./yarnclient/scenario FuzzScenario 10s
fuzz ./yarnclient/history FuzzJhist 10s
fuzz ./yarnclient/history FuzzRumen 10s
fuzz ./yarnclient/history FuzzSWIM 5s

if [ -f java-shim/pom.xml ] && [ -x scripts/test-java.sh ]; then
  echo "== java shim"
  scripts/test-java.sh
fi
echo "== all tests passed"
