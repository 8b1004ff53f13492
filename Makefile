# The two commands: `make run` and `make test` (README.md).
VENV    := .venv
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.installed-stamp
PYTHON  ?= python3
WEB_PORT ?= 8000
export WEB_PORT

.PHONY: run test test-dates bench bench-web mutate install migrate demo check lint docs clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet ".[dev]"
	@touch $(STAMP)

install: $(STAMP)

migrate: $(STAMP)
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py demo_data

## Web, Celery worker and Celery beat together; Ctrl-C stops all three.
run: demo
	@echo ""
	@echo "  Animal ordinance administration: http://127.0.0.1:$(WEB_PORT)/"
	@$(PY) -c "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); django.setup(); from demo.users import demo_logins_text; print(demo_logins_text())"
	@echo "  Press Ctrl-C to stop the web server, the worker and beat."
	@echo ""
	$(VENV)/bin/honcho -f Procfile.dev start

## The whole suite: DATABASE_URL if set, else PostgreSQL on 127.0.0.1 if it answers, else SQLite.
## In random order: pytest-randomly prints the seed; ARGS=--randomly-seed=N repeats an order.
## On TEST_WORKERS processes (pytest-xdist, 2 by default: about 12 minutes on two cores; 0 runs it in one).
TEST_WORKERS ?= 2
test: $(STAMP)
	@./scripts/test.sh -n $(TEST_WORKERS) $(ARGS)

## The non-browser suite with the clock at each date that has broken tests before
## (scripts/test-dates.sh); DATES="2027-01-04" for one of them.
test-dates: $(STAMP)
	@./scripts/test-dates.sh $(DATES) -- $(ARGS)

## Benchmarks (tests/bench/) at full size, on PostgreSQL; `make test` runs them small.
bench: $(STAMP)
	@BENCH_SIZE=full ./scripts/test.sh tests/bench -s $(ARGS)

## The clerk's pages under gunicorn with production settings on PostgreSQL at
## BENCH_ANIMALS animals, side by side with the bare Django page of ../shared/bench
## (wrk); prints the table of tests/bench/README.md. BENCH_KEEP_DB=1 keeps
## the loaded databases so the next run skips the load.
BENCH_ANIMALS ?= 200000
bench-web: $(STAMP)
	@BENCH_ANIMALS=$(BENCH_ANIMALS) $(PY) tests/bench/bench_web.py

## Mutation testing of the rule-bearing modules on SQLite (tests/README.md); resumable.
## MUTANTS="ordinance.calendar.*" for one module's mutants, MUTATE_JOBS=1 for one worker.
mutate: $(STAMP)
	@./scripts/mutate.sh $(MUTANTS)

check: $(STAMP)
	$(PY) manage.py check
	DJANGO_DEBUG=false DJANGO_SECRET_KEY=check-deploy-only-$$(head -c 48 /dev/urandom | base64 | tr -d '/+=') $(PY) manage.py check --deploy --fail-level WARNING

## ruff's lint rules and its formatter (style.md); CI runs this before the suite.
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

## docs/rules.md and docs/cities/ (and docs/states/) from ordinance/catalogue.toml and the
## profiles; `manage.py rules_docs --check` names the files that are not current.
docs: $(STAMP)
	$(PY) manage.py rules_docs

clean:
	rm -rf var/broker var/test.sqlite3
