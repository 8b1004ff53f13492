"""Shared fixtures: the two demo cities and the personas of style.md."""

import copy
import os
import sys
from datetime import datetime
from zoneinfo import ZoneInfo

import django.test
import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.models import Group
from django.db import connection

from base.roles import ADMINISTRATOR, CLERK, OFFICER, RESIDENT
from demo.jurisdictions import DEMO_JURISDICTIONS, ensure_demo_jurisdictions
from ordinance.models import Jurisdiction

DEMO_SLUGS = tuple(row["slug"] for row in DEMO_JURISDICTIONS)


def pytest_addoption(parser):
    parser.addoption(
        "--clock",
        default=os.environ.get("TEST_CLOCK") or None,
        metavar="YYYY-MM-DD[THH:MM]",
        help="Run the whole suite with the clock set to this local time (America/Chicago; "
        "midnight if no time is given) and ticking from there. Also TEST_CLOCK. "
        "`make test-dates` runs the suite at each date that has broken tests before.",
    )


def parse_clock(value: str) -> datetime:
    """'2027-01-04' or '2026-12-31T23:30' -> an aware datetime in Central time."""
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo("America/Chicago"))
    return moment


_shifted_clock = None


def pytest_configure(config):
    """With --clock, every test (and every xdist worker) runs with the clock shifted."""
    global _shifted_clock
    config.pluginmanager.register(_WorkerOrder(), "worker-order")
    value = config.getoption("--clock")
    if value and _shifted_clock is None:
        _shifted_clock = time_machine.travel(parse_clock(value), tick=True)
        _shifted_clock.start()


def pytest_unconfigure(config):
    global _shifted_clock
    if _shifted_clock is not None:
        _shifted_clock.stop()
        _shifted_clock = None


def pytest_collection_modifyitems(config, items):
    """Benchmarks (tests/bench) all carry the marker `bench`; every suite runs them at a
    small size so their code cannot rot, `make bench` at full size (BENCH_SIZE=full)."""
    for item in items:
        if "/tests/bench/" in str(item.fspath):
            item.add_marker(pytest.mark.bench)


class _WorkerOrder:
    """The order the workers take the modules in. ``--dist loadfile`` gives each module
    whole to one worker, so a module-scoped fixture (the walks' ``scene``, the demo load)
    is built once; ``--no-loadscope-reorder`` hands the modules out in this order, each
    to whichever worker is free: first the modules with such a fixture or a test marked
    `slow` (every browser test, and the few others that take many seconds), then the
    short ones, which fill in until both workers finish together. Within each, the
    shuffled order of pytest-randomly is kept (hence ``trylast``)."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        first, long_ = {}, set()
        for position, item in enumerate(items):
            module = item.nodeid.split("::", 1)[0]
            first.setdefault(module, position)
            if item.get_closest_marker("slow") or _has_module_fixture(item):
                long_.add(module)

        def order(position_item):
            position, item = position_item
            module = item.nodeid.split("::", 1)[0]
            return (module not in long_, first[module], position)

        items[:] = [item for _, item in sorted(enumerate(items), key=order)]


def _has_module_fixture(item) -> bool:
    """The test uses a fixture of tests/ that lives as long as its module."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(
        fixturedef.scope == "module" and fixturedef.baseid.startswith("tests")
        for fixturedefs in info.name2fixturedefs.values()
        for fixturedef in fixturedefs
    )


def pytest_report_header(config):
    db = settings.DATABASES["default"]
    lines = [f"database: {db['ENGINE'].rsplit('.', 1)[-1]} {db.get('NAME', '')}"]
    if config.getoption("--clock"):
        lines.append(f"clock shifted to {parse_clock(config.getoption('--clock')).isoformat()}")
    return lines


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache. Pages keep what every request asks (a
    user's roles, a city's rule rows, sessions) in Django's cache under version keys
    that writes move on; a rolled-back test moves no key back, and SQLite gives the next
    test the same ids, so a kept entry could answer for another test's rows."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _fixed_clock(request):
    """``@pytest.mark.clock("2026-06-15T10:00")``: the test runs with the clock stopped there.

    A test whose data or expectations depend on today (a license that expires this
    December 31, a history row stamped now) says when it runs, so it passes on any date
    and under ``--clock``. The time is local (America/Chicago) unless it names an offset.
    """
    marker = request.node.get_closest_marker("clock")
    if marker is None:
        yield None
        return
    moment = parse_clock(marker.args[0])
    with time_machine.travel(moment, tick=False) as traveller:
        yield traveller


