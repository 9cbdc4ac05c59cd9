#!/usr/bin/env bash
# The one test command (README's `npm test` and .ci/run): every vitest suite and the Playwright
# end-to-end journeys. Both spend much of their time waiting (on child processes, sockets, the
# page), so they run side by side, each inside its own private keyring session
# (scripts/with-keyring.sh: neither sees the other's keychain entries), and each one's output is
# printed whole when it ends. Arguments go to vitest; SPOTFOLIO_SKIP_E2E=1 leaves the journeys out.
set -euo pipefail
cd "$(dirname "$0")/.."

unit="bash scripts/with-keyring.sh npx vitest run$(printf ' %q' "$@")"
if [ "${SPOTFOLIO_SKIP_E2E:-}" = "1" ]; then
  exec bash -c "$unit"
fi
exec bash scripts/side-by-side.sh \
  "unit tests:$unit" \
  "journeys:bash scripts/with-keyring.sh npx playwright test"
