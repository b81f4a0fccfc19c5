#!/usr/bin/env bash
# test-integration.sh — the Go integration tests against a real Hadoop mini cluster (HDFS, YARN RM and
# NodeManagers, JobHistory server): yarnclient's REST and HDFS clients, the ResourceManager capacity
# watcher (rmcapacity: a real RM's capacity changed and sca's and dolly's clone counts following), the fault analyzer's store on HDFS
# (restart in the middle of a run, every record checked; torn tail), its REST prober,
# `replay hdfs://...`, and `sweep --on-yarn` (a MapReduce job of the sweep job jar, java-sweep/, built here
# with Maven: its merged rows must equal the local sweep's byte for byte; ~35 s of the run, 2 cores).
#
# Starts a cluster with scripts/minicluster.sh in its own state directory and on its own ports (so it can
# run beside a developer's default cluster), exports SPECBRIDGE_FS, SPECBRIDGE_RM_WEB and
# SPECBRIDGE_JHS_WEB from the env file it writes, runs
#   go test -tags integration -run ^TestIntegration ./cfa/... ./yarnclient/... ./replay/... ./sweep/...
# (the packages' other tests already ran in scripts/test.sh; GO_TEST_RUN overrides the pattern)
# and stops the cluster (unless it was already running in that directory before: then it is left up).
#
# Environment: SPECBRIDGE_IT_DIR (state directory, default ${TMPDIR:-/tmp}/specbridge-it-minicluster),
# SPECBRIDGE_IT_PORT_BASE (default 29000: NameNode 29820, its HTTP 29870, RM 29032, RM web 29088,
# JHS 29020, JHS web 29888), GO_TEST_FLAGS (extra flags for go test, e.g. "-run Store -v").
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
export SPECBRIDGE_MINICLUSTER_DIR=${SPECBRIDGE_IT_DIR:-${TMPDIR:-/tmp}/specbridge-it-minicluster}
base=${SPECBRIDGE_IT_PORT_BASE:-29000}
export NN_PORT=$((base + 820)) NN_HTTP_PORT=$((base + 870)) RM_PORT=$((base + 32)) RM_WEB_PORT=$((base + 88))
export JHS_PORT=$((base + 20)) JHS_WEB_PORT=$((base + 888))

started=$(date +%s)
mkdir -p "$SPECBRIDGE_MINICLUSTER_DIR"
# The sweep job jar for `sweep --on-yarn` (sweep/yarn_integration_test.go); SPECBRIDGE_SWEEP_JAR overrides.
if [[ -z ${SPECBRIDGE_SWEEP_JAR:-} ]]; then
  mvn -q -B -f "$root/java-sweep/pom.xml" package
  export SPECBRIDGE_SWEEP_JAR=$root/java-sweep/target/specbridge-sweep.jar
fi
[[ -s $SPECBRIDGE_SWEEP_JAR ]] || { echo "test-integration: no sweep job jar at $SPECBRIDGE_SWEEP_JAR" >&2; exit 1; }
# Reuse the Maven classpath another mini cluster on this machine already resolved.
default_dir=${TMPDIR:-/tmp}/specbridge-minicluster
if [[ ! -s $SPECBRIDGE_MINICLUSTER_DIR/classpath && -s $default_dir/classpath ]]; then
  cp "$default_dir/classpath" "$default_dir/classpath.version" "$SPECBRIDGE_MINICLUSTER_DIR/" 2>/dev/null || true
fi

already=0
"$root/scripts/minicluster.sh" status > /dev/null 2>&1 && already=1
stop_cluster() {
  if (( already == 0 )); then
    "$root/scripts/minicluster.sh" stop || true
  else
    echo "test-integration: leaving the cluster that was already running in $SPECBRIDGE_MINICLUSTER_DIR"
  fi
}
trap stop_cluster EXIT
"$root/scripts/minicluster.sh" start
up=$(date +%s)

set -a
# shellcheck disable=SC1091 # written by minicluster.sh start
. "$SPECBRIDGE_MINICLUSTER_DIR/env"
set +a
for v in SPECBRIDGE_FS SPECBRIDGE_RM_WEB SPECBRIDGE_JHS_WEB; do
  [[ -n ${!v:-} ]] || { echo "test-integration: $v missing from $SPECBRIDGE_MINICLUSTER_DIR/env" >&2; exit 1; }
done
echo "test-integration: cluster up in $((up - started)) s: $SPECBRIDGE_FS, RM $SPECBRIDGE_RM_WEB, JHS $SPECBRIDGE_JHS_WEB"

cd "$root"
# shellcheck disable=SC2086 # GO_TEST_FLAGS is a list of flags
go test -tags integration -count=1 -run "${GO_TEST_RUN:-^TestIntegration}" ${GO_TEST_FLAGS:-} ./cfa/... ./yarnclient/... ./replay/... ./sweep/...
done_at=$(date +%s)
echo "test-integration: tests took $((done_at - up)) s; $((done_at - started)) s with cluster start-up"
