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
# Each one's output is printed as it ends, except a failure's, which waits for the end: a CI log
# is often read from its tail, where the failure then is, whatever ended after it.
failed=()
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"
  name=${names[$i]}
  read -r status seconds <"$logs/$name.status"
  if [ "$status" = 0 ]; then
    echo "── $name: passed in ${seconds} s"
    cat "$logs/$name.log"
  else
    failed+=("$name")
    echo "── $name: FAILED (exit $status) in ${seconds} s; its output is printed at the end"
  fi
done
for name in "${failed[@]}"; do
  read -r status seconds <"$logs/$name.status"
  echo "── $name: FAILED (exit $status) in ${seconds} s"
  cat "$logs/$name.log"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "Failed: ${failed[*]}"
  exit 1
fi
