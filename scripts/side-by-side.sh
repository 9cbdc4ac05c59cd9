#!/usr/bin/env bash
# Runs independent commands at the same time ("name:command" each), prints each one's output
# whole (never interleaved) with its duration, and exits non-zero when any of them failed.
set -uo pipefail
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
names=()
pids=()
for job in "$@"; do
  name=${job%%:*}
  names+=("$name")
  (
    started=$SECONDS
    bash -c "${job#*:}" >"$logs/$name.log" 2>&1
    status=$?
    echo "$status $((SECONDS - started))" >"$logs/$name.status"
    exit "$status"
  ) &
  pids+=($!)
done
failed=()
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"
  name=${names[$i]}
  read -r status seconds <"$logs/$name.status"
  echo "── $name: $([ "$status" = 0 ] && echo passed || echo "FAILED (exit $status)") in ${seconds} s"
  cat "$logs/$name.log"
  [ "$status" = 0 ] || failed+=("$name")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "Failed: ${failed[*]}"
  exit 1
fi
