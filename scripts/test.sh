#!/usr/bin/env bash
# The one test command (README: `npm install && npm test`; CI calls the same).
# System packages first, then format/lint, types, the build, and every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-deps.sh
npx biome ci .
# The type check with tsgo (TypeScript 7 native: ~17 s against tsc's ~40 s) beside the build, which
# keeps tsc 5.9 for the published declarations: neither reads what the other writes.
npx tsgo --noEmit -p tsconfig.json &
typecheck=$!
npm run build --silent
wait "$typecheck"
npx vitest run "$@"