@pytest.fixture(scope="session", autouse=True)
def _fast_test_settings(tmp_path_factory):
    """MD5 hashing, static files found on request, eager Celery, locmem mail; axes off
    except where a test turns it on; the PDFs every issuing service archives go to a
    temporary folder, not var/media or a bucket."""
    from config.celery import app as celery_app

    settings.MEDIA_ROOT = str(tmp_path_factory.mktemp("media"))
    # On local disk even where the environment names a bucket (MEDIA_S3_BUCKET): the
    # suite never writes to a real one (tests/config/test_s3_storage.py runs its own).
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    }
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # WhiteNoise looks a static file up when it is asked for, instead of listing every
    # file under static/ each time a test client builds its middleware (40 ms a client).
    settings.WHITENOISE_AUTOREFRESH = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.AXES_ENABLED = False
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield


# What ``post_migrate`` makes and a test never changes: content types and permissions, and
# the role groups with their permissions (set again by ``post_migrate`` after each flush).
_KEPT_BY_FLUSH = {
    "django_content_type",
    "auth_permission",
    "auth_group",
    "auth_group_permissions",
}


def _postgres_flush_by_delete(original):
    """Django empties the database after each transactional test (every browser test)
    with one ``TRUNCATE`` of all ~200 tables; on PostgreSQL that costs about 5 seconds
    however few rows there are (each table gets new files), where ``DELETE`` from each,
    with triggers and foreign-key checks off for the transaction
    (``session_replication_role``: a superuser's setting), empties them in a tenth of a
    second. Same result: every table empty, sequences not reset (as Django's flush).
    The content types, permissions and role groups are kept, so the flush's
    ``post_migrate`` (whose three handlers make them when missing and set each group's
    permissions to the declared ones) has nothing to do and is not sent (``_emit_unless_kept``)."""

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        with self.connection.cursor() as cursor:
            cursor.execute("SELECT current_setting('is_superuser')")
            superuser = cursor.fetchone()[0] == "on"
        if not tables or reset_sequences or allow_cascade or not superuser:
            return original(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        self.connection.flush_kept_post_migrate_tables = True
        return [
            "SET LOCAL session_replication_role = replica",
            *(f"DELETE FROM {self.quote_name(t)}" for t in tables if t not in _KEPT_BY_FLUSH),
            "SET LOCAL session_replication_role = DEFAULT",
        ]

    return sql_flush


def _emit_unless_kept(original):
    """``post_migrate`` after a flush, unless the flush kept what its handlers make."""

    def emit(verbosity, interactive, db, **kwargs):
        from django.db import connections

        if getattr(connections[db], "flush_kept_post_migrate_tables", False):
            connections[db].flush_kept_post_migrate_tables = False
            return
        original(verbosity, interactive, db, **kwargs)

    return emit


@pytest.fixture(scope="session", autouse=True)
def _fast_flush():
    if connection.vendor != "postgresql":
        yield
        return
    from django.core.management.commands import flush
    from django.db.backends.postgresql.operations import DatabaseOperations

    original, original_emit = DatabaseOperations.sql_flush, flush.emit_post_migrate_signal
    DatabaseOperations.sql_flush = _postgres_flush_by_delete(original)
    flush.emit_post_migrate_signal = _emit_unless_kept(original_emit)
    yield
    DatabaseOperations.sql_flush, flush.emit_post_migrate_signal = original, original_emit


@pytest.fixture(scope="session")
def django_db_setup(
    request,
    django_test_environment,
    django_db_blocker,
    django_db_use_migrations,
    django_db_keepdb,
    django_db_createdb,
    django_db_modify_db_settings,
):
    """Each worker's database is a copy of one migrated template (tests/dbsetup.py),
    seeded with what every test may take for granted. ``--reuse-db`` (the mutation
    runs' own copy of a migrated file, scripts/mutmut_db.py) keeps pytest-django's way."""
    from tests import dbsetup

    if django_db_keepdb or not django_db_use_migrations:
        from pytest_django.fixtures import django_db_setup as original

        yield from original.__wrapped__(
            request,
            django_test_environment,
            django_db_blocker,
            django_db_use_migrations,
            django_db_keepdb,
            django_db_createdb,
            django_db_modify_db_settings,
        )
        return
    worker = getattr(request.config, "workerinput", {}).get("workerid")
    with django_db_blocker.unblock():
        name = dbsetup.setup(worker)
        dbsetup.seed()
    yield
    with django_db_blocker.unblock():
        dbsetup.teardown(name)


@pytest.fixture(scope="session", autouse=True)
def _seeded_after_flush(django_db_setup):
    """A transactional test (a live server, row locks) ends with a flush of every
    table; the next test starts from the seeded state all the same."""
    from django.test import TransactionTestCase

    from tests.dbsetup import seed_cities

    original = TransactionTestCase._fixture_teardown

    def teardown(self):
        original(self)
        seed_cities()

    TransactionTestCase._fixture_teardown = teardown
    yield
    TransactionTestCase._fixture_teardown = original


@pytest.fixture(scope="session", autouse=True)
def _require_postgres(django_db_setup, django_db_blocker):
    """In CI (REQUIRE_POSTGRES=1) the suite must not quietly fall back to SQLite."""
    if os.environ.get("REQUIRE_POSTGRES") and connection.vendor != "postgresql":
        pytest.exit(f"REQUIRE_POSTGRES is set but the database is {connection.vendor}", 3)


@pytest.fixture
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (row locks / concurrency); SQLite serialises writers")


@pytest.fixture
def cities(db):
    """North Branch and Glencoe, as every test finds them (tests/dbsetup.py, ``seed``)."""
    found = {j.slug: j for j in Jurisdiction.objects.filter(slug__in=DEMO_SLUGS)}
    if len(found) < len(DEMO_SLUGS):  # the database was not seeded (--reuse-db)
        return tuple(ensure_demo_jurisdictions())
    return tuple(found[slug] for slug in DEMO_SLUGS)


@pytest.fixture
def no_cities(db):
    """An installation that serves no city yet: the seeded demo cities, their rule
    values and fees are taken out for this test (and come back with its rollback)."""
    from ordinance.models import FeeScheduleEntry, RuleValue

    # Kept records refuse ``delete()`` (the fee schedule's rows are never deleted in
    # use); a test's own rollback is what undoes this.
    for model in (FeeScheduleEntry, RuleValue, Jurisdiction):
        model.objects.all()._raw_delete(using="default")


@pytest.fixture
def north_branch(cities):
    return cities[0]


@pytest.fixture
def glencoe(cities):
    return cities[1]


def make_user(username, role, jurisdictions=(), **extra):
    from accounts.models import User

    user = User.objects.create_user(username=username, password="pw-" + username, **extra)
    user.groups.add(Group.objects.get(name=role))
    user.jurisdictions.set(jurisdictions)
    return user


# The personas of style.md: username, role, the cities they serve, their names.
PERSONAS = {
    "clerk": ("carol", CLERK, ("north-branch",), {"first_name": "Carol", "last_name": "Clerk"}),
    "glencoe_clerk": ("gus", CLERK, ("glencoe",), {"first_name": "Gus", "last_name": "Glencoe"}),
    "officer": ("olivia", OFFICER, DEMO_SLUGS, {"first_name": "Olivia"}),
    "administrator": ("avery", ADMINISTRATOR, DEMO_SLUGS, {"first_name": "Avery"}),
    "resident": ("rita", RESIDENT, (), {"first_name": "Rita", "last_name": "Resident"}),
    "other_resident": ("bob", RESIDENT, (), {"first_name": "Bob", "last_name": "Neighbour"}),
}


def make_persona(name, cities_by_slug):
    username, role, slugs, names = PERSONAS[name]
    return make_user(username, role, [cities_by_slug[slug] for slug in slugs], **names)


def _persona(request, name):
    """The persona ``name``: the module's own when its tests share a ``scene``, else one
    made for this test."""
    if "scene" in request.fixturenames:
        return request.getfixturevalue("scene").people[name]
    # north_branch and glencoe, not ``cities``: a module may give ``cities`` a shape
    # of its own (tests/records).
    nb, gl = request.getfixturevalue("north_branch"), request.getfixturevalue("glencoe")
    return make_persona(name, {nb.slug: nb, gl.slug: gl})


@pytest.fixture
def clerk(request):
    return _persona(request, "clerk")


@pytest.fixture
def glencoe_clerk(request):
    return _persona(request, "glencoe_clerk")


@pytest.fixture
def officer(request):
    return _persona(request, "officer")


@pytest.fixture
def administrator(request):
    return _persona(request, "administrator")


@pytest.fixture
def resident(request):
    return _persona(request, "resident")


@pytest.fixture
def other_resident(request):
    return _persona(request, "other_resident")


@pytest.fixture(scope="module")
def scene_builder():
    """What ``scene`` builds: the walks' world (tests/world.py). A module whose tests
    share other records overrides this with its own (tests/test_city_scoping.py)."""
    from tests.world import build_scene

    return build_scene


@pytest.fixture(scope="module")
def scene(scene_builder, django_db_setup, django_db_blocker, tmp_path_factory):
    """The walks' world (tests/world.py) and the personas, built once for a module and
    rolled back after its last test. Each test runs in a savepoint inside it (the ``db``
    fixture), so it starts from the same rows and leaves nothing behind; the personas of
    a module that uses it are the scene's (``_persona``). Uploaded and issued files go
    to a folder of the module's."""
    from django.db import transaction
    from django.test import override_settings

    media = override_settings(MEDIA_ROOT=str(tmp_path_factory.mktemp("scene-media")))
    kept = transaction.atomic()
    with django_db_blocker.unblock():
        media.enable()
        kept.__enter__()
        try:
            nb, gl = (Jurisdiction.objects.get(slug=slug) for slug in DEMO_SLUGS)
            people = {name: make_persona(name, {nb.slug: nb, gl.slug: gl}) for name in PERSONAS}
            built = scene_builder(nb=nb, gl=gl, people=people)
        except BaseException:
            kept.__exit__(*sys.exc_info())
            media.disable()
            raise
    yield built
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        kept.__exit__(None, None, None)
        media.disable()


@pytest.fixture
def world(scene, db):
    """The scene's world for one test, at the moment it was built (tests/world.py NOW).
    A copy, as Django's ``setUpTestData`` gives each test: what one test changes on these
    objects in memory is not what the next one reads."""
    with time_machine.travel(scene.now, tick=False):
        yield copy.deepcopy(scene.world)


class Client(django.test.Client):
    """Django's test client, whose ``force_login`` also passes the second step,
    as the person would by typing their code: a session with a staff member's
    authenticator app is verified by it, and an administrator (who must have one) gets
    one set up first. tests/accounts/test_second_factor.py tests the step itself with a
    plain client."""

    # A walk over thousands of requests reads only their status and HTML: without this,
    # each template a page renders (and each it includes) is reported to the client,
    # which keeps a copy of its context for ``response.context`` (a tenth of the time).
    record_templates = True

    def request(self, **request):
        if self.record_templates:
            return super().request(**request)
        from django.template import Template
        from django.test.utils import _TestState

        recording = Template._render
        Template._render = _TestState.saved_data.template_render
        try:
            return super().request(**request)
        finally:
            Template._render = recording

    def force_login(self, user, backend=None):
        super().force_login(user, backend)
        from accounts.services import (
            has_second_factor,
            second_factor_required,
            session_pass_second_step,
        )
        from tests.totp import enrolled_device

        if second_factor_required(user):
            enrolled_device(user)
        if has_second_factor(user):
            session = self.session
            session_pass_second_step(session, user)
            session.save()


@pytest.fixture
def client():
    return Client()


def make_walk_client() -> Client:
    """A client for the walks over every page: the same, without ``response.context``
    and ``response.templates``."""
    client = Client()
    client.record_templates = False
    return client


@pytest.fixture
def walk_client():
    return make_walk_client()


@pytest.fixture
def client_as(client):
    """client_as(user) -> a test client logged in as that user."""

    def login(user):
        client.force_login(user)
        return client

    return login
