#!/usr/bin/env bash
# Builds the sidecar and runs the Java shim's tests on Hadoop's MRApp harness
# (Hadoop 3.5.x by default; HADOOP_PROFILE=hadoop-3.4 for 3.4.x).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p java-shim/target
go build -o java-shim/target/specbridge ./cmd/specbridge
profile=()
[ -n "${HADOOP_PROFILE:-}" ] && profile=(-P "$HADOOP_PROFILE")
mvn -B -q -f java-shim/pom.xml "${profile[@]}" -Dspecbridge.binary="$PWD/java-shim/target/specbridge" test
