# proc-lib.sh — process helpers that scripts/minicluster.sh, scripts/e2e-lib.sh, scripts/hdfs-lib.sh and
# scripts/bench-vs-sls.sh share. Sourced, not run; defines functions and the array hadoop_opens only.
# shellcheck shell=bash

# descendants PID: the ids of every process below PID (for a mini cluster: the NodeManagers'
# containers, AMs and tasks, which outlive its JVM).
descendants() {
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
    echo "$child"
    descendants "$child"
  done
}

# stop_pid PID SECONDS: SIGTERM to PID, up to SECONDS for it to exit, then SIGKILL; returns 1 when it had
# to be killed.
stop_pid() {
  local pid=$1 deadline=$((SECONDS + $2))
  kill -TERM "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      kill -KILL "$pid" 2>/dev/null || true
      return 1
    fi
    sleep 0.25 # waiting for the process to exit
  done
}

# hadoop_opens: the --add-opens a JDK 17 JVM running Hadoop (daemons, clients, SLS) needs for Hadoop's
# reflection into the JDK (Guice in its web apps among others).
hadoop_opens=(--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED)
