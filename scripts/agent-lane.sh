#!/usr/bin/env bash
# The daemon's real-agent lane (`npm run test:daemon:agent`) as two sub-lanes side by side
# (scripts/daemon-lanes.mjs says which file goes where): the few files that keep agents busy for
# minutes, one after the other, beside all the others, one file at a time: no two of the others
# ever run together. The heavy sub-lane's report is kept in a file and printed after the other's,
# so that neither is cut into the other.
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t heavy < <(node scripts/daemon-lanes.mjs agent-heavy)
mapfile -t rest < <(node scripts/daemon-lanes.mjs agent-rest)
# An empty list would make node --test look for tests everywhere: refuse it.
[ "${#heavy[@]}" -gt 0 ] && [ "${#rest[@]}" -gt 0 ] || { echo "a real-agent sub-lane is empty"; exit 1; }

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

heavy_report=$(mktemp)
node --test --test-concurrency=1 "${heavy[@]}" >"$heavy_report" 2>&1 &
heavy_pid=$!
# Whatever ends this script ends the heavy sub-lane with it.
trap 'kill "$heavy_pid" 2>/dev/null || true; rm -f "$heavy_report"' EXIT

status=0
node --test --test-concurrency=1 "${rest[@]}" || status=$?
heavy_status=0
wait "$heavy_pid" || heavy_status=$?
echo "== real-agent lane, heavy files (${heavy[*]##*/}) =="
cat "$heavy_report"
[ "$status" -eq 0 ] && [ "$heavy_status" -eq 0 ]
