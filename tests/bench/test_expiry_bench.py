"""Benchmark: the December 31 expiry of one million licenses (LIC-07; architecture.md).

Seeds one million active licenses with INSERT ... SELECT generate_series (one owner,
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

from licensing.models import License, LicenseStatus
from licensing.services.expiry import licenses_expire
from tests.conftest import make_user
from tests.licensing.factories import OwnerFactory

ROWS = {"small": 2_000, "full": 1_000_000}
NEW_YEAR = datetime(2027, 1, 1, 0, 5, tzinfo=ZoneInfo("America/Chicago"))

pytestmark = [pytest.mark.bench, pytest.mark.postgres]

SEED_ANIMALS = """
INSERT INTO licensing_animal (jurisdiction_id, species, name, breed, color, sex, sterilized,
    dob_is_estimate, microchip, distinguishing_traits, photo, owner_id, status,
    is_service_animal, is_law_enforcement, created_at, kind)
SELECT %(j)s, 'dog', 'Bench ' || i, '', '', 'unknown', false, false, '', '', '', %(owner)s,
    'alive', false, false, now(), ''
FROM generate_series(1, %(rows)s) AS i
"""

SEED_LICENSES = """
INSERT INTO licensing_license (jurisdiction_id, number, kind, animal_id, owner_id, term_start,
    expires_on, status, issued_on, issued_by_id, late_penalty, status_reason, created_at)
SELECT %(j)s, 'B-' || a.id, 'dog', a.id, %(owner)s, DATE '2026-01-01', DATE '2026-12-31',
    'active', DATE '2026-01-15', %(user)s, false, '', now()
FROM licensing_animal a WHERE a.owner_id = %(owner)s
"""

BARE_UPDATE = """
UPDATE licensing_license SET status = 'expired'
WHERE status = 'active' AND expires_on IS NOT NULL AND expires_on < DATE '2027-01-01'
"""


def run(sql, params=None):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def vacuum():
    run("VACUUM ANALYZE licensing_license")
    run("VACUUM ANALYZE licensing_historicallicense")


@pytest.mark.django_db(transaction=True)
def test_the_expiry_sweep_expires_every_license_timed_against_a_bare_update(
    postgres_only, north_branch, stopwatch, bench_size
):
    rows = ROWS[bench_size]
    user = make_user("bench", "clerk", [north_branch])
    owner = OwnerFactory(jurisdiction=north_branch)
    params = {"j": north_branch.pk, "owner": owner.pk, "user": user.pk, "rows": rows}
    with stopwatch(f"seed {rows:,} animals and active licenses (INSERT ... SELECT)"):
        run(SEED_ANIMALS, params)
        assert run(SEED_LICENSES, params) == rows
    vacuum()

    with stopwatch(f"expiry sweep, {rows:,} licenses (UPDATE + history + events)") as sweep:
        result = licenses_expire(now=NEW_YEAR)
    assert result.applied == rows
    assert License.history.filter(history_change_reason="expired (automatic)").count() == rows
    assert License.objects.filter(status=LicenseStatus.EXPIRED).count() == rows  # LIC-07
    assert licenses_expire(now=NEW_YEAR).applied == 0  # a second run finds nothing

    # Reset: the same rows active again, no history rows, and a clean heap.
    run(
        "UPDATE licensing_license SET status = 'active', status_changed_on = NULL, "
        "status_reason = ''"
    )
    run("TRUNCATE licensing_historicallicense")
    vacuum()

    with stopwatch(f"bare UPDATE ... SET status='expired', {rows:,} rows") as bare:
        assert run(BARE_UPDATE) == rows
    assert not License.objects.filter(status=LicenseStatus.ACTIVE).exists()
    print(f"[bench] sweep / bare UPDATE = {sweep.seconds / bare.seconds:.2f}x")
