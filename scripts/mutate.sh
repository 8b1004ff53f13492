#!/usr/bin/env bash
# Mutation testing of the rule-bearing modules ([tool.mutmut] in pyproject.toml;
# tests/README.md "Mutation testing"). mutmut 3 copies the code to mutants/, runs the
# ordinance and licensing tests once to learn which tests call which function, then
# runs each mutant against just those tests. Stop with Ctrl-C; the next run resumes
# and re-tests only functions that changed.
#
#   scripts/mutate.sh                            # every module
#   scripts/mutate.sh "ordinance.calendar.*"     # one module's mutants
#   MUTATE_JOBS=1 scripts/mutate.sh              # one worker (default 2)
#
# Always SQLite: fast, and no shared database to clobber. The file is migrated once here;
# scripts/mutmut_db.py gives every mutant's pytest session its own copy of it.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
export MUTATE_DB_TEMPLATE="${MUTATE_DB_TEMPLATE:-${TMPDIR:-/tmp}/mutate-$(id -u)-template.sqlite3}"
export DATABASE_URL="sqlite:///$MUTATE_DB_TEMPLATE"
unset REQUIRE_POSTGRES TEST_CLOCK BENCH_SIZE
# mutmut passes each mutant its tests as a set; a fixed hash seed fixes their order.
export PYTHONHASHSEED=0
rm -f "$MUTATE_DB_TEMPLATE"
$PY manage.py migrate --noinput -v0
.venv/bin/mutmut run --max-children "${MUTATE_JOBS:-2}" "$@"
# Survivors and timeouts, one per line (`mutmut show <name>` prints the diff).
.venv/bin/mutmut results
.venv/bin/mutmut export-cicd-stats >/dev/null
echo "Totals: mutants/mutmut-cicd-stats.json"
