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

echo "== daemon and fakes (node --test) =="
rm -rf dist/daemon
npx tsc -p daemon/tsconfig.json
node --test --test-concurrency=1 dist/daemon/

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
