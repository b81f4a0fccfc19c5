#!/usr/bin/env bash
# hdfs-ha-test.sh — specbridge's HDFS client against a real HA HDFS: Hadoop's MiniDFSCluster with two
# NameNodes of nameservice "mycluster" (scripts/minicluster/src/.../MiniHDFSHA.java; classpath from
# scripts/minicluster/pom-hdfs.xml, see scripts/hdfs-lib.sh), a client configuration (HADOOP_CONF_DIR:
# fs.defaultFS=hdfs://mycluster and the nameservice's two NameNodes), then
#   go test -tags integration -p 1 -run ^TestHA ./yarnclient/hdfs/ ./cfa/ ./replay/
# with SPECBRIDGE_HA_CONF (the conf dir) and SPECBRIDGE_HA_CONTROL (http://127.0.0.1:PORT; POST
# /failover[?down=1] makes the other NameNode active, ?down=1 also shuts the formerly active one down).
# The tests fail over from inside an operation (after N bytes read, before a write completes), so the
# packages run one at a time (-p 1). Stops the cluster at exit. ~1-2 min on 2 cores (cluster start
# ~20 s). Heavy: run under flock /tmp/specbridge-heavy.lock.
set -euo pipefail
# shellcheck source=scripts/hdfs-lib.sh
. "$(dirname "$0")/hdfs-lib.sh"
state=$(mktemp -d "${TMPDIR:-/tmp}/specbridge-hdfs-ha.XXXXXX")
cleanup() { hdfs_stop; [[ -n ${KEEP:-} ]] || rm -rf "$state"; }
trap cleanup EXIT
started=$(date +%s)
hdfs_start MiniHDFSHA "$state"
up=$(date +%s)
export SPECBRIDGE_HA_CONF=$state/conf SPECBRIDGE_HA_CONTROL=http://127.0.0.1:$(cat "$state/control.port")
cd "$hdfs_root"
# shellcheck disable=SC2086 # GO_TEST_FLAGS is a list of flags
go test -tags integration -count=1 -p 1 -run "^TestHA" ${GO_TEST_FLAGS:-} ${HA_PKGS:-./yarnclient/hdfs/ ./cfa/ ./replay/}
echo "hdfs-ha-test: cluster up in $((up - started)) s, tests $(($(date +%s) - up)) s"
