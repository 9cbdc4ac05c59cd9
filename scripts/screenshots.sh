#!/usr/bin/env bash
# `npm run screenshots`: the README's pictures in docs/screenshots/, taken from the real app by the
# journeys that show each screen in the state the README describes. Test runs leave them alone;
# this run has the journeys save them (SPOTFOLIO_SCREENSHOTS=1), one journey at a time in file
# order, so a picture two journeys take is always the later one's. Arguments go to Playwright
# (e.g. a spec file, to retake only its pictures).
set -euo pipefail
cd "$(dirname "$0")/.."

npx electron-vite build
if [ $# -eq 0 ]; then
  mapfile -t specs < <(grep -l 'screenshot(page' test/e2e/*.spec.ts)
  set -- "${specs[@]}"
fi
SPOTFOLIO_SCREENSHOTS=1 exec bash scripts/with-keyring.sh npx playwright test --workers=1 "$@"
