"""Benchmark: the December 31 expiry of one million licences (LIC-07; architecture.md).

Seeds one million active licences with INSERT ... SELECT generate_series (one owner,
one million animals), then times the expiry sweep (the UPDATE plus its bulk history
INSERT ... SELECT and the per-city summary events) and, after resetting, a bare
``UPDATE ... SET status='expired' WHERE ...`` on the same rows, and prints both.
Every suite runs it with 2,000 licenses, `make bench` (BENCH_SIZE=full) with one million
(PostgreSQL).
"""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.db import connection

from licensing.models import Licence, LicenceStatus
from licensing.services.expiry import licences_expire
from tests.conftest import make_user
from tests.licensing.factories import OwnerFactory

ROWS = {"small": 2_000, "full": 1_000_000}
NEW_YEAR = datetime(2027, 1, 1, 0, 5, tzinfo=ZoneInfo("America/Chicago"))

pytestmark = [pytest.mark.bench, pytest.mark.postgres]

SEED_ANIMALS = """
INSERT INTO licensing_animal (jurisdiction_id, species, name, breed, colour, sex, sterilized,
    dob_is_estimate, microchip, distinguishing_traits, photo, owner_id, status,
    is_service_animal, is_law_enforcement, created_at)
SELECT %(j)s, 'dog', 'Bench ' || i, '', '', 'unknown', false, false, '', '', '', %(owner)s,
    'alive', false, false, now()
FROM generate_series(1, %(rows)s) AS i
"""

SEED_LICENCES = """
INSERT INTO licensing_licence (jurisdiction_id, number, kind, animal_id, owner_id, term_start,
    expires_on, status, issued_on, issued_by_id, late_penalty, status_reason, created_at)
SELECT %(j)s, 'B-' || a.id, 'dog', a.id, %(owner)s, DATE '2026-01-01', DATE '2026-12-31',
    'active', DATE '2026-01-15', %(user)s, false, '', now()
FROM licensing_animal a WHERE a.owner_id = %(owner)s
"""

BARE_UPDATE = """
UPDATE licensing_licence SET status = 'expired'
WHERE status = 'active' AND expires_on IS NOT NULL AND expires_on < DATE '2027-01-01'
"""


def run(sql, params=None):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def vacuum():
    run("VACUUM ANALYZE licensing_licence")
    run("VACUUM ANALYZE licensing_historicallicence")


@pytest.mark.django_db(transaction=True)
def test_the_expiry_sweep_expires_every_licence_timed_against_a_bare_update(
    postgres_only, north_branch, stopwatch, bench_size
):
    rows = ROWS[bench_size]
    user = make_user("bench", "clerk", [north_branch])
    owner = OwnerFactory(jurisdiction=north_branch)
    params = {"j": north_branch.pk, "owner": owner.pk, "user": user.pk, "rows": rows}
    with stopwatch(f"seed {rows:,} animals and active licences (INSERT ... SELECT)"):
        run(SEED_ANIMALS, params)
        assert run(SEED_LICENCES, params) == rows
    vacuum()

    with stopwatch(f"expiry sweep, {rows:,} licences (UPDATE + history + events)") as sweep:
        result = licences_expire(now=NEW_YEAR)
    assert result.applied == rows
    assert Licence.history.filter(history_change_reason="expired (automatic)").count() == rows
    assert Licence.objects.filter(status=LicenceStatus.EXPIRED).count() == rows  # LIC-07
    assert licences_expire(now=NEW_YEAR).applied == 0  # a second run finds nothing

    # Reset: the same rows active again, no history rows, and a clean heap.
    run("UPDATE licensing_licence SET status = 'active', status_changed_on = NULL, "
        "status_reason = ''")
    run("TRUNCATE licensing_historicallicence")
    vacuum()

    with stopwatch(f"bare UPDATE ... SET status='expired', {rows:,} rows") as bare:
        assert run(BARE_UPDATE) == rows
    assert not Licence.objects.filter(status=LicenceStatus.ACTIVE).exists()
    print(f"[bench] sweep / bare UPDATE = {sweep.seconds / bare.seconds:.2f}x")
