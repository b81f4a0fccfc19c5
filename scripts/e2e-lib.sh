# e2e-lib.sh — what scripts/e2e.sh and scripts/e2e-failure.sh share: building the sidecar, the
# checker, the shim and the test job, starting the mini cluster and the sidecar, submitting the job,
# waiting with deadlines, and cleaning every process up on exit. Sourced, not run. The sourcing
# script sets root, work, job_timeout and job_args (the job's -D options) first; after sourcing,
# optionally sidecar_flags (extra `specbridge serve` flags) and cluster_defs (-D key=value for
# minicluster.sh start); then it calls setup.
# shellcheck shell=bash

t_start=$SECONDS
timings=()
sidecar_pid=""
client_pid=""
cluster_started=""
sidecar_flags=()
cluster_defs=() # -D key=value for the mini cluster (minicluster.sh start)
frozen=""
extra_pids=() # more processes of the run (job clients, sidecars) to end on exit
failed=1

say() { echo "e2e: $*"; }
fail() {
  echo "e2e: FAIL: $*" >&2
  exit 1
}
timing() { timings+=("$(printf '%-44s %5ss' "$1" "$2")"); }

# shellcheck source=scripts/proc-lib.sh
source "$root/scripts/proc-lib.sh" # descendants, stop_pid, hadoop_opens

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [[ -n $client_pid ]] && kill -0 "$client_pid" 2>/dev/null; then
    kill "$client_pid" 2>/dev/null || true
  fi
  stop_sidecar
  # shellcheck disable=SC2086
  [[ -z $frozen ]] || kill -KILL $frozen 2>/dev/null || true
  local p
  for p in "${extra_pids[@]}"; do
    kill -KILL "$p" 2>/dev/null || true
  done
  if [[ -n $cluster_started && ${E2E_KEEP_CLUSTER:-0} != 1 ]]; then
    # minicluster.sh stop also ends the containers' JVMs (AMs, tasks).
    "$root/scripts/minicluster.sh" stop > /dev/null 2>&1 || echo "e2e: could not stop the mini cluster" >&2
  fi
  if ((${#timings[@]})); then
    echo "== timings"
    printf '  %s\n' "${timings[@]}"
  fi
  echo "  total $((SECONDS - t_start))s"
  if ((rc != 0 || failed)); then
    echo "e2e: FAILED (exit $rc); logs in $work:" >&2
    echo "  sidecar-*.log (sidecar), *.client.log (job clients), *.am.log (ApplicationMasters)," >&2
    echo "  $SPECBRIDGE_MINICLUSTER_DIR/cluster.log (cluster)" >&2
    ((rc != 0)) || rc=1
  else
    echo "e2e: PASS"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# wait_until DEADLINE_S WHAT COMMAND...: runs COMMAND every 0.5 s until it succeeds.
wait_until() {
  local limit=$1 what=$2
  shift 2
  local deadline=$((SECONDS + limit))
  until "$@"; do
    ((SECONDS < deadline)) || fail "timed out after ${limit}s waiting for $what"
    sleep 0.5 # polling a condition with a deadline
  done
}

port_busy() { (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }

# metric NAME LABELS: the value of one sample on the sidecar's /metrics (0 when absent).
# metric NAME [LABEL="VALUE"]: the sum of NAME's series that carry that label (all of them without one),
# so that a label added to a metric later (decisions by policy, say) does not hide its series.
metric() {
  curl -fsS "http://$sidecar_addr/metrics" 2> /dev/null | awk -v name="$1" -v label="$2" '
    /^#/ { next }
    {
      series = $1; base = series; sub(/\{.*/, "", base)
      if (base != name) next
      if (label != "" && index(series, label) == 0) next
      v += $2
    }
    END { print v + 0 }'
}

start_sidecar() { # NAME
  sidecar_log=$work/sidecar-$1.log
  rm -f "$work/sidecar.addr"
  "$work/bin/specbridge" --log-level "${SIDECAR_LOG_LEVEL:-debug}" serve --listen 127.0.0.1:0 --token-file "$work/token" \
    --addr-file "$work/sidecar.addr" "${sidecar_flags[@]}" > "$sidecar_log" 2>&1 &
  sidecar_pid=$!
  wait_until 30 "the sidecar to listen (log: $sidecar_log)" test -s "$work/sidecar.addr"
  sidecar_addr=$(cat "$work/sidecar.addr")
  wait_until 10 "the sidecar's /healthz" curl -fsS -o /dev/null "http://$sidecar_addr/healthz"
  say "sidecar pid $sidecar_pid at ws://$sidecar_addr/v1/am"
}

stop_sidecar() {
  if [[ -n $sidecar_pid ]] && kill -0 "$sidecar_pid" 2>/dev/null; then
    stop_pid "$sidecar_pid" 10 || true # the sidecar closes its sessions on SIGTERM
  fi
  [[ -z $sidecar_pid ]] || wait "$sidecar_pid" 2>/dev/null || true
  sidecar_pid=""
}

# submit NAME -D...: starts the job client in the background.
submit() {
  local name=$1
  shift
  rm -f "$work/$name.jobid" "$work/$name.jhist"
  # The written client configuration (conf/core-site.xml) is the running cluster's: file system, RM,
  # JobHistory, staging directory, framework yarn, and yarn.is.minicluster, under which the AM and
  # tasks get this client's classpath (the cluster's Hadoop jars and the job jar), as in Hadoop's own
  # MiniMRYarnCluster tests; the shim comes only through -libjars.
  # shellcheck disable=SC2086
  java "${hadoop_opens[@]}" -Xmx512m $quick_jvm -cp "$HADOOP_CONF_DIR:$job_jar:$cluster_cp" org.specbridge.e2e.StragglerJob \
    -D mapreduce.jvm.add-opens-as-default=true \
    -D mapreduce.jobhistory.jhist.format=json \
    -D yarn.app.mapreduce.am.command-opts="-Xmx512m $quick_jvm" \
    -D mapreduce.map.java.opts="-Xmx200m $quick_jvm" -D mapreduce.reduce.java.opts="-Xmx200m $quick_jvm" \
    "${job_args[@]}" -D e2e.jobid.file="$work/$name.jobid" -D e2e.jhist.out="$work/$name.jhist" \
    "$@" "/e2e/$name" > "$work/$name.client.log" 2>&1 &
  client_pid=$!
  job_t0=$SECONDS
  wait_until 120 "job $name to be submitted (log: $work/$name.client.log)" job_submitted "$name"
  job_id=$(cat "$work/$name.jobid")
  [[ $job_id != job_local* ]] || fail "$name: $job_id ran in the client (LocalJobRunner): $HADOOP_CONF_DIR is not the cluster's"
  say "$name: $job_id submitted"
}

job_submitted() {
  [[ -s $work/$1.jobid ]] && return 0
  kill -0 "$client_pid" 2>/dev/null || { tail -n 30 "$work/$1.client.log" >&2; fail "the $1 job client exited before submitting"; }
  return 1
}

# finish NAME: waits for the job client (which waits for the job, then fetches its .jhist).
finish() {
  local name=$1 deadline=$((SECONDS + job_timeout))
  while kill -0 "$client_pid" 2>/dev/null; do
    ((SECONDS < deadline)) || { tail -n 30 "$work/$name.client.log" >&2; fail "$name ($job_id) not done within ${job_timeout}s"; }
    sleep 1 # the job is running
  done
  local rc=0
  wait "$client_pid" || rc=$?
  client_pid=""
  timing "job $name (client wall time)" $((SECONDS - job_t0))
  am_log "$name"
  ((rc == 0)) || { tail -n 30 "$work/$name.client.log" >&2; fail "$name: job $job_id did not succeed (client exit $rc)"; }
  [[ -s $work/$name.jhist ]] || fail "$name: no history copied for $job_id"
}

# am_log NAME: gathers the ApplicationMaster's log lines about specbridge (from the NodeManagers'
# container log directories) into NAME.am.log.
am_log() {
  local app=${job_id/job_/application_}
  : > "$work/$1.am.log"
  while IFS= read -r -d '' f; do
    grep -h "specbridge" "$f" >> "$work/$1.am.log" 2>/dev/null || true
  done < <(find "$SPECBRIDGE_MINICLUSTER_DIR" -path "*/$app/container_*_000001/syslog" -print0 2>/dev/null)
}

nodes_running() {
  local n
  n=$(curl -fsS "$SPECBRIDGE_RM_WEB/ws/v1/cluster/nodes?states=RUNNING" 2>/dev/null | grep -o '"state":"RUNNING"' | wc -l)
  ((n >= ${NODEMANAGERS:-3}))
}

# maps_reporting N: the sidecar has folded at least N events.
maps_reporting() {
  kill -0 "$client_pid" 2>/dev/null || fail "the job client exited while waiting for its maps to report"
  (($(metric specbridge_bridge_events_total "") >= $1))
}

check() { # NAME ARGS...: e2echeck on NAME's history
  local name=$1
  shift
  "$work/bin/e2echeck" "$@" "$work/$name.jhist" | sed 's/^/  /'
  return "${PIPESTATUS[0]}"
}

# A node failure (scripts/e2e-failure.sh, scripts/live-bench.sh): the job's task processes on one
# NodeManager frozen, then that NodeManager stopped as a crash does.
# containers CLASS: "NM-index pid" for each JVM of the job whose main class matches CLASS (YarnChild:
# tasks; MRAppMaster: the AM), from the container directory in its command line
# (…-localDir-nm-<i>_<j>/…/<application>/container_…).
containers() {
  local app=${job_id/job_/application_} pid cmd nm
  for pid in $(descendants "$(cat "$SPECBRIDGE_MINICLUSTER_DIR/pid")"); do
    cmd=$({ tr '\0' ' ' < "/proc/$pid/cmdline"; } 2> /dev/null) || continue # it may have exited
    # The JVM itself, not the shell that launched it (whose command line names the class too).
    [[ ${cmd%% *} == */java && $cmd == *"$1"* && $cmd == *"/$app/container_"* ]] || continue
    nm=$(sed -n 's/.*-localDir-nm-\([0-9]*\)_.*/\1/p' <<< "$cmd" | head -n 1)
    [[ -z $nm ]] || echo "$nm $pid"
  done
}

# running_maps N: at least N task JVMs of the job are up.
running_maps() {
  kill -0 "$client_pid" 2> /dev/null || fail "the job client exited before its maps ran"
  (($(containers YarnChild | wc -l) >= $1))
}

# fail_node [MAP]: freezes the job's task processes on the NodeManager running most of them (never the
# AM's), then stops that NodeManager as a crash does. Sets failed_nm (its id, host:port). With MAP (a
# map index), the NodeManager running that map's first attempt, when it is not the AM's (else the
# next map's, and so on; else as without): a target the policy's own placement of copies does not
# choose, as a replay of the stock run's history can follow (scripts/live-bench.sh).
fail_node() {
  local am_nm nm="" tasks info m
  am_nm=$(containers MRAppMaster | awk 'NR == 1 {print $1}')
  tasks=$(containers YarnChild)
  if [[ -n ${1:-} ]]; then
    local c
    for ((m = $1; m < $1 + 100; m++)); do
      c=$(containers "$(printf '_m_%06d_0 ' "$m")")
      [[ -n $c ]] || break # no such map running
      nm=$(awk -v am="$am_nm" '$1 != am {print $1; exit}' <<< "$c")
      [[ -z $nm ]] || break
    done
  fi
  [[ -n $nm ]] || nm=$(awk -v am="$am_nm" '$1 != am {print $1}' <<< "$tasks" | sort | uniq -c | sort -rn | awk 'NR == 1 {print $2}')
  [[ -n $nm ]] || fail "no task of $job_id runs outside the AM's NodeManager ($am_nm): nothing to fail"
  frozen=$(awk -v nm="$nm" '$1 == nm {print $2}' <<< "$tasks" | tr '\n' ' ')
  say "node failure: $(wc -w <<< "$frozen") of the job's $(wc -l <<< "$tasks") task processes run on NodeManager $nm" \
    "(the AM on $am_nm); SIGSTOP to ${frozen% } at $(date +%T)"
  # shellcheck disable=SC2086
  kill -STOP $frozen
  info=$("$root/scripts/minicluster.sh" stop-nm "$nm") || fail "could not stop NodeManager $nm"
  failed_nm=$(sed -n 's/.*"id":"\([^"]*\)".*/\1/p' <<< "$info")
  [[ -n $failed_nm ]] || fail "stop-nm $nm answered without an id: $info"
  say "node failure: NodeManager $nm ($failed_nm) stopped without unregistering at $(date +%T)," \
    "$((SECONDS - job_t0)) s after the job client started"
}

# thaw: the frozen processes are killed once the job is over (they belong to a failed node; the
# stopped NodeManager normally killed them already).
thaw() {
  # shellcheck disable=SC2086
  [[ -z $frozen ]] || kill -KILL $frozen 2>/dev/null || true
  frozen=""
}

setup() {
  mkdir -p "$work/bin" "$work/job"
  cd "$root"
  for tool in go java javac jar mvn curl; do
    command -v "$tool" > /dev/null || fail "$tool is not on PATH"
  done
  # Short-lived task JVMs on two cores: C1 only and the serial collector start several times cheaper.
  quick_jvm="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:CICompilerCount=1"

  echo "== build"
  t=$SECONDS
  go build -o "$work/bin/specbridge" ./cmd/specbridge
  go build -o "$work/bin/e2echeck" ./scripts/e2echeck
  timing "go build (sidecar, e2echeck)" $((SECONDS - t))
  t=$SECONDS
  if [[ -n ${SPECBRIDGE_SHIM_JAR:-} ]]; then
    shim_jar=$SPECBRIDGE_SHIM_JAR
  else
    # maven.test.skip: the jar needs neither the shim's tests nor their compilation.
    mvn -B -q -f java-shim/pom.xml package -Dmaven.test.skip=true || fail "mvn package of java-shim failed"
    shim_jar=$(ls java-shim/target/specbridge-shim-*.jar | grep -v original | head -n 1)
  fi
  [[ -s $shim_jar ]] || fail "no shim jar at $shim_jar"
  timing "shim jar (mvn package)" $((SECONDS - t))
  say "shim jar $shim_jar"

  echo "== mini cluster"
  t=$SECONDS
  if ! "$root/scripts/minicluster.sh" status > /dev/null 2>&1; then
    # Another cluster on this machine on these ports makes start-up fail late (ports: minicluster.sh).
    local rm=${RM_PORT:-19032} jhs=${JHS_PORT:-19020}
    for p in "${NN_PORT:-19820}" "${NN_HTTP_PORT:-19870}" "$rm" "$((rm - 2))" "$((rm - 1))" "$((rm + 1))" \
      "${RM_WEB_PORT:-19088}" "$jhs" "$((jhs + 1))" "${JHS_WEB_PORT:-19888}"; do
      port_busy "$p" && fail "port $p is in use (another Hadoop mini cluster running?); stop it or change the ports"
    done
    cluster_started=1
  fi
  "$root/scripts/minicluster.sh" start "${cluster_defs[@]}"
  cluster_started=1
  # shellcheck disable=SC1091
  source "$SPECBRIDGE_MINICLUSTER_DIR/env"
  export HADOOP_CONF_DIR
  cluster_cp=$(cat "$SPECBRIDGE_MINICLUSTER_DIR/classpath")
  wait_until 120 "3 NodeManagers RUNNING at $SPECBRIDGE_RM_WEB" nodes_running
  timing "mini cluster start" $((SECONDS - t))

  echo "== job jar"
  t=$SECONDS
  rm -rf "$work/job/classes"
  javac --release 8 -nowarn -cp "$cluster_cp" -d "$work/job/classes" e2e/src/org/specbridge/e2e/*.java
  job_jar=$work/job/specbridge-e2e-job.jar
  jar cf "$job_jar" -C "$work/job/classes" .
  timing "job jar (javac)" $((SECONDS - t))

  # The shim's settings; each run adds specbridge.url and its parameters.
  od -An -tx1 -N24 /dev/urandom | tr -d ' \n' > "$work/token"
  shim_args=(-libjars "$shim_jar" -D mapreduce.map.speculative=true -D mapreduce.reduce.speculative=false
    -D yarn.app.mapreduce.am.job.speculator.class=org.specbridge.shim.BridgeSpeculator
    -D specbridge.token.file="$work/token" -D specbridge.speculator="$policy")
}
