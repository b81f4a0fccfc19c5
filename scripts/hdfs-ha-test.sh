#!/usr/bin/env bash
# hdfs-ha-test.sh — specbridge's HDFS client against a real HA HDFS: Hadoop's MiniDFSCluster with two
# NameNodes (scripts/minicluster/src/.../MiniHDFSHA.java; the classpath from scripts/minicluster/pom.xml),
# a client configuration (HADOOP_CONF_DIR: fs.defaultFS=hdfs://mycluster and the nameservice), then
#   go test -tags integration -run ^TestIntegrationHA ./yarnclient/hdfs/ ./cfa/ ./replay/
# with SPECBRIDGE_HA_CONF (the conf dir) and SPECBRIDGE_HA_CONTROL (http://127.0.0.1:PORT; POST
# /failover swaps the NameNodes). Stops the cluster at exit. Heavy: run under
# flock /tmp/specbridge-heavy.lock.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
state=$(mktemp -d "${TMPDIR:-/tmp}/specbridge-hdfs-ha.XXXXXX")
hadoop_version=${HADOOP_VERSION:-3.5.0}
pid=""
cleanup() { [[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$state"; }
trap cleanup EXIT
cp_file=${TMPDIR:-/tmp}/specbridge-minicluster/classpath
if [[ ! -s $cp_file || "$(cat "$cp_file.version" 2>/dev/null)" != "$hadoop_version" ]]; then
  cp_file=$state/classpath
  mvn -q -B -f "$root/scripts/minicluster/pom.xml" -Dhadoop.version="$hadoop_version" \
    dependency:build-classpath -Dmdep.outputFile="$cp_file" >&2
fi
cp=$(cat "$cp_file")
mkdir -p "$state/classes"
javac -nowarn -cp "$cp" -d "$state/classes" "$root/scripts/minicluster/src/org/specbridge/minicluster/MiniHDFSHA.java"
opens=(--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED)
java "${opens[@]}" -Xmx1g -Dhadoop.tmp.dir="$state/tmp" -Dtest.build.data="$state/data" -Djava.io.tmpdir="$state" \
  -cp "$state/classes:$cp" org.specbridge.minicluster.MiniHDFSHA "$state" > "$state/cluster.log" 2>&1 &
pid=$!
for _ in $(seq 1 240); do
  [[ -s $state/control.port ]] && break
  kill -0 "$pid" 2>/dev/null || { tail -50 "$state/cluster.log" >&2; exit 1; }
  sleep 0.5
done
[[ -s $state/control.port ]] || { echo "hdfs-ha-test: cluster not up in 120 s" >&2; tail -50 "$state/cluster.log" >&2; exit 1; }
grep "mini HDFS HA up" "$state/cluster.log" || true
export SPECBRIDGE_HA_CONF=$state/conf SPECBRIDGE_HA_CONTROL=http://127.0.0.1:$(cat "$state/control.port")
cd "$root"
# shellcheck disable=SC2086
go test -tags integration -count=1 -run "^TestIntegrationHA" ${GO_TEST_FLAGS:-} ./yarnclient/hdfs/ ./cfa/
