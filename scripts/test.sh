#!/usr/bin/env bash
# The one test command (README: `npm install && npm test`; CI calls the same).
# System packages first, then format/lint, types, the build, and every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-deps.sh
npx biome ci .
npx tsc --noEmit -p tsconfig.json
npm run build --silent
npx vitest run "$@"
