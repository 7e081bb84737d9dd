#!/usr/bin/env bash
# Starts the backend on the embedded default: one process, in-memory store, the sample project.
set -euo pipefail
cd "$(dirname "$0")/.."
exec npx tsx server/src/cli.ts "$@"
