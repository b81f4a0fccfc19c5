#!/usr/bin/env bash
# minicluster.sh start [-D key=value]... | stop | status | stop-nm I — a real single-process Hadoop
# cluster (HDFS NameNode + DataNode, YARN ResourceManager + NodeManagers, JobHistory server): Hadoop's
# own MiniDFSCluster and MiniMRYarnCluster, Hadoop taken from Maven Central, started by our launcher
# (minicluster/src/org/specbridge/minicluster/MiniCluster.java, compiled here on first use), which
# can stop one NodeManager as a crash does (no unregistration; the RM marks it LOST after
# yarn.nm.liveness-monitor.expiry-interval-ms).
#
# start -D key=value sets a cluster configuration key (e.g. the NM liveness expiry); stop-nm I stops
# NodeManager I (0-based; the index in its local directories' names, …-localDir-nm-I_J) and prints
# it as JSON; `curl $SPECBRIDGE_CONTROL/nodemanagers` lists them (index, id host:port, http, state).
#
# State goes to $SPECBRIDGE_MINICLUSTER_DIR (default ${TMPDIR:-/tmp}/specbridge-minicluster):
#   pid            the cluster's JVM
#   details.json   ports, the control port and the NodeManagers
#   conf/*.xml     the client configuration: each *-site.xml holds every key the running cluster uses
#                  (file system, RM, JobHistory and staging addresses, framework yarn); point
#                  HADOOP_CONF_DIR here and submit as-is (the client's classpath needs Hadoop's jars,
#                  e.g. `classpath` below, since yarn.is.minicluster gives the AM and tasks the client's)
#   cluster.log    the cluster's output
#   classpath      the resolved Maven classpath (cached); launcher/ the compiled launcher
#   env            shell assignments for other scripts (source it): SPECBRIDGE_FS, SPECBRIDGE_RM,
#                  SPECBRIDGE_RM_WEB, SPECBRIDGE_JHS, SPECBRIDGE_JHS_WEB, SPECBRIDGE_STAGING,
#                  SPECBRIDGE_CONTROL, HADOOP_CONF_DIR
#
# Ports are fixed so that the written configuration is the one the cluster uses:
#   NN_PORT (19820), NN_HTTP_PORT (19870), RM_PORT (19032), RM_SCHEDULER_PORT (RM_PORT-2),
#   RM_TRACKER_PORT (RM_PORT-1), RM_ADMIN_PORT (RM_PORT+1), RM_WEB_PORT (19088), JHS_PORT (19020),
#   JHS_ADMIN_PORT (JHS_PORT+1), JHS_WEB_PORT (19888); the control server picks a free port on
#   127.0.0.1 (CONTROL_PORT to fix it). NodeManagers take free ports.
# `stop` also ends the cluster's containers (AMs, tasks), which outlive its JVM otherwise.
# Environment: HADOOP_VERSION (default 3.5.0), NODEMANAGERS (default 3), START_TIMEOUT (s, default 300).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/proc-lib.sh
source "$here/proc-lib.sh"
state=${SPECBRIDGE_MINICLUSTER_DIR:-${TMPDIR:-/tmp}/specbridge-minicluster}
hadoop_version=${HADOOP_VERSION:-3.5.0}
nodemanagers=${NODEMANAGERS:-3}
start_timeout=${START_TIMEOUT:-300}
nn_port=${NN_PORT:-19820}
nn_http_port=${NN_HTTP_PORT:-19870}
rm_port=${RM_PORT:-19032}
rm_web_port=${RM_WEB_PORT:-19088}
rm_scheduler_port=${RM_SCHEDULER_PORT:-$((rm_port - 2))}
rm_tracker_port=${RM_TRACKER_PORT:-$((rm_port - 1))}
rm_admin_port=${RM_ADMIN_PORT:-$((rm_port + 1))}
jhs_port=${JHS_PORT:-19020}
jhs_admin_port=${JHS_ADMIN_PORT:-$((jhs_port + 1))}
jhs_web_port=${JHS_WEB_PORT:-19888}
control_port=${CONTROL_PORT:-0}

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

# launcher CLASSPATH: compiles the launcher into $state/launcher when its source is newer.
launcher() {
  local src=$here/minicluster/src/org/specbridge/minicluster/MiniCluster.java out=$state/launcher
  if [[ ! -s $out/org/specbridge/minicluster/MiniCluster.class || $src -nt $out/org/specbridge/minicluster/MiniCluster.class ]]; then
    rm -rf "$out"
    mkdir -p "$out"
    javac -nowarn -cp "$1" -d "$out" "$src" >&2 || die "could not compile $src"
  fi
  echo "$out"
}

