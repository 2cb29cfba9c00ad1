#!/usr/bin/env bash
# The metrics test scrapes the daemon with a real Prometheus and checks the exposition with its
# promtool: both come from the distribution's `prometheus` package.
set -euo pipefail
if command -v prometheus >/dev/null && command -v promtool >/dev/null; then exit 0; fi
echo "Installing prometheus (and promtool) for the metrics test…"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends prometheus >/dev/null
# The package starts its own service where an init system runs; the tests start theirs.
$SUDO systemctl disable --now prometheus >/dev/null 2>&1 || true
prometheus --version | head -1
