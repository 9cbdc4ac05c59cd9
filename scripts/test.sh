#!/usr/bin/env bash
# The one test command (README's `npm test` and .ci/run): every vitest suite, the real keychain
# tests inside a private gnome-keyring session, then the Playwright end-to-end journeys.
set -euo pipefail
cd "$(dirname "$0")/.."

keyring_home=$(mktemp -d)
trap 'rm -rf "$keyring_home"' EXIT
mkdir -p "$keyring_home/data" "$keyring_home/run"
chmod 700 "$keyring_home/run"
export XDG_DATA_HOME="$keyring_home/data" XDG_RUNTIME_DIR="$keyring_home/run"

dbus-run-session -- bash -c '
  set -euo pipefail
  # An empty password unlocks a fresh login keyring; the daemon serves the Secret Service API.
  eval "$(printf "" | gnome-keyring-daemon --unlock --components=secrets)"
  export SPOTFOLIO_KEYRING=1
  npx vitest run "$@"
' bash "$@"

if [ "${SPOTFOLIO_SKIP_E2E:-}" != "1" ]; then
  npx playwright test
fi
