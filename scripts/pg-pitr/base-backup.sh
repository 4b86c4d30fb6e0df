#!/usr/bin/env bash
# A base backup of a running PostgreSQL cluster for point-in-time recovery (docs/deploy/backups.md): pg_basebackup
# as a plain copy with the WAL it needs, into BACKUP_DIR/base-<time>, checked against its manifest. Together with the WAL archive that the cluster's
# archive_command fills (see archive-wal.sh), it restores the cluster to any moment after it (restore-pitr.sh).
#
#   PGHOST=... PGUSER=replicator BACKUP_DIR=/var/backups/member-dapp scripts/pg-pitr/base-backup.sh
set -euo pipefail
: "${BACKUP_DIR:?BACKUP_DIR: where base backups go}"
PG_BIN="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
target="$BACKUP_DIR/base-$(date -u +%Y-%m-%dT%H-%M-%SZ)"
mkdir -p "$target"
started=$(date +%s)
# --checkpoint=fast: the backup begins now, not at the next scheduled checkpoint; -X stream: its own WAL with it.
"$PG_BIN/pg_basebackup" -D "$target" -F plain -X stream --checkpoint=fast --label="member-dapp $(date -u +%FT%TZ)"
# A backup that cannot be read back is no backup: pg_verifybackup checks every file and the WAL against its manifest.
"$PG_BIN/pg_verifybackup" "$target"
echo "base backup: $target ($(du -sh "$target" | cut -f1), $(( $(date +%s) - started )) s)"
