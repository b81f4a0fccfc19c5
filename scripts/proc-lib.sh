# proc-lib.sh — process helpers that scripts/minicluster.sh and scripts/e2e-lib.sh share. Sourced, not
# run; defines functions only.
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
