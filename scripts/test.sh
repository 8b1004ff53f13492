#!/usr/bin/env bash
# Run the suite. Database: $DATABASE_URL if set, else PostgreSQL on 127.0.0.1 if it
# answers, else an SQLite file. Prints one line saying which it used.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python

if [ -z "${DATABASE_URL:-}" ]; then
  if $PY -c 'import psycopg2; psycopg2.connect(host="127.0.0.1", port=5432, user="postgres", dbname="postgres", connect_timeout=2).close()' 2>/dev/null; then
    export DATABASE_URL="postgres://postgres@127.0.0.1:5432/animal_control"
  else
    mkdir -p var
    export DATABASE_URL="sqlite:///$(pwd)/var/test.sqlite3"
  fi
fi
case "$DATABASE_URL" in
  postgres*|pgsql*) echo "Test database: PostgreSQL (${DATABASE_URL%%\?*})" | sed -E 's#//[^@/]*@#//#' ;;
  sqlite*) echo "Test database: SQLite (${DATABASE_URL#sqlite://}); PostgreSQL-only tests are skipped" ;;
  *) echo "Test database: $DATABASE_URL" ;;
esac
# On PostgreSQL the test databases are copies of one migrated template (tests/dbsetup.py).
# Where there is none for these migrations yet, it is built beside pytest's start, while
# the workers import Django and collect the suite; they wait on its lock for the rest.
case "$DATABASE_URL" in
  postgres*|pgsql*)
    case " $* " in
      *" --reuse-db "*|*" --nomigrations "*|*" --collect-only "*|*" --co "*) ;;
      *) $PY -m tests.dbsetup & ;;
    esac ;;
esac
exec $PY -m pytest "$@"
