# hdfs-lib.sh — sourced by scripts/hdfs-ha-test.sh and scripts/hdfs-kerberos-test.sh: resolves the
# classpath of scripts/minicluster/pom-hdfs.xml (MiniDFSCluster, HATestUtil, MiniKdc; cached per Hadoop
# version in ${TMPDIR:-/tmp}/specbridge-hdfs-minicluster, re-resolved when the pom changes), compiles a
# launcher of scripts/minicluster/src and starts it in the background until its STATE/ready
# (written last) appears; then runs the scripts' Go integration tests against it and times both.
# Needs JDK 17 and Maven; Heavy: run the scripts under flock /tmp/specbridge-heavy.lock.

hdfs_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/proc-lib.sh
source "$hdfs_root/scripts/proc-lib.sh" # hadoop_opens
hdfs_hadoop_version=${HADOOP_VERSION:-3.5.0}
hdfs_cache=${TMPDIR:-/tmp}/specbridge-hdfs-minicluster
hdfs_pid=""

# hdfs_classpath prints the cached classpath file, resolving it first when needed.
hdfs_classpath() {
  local pom=$hdfs_root/scripts/minicluster/pom-hdfs.xml cp=$hdfs_cache/classpath-$hdfs_hadoop_version
  mkdir -p "$hdfs_cache"
  if [[ ! -s $cp || $pom -nt $cp ]]; then
    mvn -q -B -f "$pom" -Dhadoop.version="$hdfs_hadoop_version" \
      dependency:build-classpath -Dmdep.outputFile="$cp.tmp" >&2 || { echo "maven could not resolve $pom" >&2; return 1; }
    mv "$cp.tmp" "$cp"
  fi
  echo "$cp"
}

# hdfs_start CLASS STATE [ARGS...]: compiles CLASS's source and runs it with STATE as its state directory
# (log in STATE/cluster.log); returns once STATE/ready exists. Sets hdfs_pid.
hdfs_start() {
  local class=$1 state=$2
  shift 2
  local cp
  cp=$(cat "$(hdfs_classpath)")
  mkdir -p "$state/classes"
  javac -nowarn -cp "$cp" -d "$state/classes" "$hdfs_root/scripts/minicluster/src/org/specbridge/minicluster/$class.java"
  # MiniKdc's clients also reach into the JDK's Kerberos.
  local opens=("${hadoop_opens[@]}" --add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED)
  java "${opens[@]}" -Xmx768m -Dhadoop.tmp.dir="$state/tmp" -Dtest.build.data="$state/data" -Djava.io.tmpdir="$state" \
    -cp "$state/classes:$cp" "org.specbridge.minicluster.$class" "$state" "$@" > "$state/cluster.log" 2>&1 &
  hdfs_pid=$!
  local i
  for i in $(seq 1 480); do
    [[ -e $state/ready ]] && break
    kill -0 "$hdfs_pid" 2>/dev/null || { tail -50 "$state/cluster.log" >&2; echo "$class exited before it was up" >&2; return 1; }
    sleep 0.25 # polling for the launcher's port file
  done
  [[ -e $state/ready ]] || { tail -50 "$state/cluster.log" >&2; echo "$class not up in 120 s" >&2; return 1; }
  grep -h "up:" "$state/cluster.log" | tail -1 || true
}

# hdfs_stop ends the launcher hdfs_start started.
hdfs_stop() {
  if [[ -n $hdfs_pid ]]; then
    kill "$hdfs_pid" 2>/dev/null || true
    wait "$hdfs_pid" 2>/dev/null || true
    hdfs_pid=""
  fi
}

# hdfs_cluster CLASS NAME: hdfs_start CLASS in a new state directory ${TMPDIR:-/tmp}/specbridge-NAME.XXXXXX
# (hdfs_state), which is removed at exit, after the launcher is stopped, unless KEEP is set. Sets
# hdfs_started and hdfs_up (date +%s before the start and once the cluster is up).
hdfs_cluster() {
  hdfs_state=$(mktemp -d "${TMPDIR:-/tmp}/specbridge-$2.XXXXXX")
  trap hdfs_cleanup EXIT
  hdfs_started=$(date +%s)
  hdfs_start "$1" "$hdfs_state"
  hdfs_up=$(date +%s)
}

hdfs_cleanup() {
  hdfs_stop
  [[ -n ${KEEP:-} ]] || rm -rf "$hdfs_state"
}

# hdfs_go_test NAME PATTERN PACKAGE...: go test -tags integration -p 1 -run PATTERN (plus GO_TEST_FLAGS) on
# the packages from the repository root, one package at a time (the tests fail the cluster over or share
# its KDC), then prints how long the cluster took to come up and the tests to run, as NAME.
hdfs_go_test() {
  local name=$1 pattern=$2
  shift 2
  cd "$hdfs_root"
  # shellcheck disable=SC2086 # GO_TEST_FLAGS is a list of flags
  go test -tags integration -count=1 -p 1 -run "$pattern" ${GO_TEST_FLAGS:-} "$@"
  echo "$name: cluster up in $((hdfs_up - hdfs_started)) s, tests $(($(date +%s) - hdfs_up)) s"
}
