"""The test database, migrated once and copied to each worker.

Migrating a new database replays every migration in Python (tens of seconds of CPU),
and each pytest-xdist worker used to do it for its own database, and again in CI's
shifted-clock pass. Here the first worker to arrive migrates a *template* (under a file
lock, so the other waits instead of migrating too), and every worker takes a copy of it:
``CREATE DATABASE ... TEMPLATE`` on PostgreSQL, a file copy on SQLite. The template's
name carries a hash of every migration file (and of the project modules they import),
so a changed migration builds a new template and the old one is dropped; an unchanged
one is reused by the next run, the shifted-clock pass included.

The template is only ``migrate``'s output. What the suite adds on top of it (the two
demo cities, see ``seed``) is written into each worker's copy, so a change to a profile
or to the demo cities never meets a stale template.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib
import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.db import connection, connections

PROJECT = Path(__file__).resolve().parent.parent
_IMPORT = re.compile(r"^\s*(?:from|import)\s+([\w.]+)", re.MULTILINE)


def migration_key() -> str:
    """A hash of the Django version and every migration file of every installed app,
    plus the project modules those files import (``base.db_guards`` writes triggers)."""
    import django

    digest = hashlib.sha256(django.get_version().encode())
    digest.update(connection.vendor.encode())
    for config in apps.get_app_configs():
        folder = _migrations_folder(config)
        if folder is None:
            continue
        for path in sorted(folder.glob("*.py")):
            text = path.read_bytes()
            digest.update(f"{config.label}/{path.name}".encode())
            digest.update(text)
            for module in _project_imports(text.decode("utf-8", "replace")):
                digest.update(module.read_bytes())
    return digest.hexdigest()[:12]


def _migrations_folder(config) -> Path | None:
    name = settings.MIGRATION_MODULES.get(config.label, f"{config.name}.migrations")
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    return Path(module.__file__).parent if getattr(module, "__file__", None) else None


def _project_imports(source: str):
    for dotted in _IMPORT.findall(source):
        path = PROJECT.joinpath(*dotted.split("."))
        for candidate in (path.with_suffix(".py"), path / "__init__.py"):
            if candidate.is_file() and PROJECT in candidate.parents:
                yield candidate
                break


@contextmanager
def _locked(name: str):
    """One process at a time builds or copies the template (xdist workers, two CI
    passes, two checkouts on one machine)."""
    path = Path(tempfile.gettempdir()) / f"{name}.lock"
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def setup(worker: str | None) -> str:
    """Give this process its own migrated test database; returns its name."""
    if connection.vendor == "postgresql":
        return _setup_postgresql(worker)
    return _setup_sqlite(worker)


def teardown(name: str) -> None:
    for alias in connections:
        connections[alias].close()
    if connection.vendor == "postgresql":
        with connection._nodb_cursor() as cursor:
            # A live server's thread may still hold a connection as the session ends.
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        Path(name).unlink(missing_ok=True)


def _use(name: str) -> None:
    """Point the default connection (and settings, which the live server and the
    backup commands read) at ``name``."""
    connection.close()
    settings.DATABASES["default"]["NAME"] = name
    connection.settings_dict["NAME"] = name


def _migrate_into(name: str) -> None:
    """``migrate`` a new database called ``name``, as Django's test runner would."""
    connection.settings_dict.setdefault("TEST", {})["NAME"] = name
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    connection.close()


def _setup_postgresql(worker: str | None) -> str:
    base = settings.DATABASES["default"]["NAME"]
    template = f"test_{base}_tpl_{migration_key()}"
    target = f"test_{base}_{worker or 'main'}"
    with _locked(template):
        _ensure_postgresql_template(base, template)
        with connection._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{target}" WITH (FORCE)')
            cursor.execute(f'CREATE DATABASE "{target}" WITH TEMPLATE "{template}"')
    _use(target)
    return target


def _ensure_postgresql_template(base: str, template: str) -> None:
    """Migrate the template if there is none for these migrations (call under the lock)."""
    existing = _databases_like(f"test_{base}_tpl_%")
    if template not in existing:
        building = f"{template}_new"
        _migrate_into(building)  # under another name until it is whole
        _use(base)
        with connection._nodb_cursor() as cursor:
            cursor.execute(f'ALTER DATABASE "{building}" RENAME TO "{template}"')
    for stale in existing - {template}:
        _drop_quietly(stale)  # a template of migrations that have since changed


def build_template() -> None:
    """Make sure the template exists, without a database of this process's own:
    ``scripts/test.sh`` runs this beside pytest's start (its workers import Django and
    collect the suite meanwhile, then wait on the lock for the rest)."""
    if connection.vendor != "postgresql":
        return
    base = settings.DATABASES["default"]["NAME"]
    template = f"test_{base}_tpl_{migration_key()}"
    with _locked(template):
        _ensure_postgresql_template(base, template)


def _databases_like(pattern: str) -> set[str]:
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", [pattern])
        return {row[0] for row in cursor.fetchall()}


def _drop_quietly(name: str) -> None:
    """A template in use by another checkout's run stays until the next run."""
    from django.db import DatabaseError

    try:
        with connection._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
    except DatabaseError:
        pass


def _setup_sqlite(worker: str | None) -> str:
    folder = Path(tempfile.gettempdir())
    stem = f"animal-ordinance-test-{os.getuid()}"
    template = folder / f"{stem}-tpl-{migration_key()}.sqlite3"
    target = folder / f"{stem}-{os.getpid()}-{worker or 'main'}.sqlite3"
    with _locked(template.name):
        if not template.exists():
            building = template.with_suffix(".new")
            building.unlink(missing_ok=True)
            _migrate_into(str(building))
            building.rename(template)
        for stale in folder.glob(f"{stem}-tpl-*.sqlite3"):
            if stale != template:
                stale.unlink(missing_ok=True)
    shutil.copyfile(template, target)
    _use(str(target))
    return str(target)


def seed() -> None:
    """What every test finds in the database before it starts: the role groups with
    their permissions (``post_migrate``, as migrate and flush send it, so a change to
    the roles never meets a stale template) and the two demo cities (``seed_cities``)."""
    from django.core.management.sql import emit_post_migrate_signal

    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    seed_cities()


def seed_cities() -> None:
    """North Branch and Glencoe with their adopted rule values and demo fees, which the
    ``cities`` fixture reads. A test rolls back to this state; a transactional test's
    flush empties every table and is followed by this again."""
    from demo.jurisdictions import ensure_demo_jurisdictions

    ensure_demo_jurisdictions()


if __name__ == "__main__":
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    build_template()
