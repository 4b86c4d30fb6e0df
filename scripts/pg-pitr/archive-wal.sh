#!/usr/bin/env bash
# PostgreSQL's archive_command (docs/deploy/backups.md): copies one finished WAL segment into the archive, never
# over a file already there, and only reports success once the copy is on disk.
#
#   archive_mode = on
#   archive_command = '/opt/member-dapp/scripts/pg-pitr/archive-wal.sh %p %f /var/backups/member-dapp/wal'
set -euo pipefail
source_path="$1" file_name="$2" archive="$3"
mkdir -p "$archive"
if [ -f "$archive/$file_name" ]; then
  # The same segment archived twice (a retry after a crash) is fine; a different one under its name is not.
  cmp -s "$source_path" "$archive/$file_name" && exit 0
  echo "archive-wal.sh: $archive/$file_name exists and differs" >&2
  exit 1
fi
cp "$source_path" "$archive/$file_name.partial"
sync "$archive/$file_name.partial"
mv "$archive/$file_name.partial" "$archive/$file_name"
