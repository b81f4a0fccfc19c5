#!/usr/bin/env bash
# fault-injection.sh — the fault-injection suite (issue 14): real `specbridge` processes killed with
# SIGKILL at random moments under load (serve with reconnecting, resyncing AMs; cfa with posting
# sidecars; 20 rounds each), two servers racing for one data directory, a damaged segment, a flipped
# byte in snapshot.cfa, a segment cut at a frame boundary (fsck must count what it lost), a read-only
# data directory, and the analyzer's store failing under load (a full disk: ENOSPC with partial writes;
# a directory gone read-only: EROFS), injected through the store's directory interface (cfa/fs.go);
# and serve beside a full disk (bridge: a good AM pings while another AM's records wait; a bye is told
# its job end is not durable).
# After each: every acknowledged record is present, every running job finished. Prints one FAULT line
# per fault with the records acknowledged and recovered. Takes about a minute (Go build included).
# Usage: scripts/fault-injection.sh
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! go test -tags faults -count=1 -v -run '^TestFault' ./cfa/ ./cmd/specbridge/ ./bridge/ > "$out" 2>&1; then
  grep -E -- '--- FAIL|_test.go:[0-9]+:|FAULT' "$out" | head -100 >&2
  echo "fault-injection: FAILED" >&2
  exit 1
fi
grep '^FAULT' "$out"
echo "fault-injection: all faults survived in $(( $(date +%s) - started )) s"
