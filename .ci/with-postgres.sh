#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a fresh throwaway PostgreSQL cluster, and always removes the
# cluster afterwards (success, failure or Ctrl-C). The command's exit code is kept.
#
#   .ci/with-postgres.sh npx vitest run --project unit --project unit-isolated tests/server

set -euo pipefail
[ "$#" -gt 0 ] || { echo "usage: .ci/with-postgres.sh <command...>" >&2; exit 2; }

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
eval "$("$here/postgres.sh" start)"
trap '"$here/postgres.sh" stop "$PG_TEST_DIR"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "with-postgres.sh: DATABASE_URL=$DATABASE_URL" >&2
set +e
"$@"
status=$?
set -e
exit "$status"
