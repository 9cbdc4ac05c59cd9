#!/usr/bin/env bash
# The one test command (README's `npm test` and .ci/run): every vitest suite and the Playwright
# end-to-end journeys, all inside a private D-Bus session with an unlocked gnome-keyring, so the
# keychain tests and the app under test use a real Secret Service and never the user's own.
set -euo pipefail
cd "$(dirname "$0")/.."

keyring_home=$(mktemp -d)
trap 'rm -rf "$keyring_home"' EXIT
mkdir -p "$keyring_home/data" "$keyring_home/run"
chmod 700 "$keyring_home/run"
export XDG_DATA_HOME="$keyring_home/data" XDG_RUNTIME_DIR="$keyring_home/run"

dbus-run-session -- bash -c '
  set -euo pipefail
  # A throwaway password creates and unlocks a fresh login keyring (an empty one makes the daemon
  # try to prompt on a display); the daemon then serves the Secret Service API on this bus.
  eval "$(printf "spotfolio-test-keyring" | gnome-keyring-daemon --unlock --components=secrets)"
  export SPOTFOLIO_KEYRING=1
  npx vitest run "$@"
  if [ "${SPOTFOLIO_SKIP_E2E:-}" != "1" ]; then
    npx playwright test
  fi
' bash "$@"
