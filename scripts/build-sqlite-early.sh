#!/usr/bin/env bash
# CI's step before `npm ci`: builds better-sqlite3's native module (SQLite's amalgamation, one C
# file that keeps one core busy for most of CI's build time) from the very package the lockfile
# names, while npm installs everything else. `npm ci` spends most of its time downloading and
# unpacking, leaving a core idle; the compile used to start only after it, on the path every test
# waits on. Usage: build-sqlite-early.sh DIR: the module ends in DIR/build/Release, where .ci/run
# takes it into node_modules once npm ci is done. Flags (CFLAGS, JOBS) come from the caller.
set -euo pipefail
out=$1
cd "$(dirname "$0")/.."

read -r version integrity < <(node -e '
  const lock = require("./package-lock.json").packages["node_modules/better-sqlite3"];
  console.log(lock.version, lock.integrity);
')
mkdir -p "$out"
cd "$out"
tarball=$(npm pack "better-sqlite3@$version" --silent)
# The lockfile's hash, not the registry's word: what compiles is exactly what npm ci would install.
actual=$(node -e '
  const { createHash } = require("node:crypto");
  const bytes = require("node:fs").readFileSync(process.argv[1]);
  console.log(`sha512-${createHash("sha512").update(bytes).digest("base64")}`);
' "$tarball")
if [ "$actual" != "$integrity" ]; then
  echo "better-sqlite3@$version does not match package-lock.json ($actual)" >&2
  exit 1
fi
tar xzf "$tarball" --strip-components=1
rm "$tarball"

# npm's own node-gyp, against the headers npm is set to build with (its nodedir, where set):
# node-gyp alone would download them.
node_gyp="$(npm prefix -g)/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
nodedir=$(npm config get nodedir)
[ "$nodedir" = undefined ] && nodedir=
node "$node_gyp" rebuild --release --jobs=max ${nodedir:+"--nodedir=$nodedir"}
