#!/usr/bin/env bash
# The daemon's real-agent lane (`npm run test:daemon:agent`; scripts/daemon-lanes.mjs lists its
# files): pinned agents against the demo model, one file at a time.
set -euo pipefail
cd "$(dirname "$0")/.."

# The agents' commands see the folders of the daemon's PATH, and Claude's sandbox looks through each
# one outside the system's folders for the names it masks, at every command: a ~/.pyenv of 130,000
# entries cost 0.7 CPU s a command (6 turns: 6.3-6.6 CPU s and 28-35 s, 2.1-2.3 CPU s and 11-13 s
# without it, load 15-19). The lane keeps the system's folders and node's own.
lane_path=$(dirname "$(command -v node)")
IFS=: read -ra path_entries <<<"$PATH"
for entry in "${path_entries[@]}"; do
  case "$entry" in
    /usr | /usr/* | /bin | /sbin | /opt/* | /nix/* | /snap/*) lane_path+=":$entry" ;;
  esac
done
export PATH=$lane_path

mapfile -t lane < <(node scripts/daemon-lanes.mjs agent)
# An empty list would make node --test look for tests everywhere: refuse it.
[ "${#lane[@]}" -gt 0 ] || { echo "the real-agent lane is empty"; exit 1; }
node --test --test-concurrency=1 "${lane[@]}"
