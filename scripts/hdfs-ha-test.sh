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
hdfs_cluster MiniHDFSHA hdfs-ha
export SPECBRIDGE_HA_CONF=$hdfs_state/conf SPECBRIDGE_HA_CONTROL=http://127.0.0.1:$(cat "$hdfs_state/control.port")
# shellcheck disable=SC2086 # HA_PKGS is a list of packages
hdfs_go_test hdfs-ha-test "^TestHA" ${HA_PKGS:-./yarnclient/hdfs/ ./cfa/ ./replay/}
