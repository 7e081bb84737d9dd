#!/usr/bin/env bash
# Starts the backend on the embedded default (one process, in-memory store, the sample project)
# and a local dev chain (anvil, eip155:31337) for the sample project's balances: scripts/start.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
exec npx tsx scripts/start.ts "$@"
