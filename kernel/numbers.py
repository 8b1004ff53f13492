"""One allocator for every official number: receipts, licenses, cases, citations, permits.

style.md "Official numbers are protected by the database": the series row is locked in
the same transaction as the insert of the numbered row, so a rolled-back insert returns
its number (no gap) and two clerks queue on the lock instead of colliding; a unique
constraint on each numbered model backs it up.
"""

from django.db import IntegrityError, transaction

from .models import NumberSeries


def allocate(jurisdiction, series: str, year: int = 0) -> int:
    """The next number of the city's ``series`` (of ``year``; 0 for a series that does
    not restart each year). Call inside the transaction that inserts the numbered row."""
    assert transaction.get_connection().in_atomic_block, "allocate inside the row's transaction"
    key = {"jurisdiction_id": getattr(jurisdiction, "pk", jurisdiction), "series": series}
    key["year"] = year
    if not NumberSeries.objects.filter(**key).exists():
        try:
            with transaction.atomic():  # a savepoint: a concurrent first use may win the insert
                NumberSeries.objects.create(**key)
        except IntegrityError:
            pass
    row = NumberSeries.objects.select_for_update().get(**key)
    NumberSeries.objects.filter(pk=row.pk).update(next_number=row.next_number + 1)
    return row.next_number


def year_number(jurisdiction, series: str, year: int, prefix: str = "") -> str:
    """A yearly number as printed: ``2026-0042``, or ``BR-2026-0001`` with a prefix."""
    number = f"{year}-{allocate(jurisdiction, series, year):04d}"
    return f"{prefix}-{number}" if prefix else number
