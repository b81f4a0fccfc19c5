# bench-lib.sh — what the replay benchmarks scripts/bench-policies.sh and scripts/bench-scale.sh
# share. Sourced, not run, from the repository's root; defines functions only.
# shellcheck shell=bash

# bench_build NAME: checks for GNU time (/usr/bin/time: the wall time, CPU time and peak RSS the
# benchmarks report), makes a temporary directory removed on exit, builds specbridge into it and sets
# bench_dir to it. NAME is the script's name in errors.
bench_build() {
  if [[ ! -x /usr/bin/time ]]; then
    echo "$1: /usr/bin/time (GNU time) is missing: apt-get install -y time" >&2
    exit 1
  fi
  bench_dir=$(mktemp -d)
  trap 'rm -rf "$bench_dir"' EXIT
  go build -o "$bench_dir/specbridge" ./cmd/specbridge
}
