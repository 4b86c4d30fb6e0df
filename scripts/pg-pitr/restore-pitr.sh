#!/usr/bin/env bash
# Restores a base backup into an empty data directory and replays the WAL archive up to a moment (docs/deploy/
# backups.md). Start the cluster afterwards; it recovers, then promotes itself at the target. Start the servers
# after it: their payer halts until the recovery from the chain accounts for what was paid after the target.
#
#   scripts/pg-pitr/restore-pitr.sh BASE_DIR WAL_ARCHIVE DATA_DIR ['2026-12-01 03:00:00+00']   (no time: all of it)
set -euo pipefail
base="$1" archive="$2" data="$3" target_time="${4:-}"
[ -d "$base" ] && [ -d "$archive" ] || { echo "usage: restore-pitr.sh BASE_DIR WAL_ARCHIVE DATA_DIR [TARGET_TIME]" >&2; exit 2; }
if [ -e "$data" ] && [ -n "$(ls -A "$data" 2>/dev/null)" ]; then echo "restore-pitr.sh: $data is not empty" >&2; exit 1; fi
mkdir -p "$data" && chmod 700 "$data"
cp -a "$base/." "$data/"
rm -f "$data/backup_manifest"
chmod 700 "$data"
{
  echo "restore_command = 'cp $archive/%f %p'"
  if [ -n "$target_time" ]; then echo "recovery_target_time = '$target_time'"; fi
  echo "recovery_target_action = 'promote'"
} >> "$data/postgresql.auto.conf"
touch "$data/recovery.signal"
echo "restored $base into $data; start the cluster on it (pg_ctl -D $data start) and it replays the archive${target_time:+ to $target_time}"
