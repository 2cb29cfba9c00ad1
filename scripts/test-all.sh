#!/usr/bin/env bash
# `npm test`: everything — daemon (real Claude Code against the demo model), console unit tests,
# console build, and the browser journeys.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
bash scripts/ensure-isolation.sh
bash scripts/ensure-prometheus.sh

echo "== lint, format and layers (eslint, prettier, dependency-cruiser) =="
npx eslint .
npx prettier --check . >/dev/null || { npx prettier --list-different .; echo "Run: npx prettier --write ."; exit 1; }
npm run --silent lint:layers

rm -rf dist/daemon
npx tsc -p daemon/tsconfig.json
# Two lanes (scripts/daemon-lanes.mjs says which file goes where). The unit lane starts no agent and
# no daemon (its guard fails a file that does), so its files run two at a time; the real-agent lane
# runs its two heavy files beside all the others, each sub-lane one file at a time.
echo "== daemon: unit lane (no agent process, two files at a time) =="
# An empty list would make node --test look for tests everywhere: refuse it.
mapfile -t unit_lane < <(node scripts/daemon-lanes.mjs unit)
[ "${#unit_lane[@]}" -gt 0 ] || { echo "the daemon's unit lane is empty"; exit 1; }
node --import ./dist/daemon/daemon/src/testing/unit-lane-guard.js --test --test-concurrency=2 "${unit_lane[@]}"
echo "== daemon: real-agent lane (pinned agents against the demo model, two sub-lanes side by side) =="
bash scripts/agent-lane.sh

echo "== console unit tests (vitest) =="
npx ng test --watch=false

echo "== translations: every template word marked, the French file neither short nor stale =="
node scripts/i18n-templates.mjs
extracted=$(mktemp -d)
npx ng extract-i18n --output-path "$extracted" >/dev/null
I18N_SOURCE="$extracted/messages.xlf" node scripts/i18n-sync.mjs --check
rm -rf "$extracted"

echo "== console build (then its brotli and gzip twins) =="
npm run build:console
node scripts/page-bytes.mjs --check

if [ -f playwright.config.ts ]; then
  echo "== browser journeys (playwright + axe) =="
  npx playwright test
fi
