#!/usr/bin/env bash
# The one test command (README's `npm test` and .ci/run): every vitest suite, then the Playwright
# end-to-end journeys, inside a private keyring session (scripts/with-keyring.sh). Arguments go
# to vitest; SPOTFOLIO_SKIP_E2E=1 leaves the journeys out.
set -euo pipefail
cd "$(dirname "$0")/.."

exec bash scripts/with-keyring.sh bash -c '
  set -euo pipefail
  npx vitest run "$@"
  if [ "${SPOTFOLIO_SKIP_E2E:-}" != "1" ]; then
    npx playwright test
  fi
' bash "$@"
