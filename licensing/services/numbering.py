"""Official numbers: receipt numbers, license numbers and metal tags.

style.md "Official numbers are protected by the database": every allocation happens in
the caller's transaction under a row lock, and a unique constraint backs it up.

- Receipt numbers (LIC-06, REC-01) are one gap-free series per jurisdiction: the series
  row is locked with ``select_for_update`` in the same transaction as the receipt insert,
  so a rolled-back issue returns its number and two clerks queue on the lock.
- Tags (LIC-08, REC-02) are physical stock: the next free tag is claimed with
  ``select_for_update(skip_locked=True)`` so a second clerk takes the next tag instead of
  waiting; SQLite has no row locks but serialises writers (ordinance.sweeps.lock).
  A sale draws from the counter's stock, or from the tags a clinic holds on consignment
  (``TagSource``, issue 18 item 4): same claim, same lock, another set of tags.
"""

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from licensing.models import LicenseSeries, ReceiptSeries, Tag, TagStatus
from ordinance.refusals import Refused
from ordinance.rules import rule_citation
from ordinance.sweeps import lock

TAG = _l("Tag")


def _locked_series(model, **key):
    """Get (creating on first use) and lock one series row inside the current transaction."""
    if not model.objects.filter(**key).exists():
        try:
            with transaction.atomic():  # a savepoint: a concurrent first use may win the insert
                model.objects.create(**key)
        except IntegrityError:
            pass
    return model.objects.select_for_update().get(**key)


def _take(series) -> int:
    number = series.next_number
    series.next_number = number + 1
    series.save(update_fields=["next_number"])
    return number


def series_number_allocate(model, **key) -> int:
    """The next number of any gap-free series row (``next_number``) identified by ``key``:
    receipts' mechanism for other apps' official numbers (a city's citations, REC-14).
    Call inside the transaction that inserts the numbered row."""
    assert transaction.get_connection().in_atomic_block, "allocate inside the row's transaction"
    return _take(_locked_series(model, **key))


def receipt_number_allocate(*, jurisdiction) -> int:
    """The next receipt number of the city's series; call inside the receipt's transaction."""
    assert transaction.get_connection().in_atomic_block, "allocate inside the receipt transaction"
    return _take(_locked_series(ReceiptSeries, jurisdiction=jurisdiction))


def license_number_allocate(*, jurisdiction, kind: str, year: int) -> str:
    """A license number such as "2026-0042", one series per city, kind and year."""
    assert transaction.get_connection().in_atomic_block, "allocate inside the license transaction"
    series = _locked_series(LicenseSeries, jurisdiction=jurisdiction, kind=kind, year=year)
    return f"{year}-{_take(series):04d}"


@dataclass(frozen=True)
class TagSource:
    """The tags a sale may draw from other than the counter's stock: those a clinic holds
    on consignment (issue 18, item 4). ``tags`` is any set of ``Tag`` rows; ``holder``
    names who holds them in a refusal."""

    tags: QuerySet
    holder: str


def tag_claim(
    *, jurisdiction, year: int, number: int | None = None, source: TagSource | None = None
) -> Tag:
    """Lock and return an available tag: the lowest free number, or the one in the clerk's hand.

    The caller marks it issued in the same transaction. A typed number must be a tag of
    that year's stock that is still available (LIC-08, LIC-14); otherwise Refused.
    ``source``: draw from those tags instead (a clinic's consignment): a number of the
    city's stock or of another clinic is refused all the same.
    """
    pool = source.tags if source else Tag.objects.filter(status=TagStatus.AVAILABLE)
    available = pool.filter(jurisdiction=jurisdiction, year=year)
    if number is not None:
        tag = lock(available.filter(number=number)).first()
        if tag is None:
            raise Refused.because(
                TAG, _not_available(number, year, source), _lic14(jurisdiction), field="tag_number"
            )
        return tag
    tag = lock(available.order_by("number")).first()
    if tag is None:
        raise Refused.because(
            TAG,
            _("%(holder)s holds no unsold %(year)s tags; ask the city for more.")
            % {"holder": source.holder, "year": year}
            if source
            else _("No %(year)s tags are left in stock; enter the new stock first.")
            % {"year": year},
            rule_citation(jurisdiction, "LIC-08"),
        )
    return tag


def _lic14(jurisdiction) -> str:
    return rule_citation(jurisdiction, "LIC-14")


def _not_available(number: int, year: int, source: TagSource | None) -> str:
    if source:
        return _("Tag %(number)s of %(year)s is not an unsold tag held by %(holder)s.") % {
            "number": number,
            "year": year,
            "holder": source.holder,
        }
    return _("Tag %(number)s of %(year)s is not an available tag of this city's stock.") % {
        "number": number,
        "year": year,
    }
