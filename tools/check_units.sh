#!/usr/bin/env bash
# Checks the systemd units of deploy/ with `systemd-analyze verify`: the
# node template (as instance node1), the backup service and its timer.
# systemd checks that each ExecStart program exists, so the copies checked
# run the binary named by $1 (default target/debug/plyyard) where the
# shipped units say /usr/local/bin/plyyard; nothing else is changed.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-target/debug/plyyard}")
[ -x "$bin" ] || { echo "no binary at $bin" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for unit in deploy/plyyard@.service deploy/plyyard-backup.service deploy/plyyard-backup.timer; do
  sed "s#/usr/local/bin/plyyard#$bin#g" "$unit" >"$dir/$(basename "$unit")"
done
# A setting systemd ignores (a misspelt value) is only a warning there:
# any word from verify fails the check.
out=$(systemd-analyze verify "$dir/plyyard@node1.service" "$dir/plyyard-backup.service" "$dir/plyyard-backup.timer" 2>&1) || {
  echo "$out" >&2
  exit 1
}
if [ -n "$out" ]; then
  echo "$out" >&2
  exit 1
fi
echo "systemd-analyze verify: the node template, the backup service and its timer are accepted"
