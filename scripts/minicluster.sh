#!/usr/bin/env bash
# minicluster.sh start|stop|status — a real single-process Hadoop cluster (HDFS NameNode + DataNode,
# YARN ResourceManager + NodeManagers, JobHistory server) from Hadoop's MiniHadoopClusterManager,
# with Hadoop taken from Maven Central.
#
# State goes to $SPECBRIDGE_MINICLUSTER_DIR (default ${TMPDIR:-/tmp}/specbridge-minicluster):
#   pid            the cluster's JVM
#   details.json   ports as MiniHadoopClusterManager writes them (-writeDetails)
#   conf/*.xml     a client configuration (core-site.xml holds every key, -writeConfig); point
#                  HADOOP_CONF_DIR here to submit jobs to the cluster
#   cluster.log    the cluster's output
#   classpath      the resolved Maven classpath (cached)
#   env            shell assignments for other scripts (source it): SPECBRIDGE_FS, SPECBRIDGE_RM,
#                  SPECBRIDGE_RM_WEB, SPECBRIDGE_JHS, SPECBRIDGE_JHS_WEB, HADOOP_CONF_DIR
#
# Ports are fixed so that the written configuration is the one the cluster uses:
#   NN_PORT (19820), NN_HTTP_PORT (19870), RM_PORT (19032), RM_WEB_PORT (19088), JHS_PORT (19020),
#   JHS_WEB_PORT (19888).
# Environment: HADOOP_VERSION (default 3.5.0), NODEMANAGERS (default 3), START_TIMEOUT (s, default 300).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
state=${SPECBRIDGE_MINICLUSTER_DIR:-${TMPDIR:-/tmp}/specbridge-minicluster}
hadoop_version=${HADOOP_VERSION:-3.5.0}
nodemanagers=${NODEMANAGERS:-3}
start_timeout=${START_TIMEOUT:-300}
nn_port=${NN_PORT:-19820}
nn_http_port=${NN_HTTP_PORT:-19870}
rm_port=${RM_PORT:-19032}
rm_web_port=${RM_WEB_PORT:-19088}
jhs_port=${JHS_PORT:-19020}
jhs_web_port=${JHS_WEB_PORT:-19888}

die() { echo "minicluster: $*" >&2; exit 1; }

running() {
  [[ -f $state/pid ]] && kill -0 "$(cat "$state/pid")" 2>/dev/null
}

classpath() {
  local cp=$state/classpath
  if [[ ! -s $cp || $here/minicluster/pom.xml -nt $cp || "$(cat "$state/classpath.version" 2>/dev/null)" != "$hadoop_version" ]]; then
    echo "minicluster: resolving Hadoop $hadoop_version from Maven Central (first run downloads ~300 MB)" >&2
    mvn -q -B -f "$here/minicluster/pom.xml" -Dhadoop.version="$hadoop_version" \
      dependency:build-classpath -Dmdep.outputFile="$cp.tmp" >&2 || die "maven could not resolve the classpath"
    mv "$cp.tmp" "$cp"
    echo "$hadoop_version" > "$state/classpath.version"
  fi
  cat "$cp"
}

start() {
  mkdir -p "$state/conf"
  if running; then
    echo "minicluster: already running (pid $(cat "$state/pid")), state in $state"
    return 0
  fi
  rm -f "$state/details.json" "$state/conf/core-site.xml" "$state/env"
  local cp
  cp=$(classpath)
  # JDK 17 needs these opens for Hadoop's reflection.
  local opens=(--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
    --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
    --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED)
  (
    cd "$state"
    nohup java "${opens[@]}" -Xmx2g -Dhadoop.tmp.dir="$state/tmp" -Dtest.build.data="$state/data" \
      -Djava.io.tmpdir="$state/tmp" -cp "$cp" org.apache.hadoop.mapreduce.MiniHadoopClusterManager \
      -format -nodemanagers "$nodemanagers" \
      -nnport "$nn_port" -nnhttpport "$nn_http_port" -rmport "$rm_port" -jhsport "$jhs_port" \
      -D "yarn.resourcemanager.webapp.address=localhost:$rm_web_port" \
      -D "mapreduce.jobhistory.webapp.address=localhost:$jhs_web_port" \
      -writeDetails "$state/details.json" -writeConfig "$state/conf/core-site.xml" \
      > "$state/cluster.log" 2>&1 < /dev/null &
    echo $! > "$state/pid"
  )
  mkdir -p "$state/tmp"
  local deadline=$((SECONDS + start_timeout))
  until [[ -s $state/details.json && -s $state/conf/core-site.xml ]]; do
    running || { tail -n 40 "$state/cluster.log" >&2; die "the cluster exited during start-up (log: $state/cluster.log)"; }
    (( SECONDS < deadline )) || { stop; die "not up within ${start_timeout}s (log: $state/cluster.log)"; }
    sleep 1 # waiting for the files the cluster writes once it is up
  done
  # Hadoop reads yarn-site.xml and mapred-site.xml too; every key is in core-site.xml already.
  for f in hdfs-site.xml yarn-site.xml mapred-site.xml; do
    printf '<?xml version="1.0"?>\n<configuration/>\n' > "$state/conf/$f"
  done
  cat > "$state/env" <<ENV
SPECBRIDGE_FS=hdfs://localhost:$nn_port
SPECBRIDGE_RM=localhost:$rm_port
SPECBRIDGE_RM_WEB=http://localhost:$rm_web_port
SPECBRIDGE_JHS=localhost:$jhs_port
SPECBRIDGE_JHS_WEB=http://localhost:$jhs_web_port
HADOOP_CONF_DIR=$state/conf
ENV
  echo "minicluster: up (pid $(cat "$state/pid")); details in $state/details.json, HADOOP_CONF_DIR=$state/conf"
}

stop() {
  if ! running; then
    echo "minicluster: not running"
    rm -f "$state/pid"
    return 0
  fi
  local pid
  pid=$(cat "$state/pid")
  kill -TERM "$pid"
  for _ in $(seq 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 1 # waiting for the JVM to exit
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "minicluster: pid $pid ignored SIGTERM for 60 s; killing it" >&2
    kill -KILL "$pid"
  fi
  rm -f "$state/pid"
  echo "minicluster: stopped"
}

status() {
  if running; then
    echo "minicluster: running (pid $(cat "$state/pid")), state in $state"
    [[ -s $state/details.json ]] && cat "$state/details.json" && echo
    return 0
  fi
  echo "minicluster: not running"
  return 3
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
