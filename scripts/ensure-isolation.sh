#!/usr/bin/env bash
# Every session's commands run confined (bubblewrap, with socat for Claude Code's network proxy);
# the daemon refuses to launch without them, so the tests need them too.
set -euo pipefail
if command -v bwrap >/dev/null && command -v socat >/dev/null; then exit 0; fi
echo "Installing bubblewrap and socat for command confinement…"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq bubblewrap socat >/dev/null
bwrap --version