start() {
  mkdir -p "$state/conf"
  if running; then
    echo "minicluster: already running (pid $(cat "$state/pid")), state in $state"
    return 0
  fi
  local defs=()
  while (($#)); do
    [[ $1 == -D && $# -ge 2 && $2 == *=* ]] || die "start: want -D key=value, not '$*'"
    defs+=(-D "$2")
    shift 2
  done
  rm -f "$state/details.json" "$state/conf/"*-site.xml "$state/env" "$state/control.port"
  local cp classes
  cp=$(classpath)
  classes=$(launcher "$cp")
  (
    cd "$state"
    nohup java "${hadoop_opens[@]}" -Xmx2g -Dhadoop.tmp.dir="$state/tmp" -Dtest.build.data="$state/data" \
      -Djava.io.tmpdir="$state/tmp" -cp "$classes:$cp" org.specbridge.minicluster.MiniCluster \
      -state "$state" -nodemanagers "$nodemanagers" -nnport "$nn_port" -nnhttpport "$nn_http_port" \
      -rmport "$rm_port" -rmschedulerport "$rm_scheduler_port" -rmtrackerport "$rm_tracker_port" \
      -rmadminport "$rm_admin_port" -rmwebport "$rm_web_port" -jhsport "$jhs_port" \
      -jhsadminport "$jhs_admin_port" -jhswebport "$jhs_web_port" -controlport "$control_port" \
      "${defs[@]}" > "$state/cluster.log" 2>&1 < /dev/null &
    echo $! > "$state/pid"
  )
  mkdir -p "$state/tmp"
  local deadline=$((SECONDS + start_timeout))
  until [[ -s $state/details.json && -s $state/conf/core-site.xml && -s $state/control.port ]]; do
    running || { tail -n 40 "$state/cluster.log" >&2; die "the cluster exited during start-up (log: $state/cluster.log)"; }
    (( SECONDS < deadline )) || { stop; die "not up within ${start_timeout}s (log: $state/cluster.log)"; }
    sleep 1 # waiting for the files the cluster writes once it is up
  done
  cat > "$state/env" <<ENV
SPECBRIDGE_FS=hdfs://localhost:$nn_port
SPECBRIDGE_RM=localhost:$rm_port
SPECBRIDGE_RM_WEB=http://localhost:$rm_web_port
SPECBRIDGE_JHS=localhost:$jhs_port
SPECBRIDGE_JHS_WEB=http://localhost:$jhs_web_port
SPECBRIDGE_STAGING=/specbridge/staging
SPECBRIDGE_CONTROL=http://127.0.0.1:$(cat "$state/control.port")
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
  local pid containers
  pid=$(cat "$state/pid")
  # Containers outlive the JVM (a stopped NodeManager's too); they are ended once it is gone.
  containers=$(descendants "$pid" | tr '\n' ' ')
  stop_pid "$pid" 60 || echo "minicluster: pid $pid ignored SIGTERM for 60 s; killed it" >&2
  # shellcheck disable=SC2086 # a list of process ids
  [[ -z ${containers// /} ]] || kill -KILL $containers 2>/dev/null || true
  rm -f "$state/pid"
  echo "minicluster: stopped"
}

# stop_nm I: stops NodeManager I as a crash does (see the top of this file).
stop_nm() {
  [[ ${1:-} =~ ^[0-9]+$ ]] || die "stop-nm: want a NodeManager index, not '${1:-}'"
  running || die "stop-nm: the cluster is not running"
  local out code
  out=$(curl -sS -X POST -w '\n%{http_code}' "http://127.0.0.1:$(cat "$state/control.port")/nodemanagers/$1/stop") ||
    die "stop-nm $1: the control server did not answer (log: $state/cluster.log)"
  code=${out##*$'\n'}
  out=${out%$'\n'*}
  [[ $code == 200 ]] || die "stop-nm $1: HTTP $code: $out"
  echo "$out"
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
  start) shift; start "$@" ;;
  stop) stop ;;
  status) status ;;
  stop-nm) stop_nm "${2:-}" ;;
  *) echo "usage: $0 start [-D key=value]... | stop | status | stop-nm I" >&2; exit 2 ;;
esac
