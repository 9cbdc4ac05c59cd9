#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring, so the keychain
# tests and the app under test use a real Secret Service and never the user's own. Used by
# `npm test` (scripts/test.sh) and `npm run screenshots`; usable alone:
#   bash scripts/with-keyring.sh npx playwright test test/e2e/lock.spec.ts
set -euo pipefail
cd "$(dirname "$0")/.."

# What the keychain and end-to-end tests need from the system (README: What a Linux machine needs).
missing=()
for tool in dbus-run-session gnome-keyring-daemon; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
# Either Chromium will do; the tests prefer its headless shell (test/e2e/support/chromium.ts).
[ -x /usr/bin/chromium-headless-shell ] || [ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Missing: ${missing[*]}. Install the packages: sudo apt-get install dbus dbus-x11 gnome-keyring chromium-headless-shell libsecret-1-dev" >&2
  exit 1
fi
[ -d node_modules ] || { echo "Installing the packages first (npm install)..."; npm install; }

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
  "$@"
' bash "$@"
