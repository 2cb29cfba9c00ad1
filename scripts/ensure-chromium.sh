#!/usr/bin/env bash
# The e2e tests use the system Chromium (Playwright cannot download browsers here).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "Installing Debian's chromium for the e2e tests…"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version
