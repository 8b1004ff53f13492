"""Official numbers: receipt numbers, license numbers and metal tags.

style.md "Official numbers are protected by the database": every allocation happens in
the caller's transaction under a row lock, and a unique constraint backs it up.

- Receipt numbers (LIC-06, REC-01) are one gap-free series per jurisdiction, license
  numbers ("2026-0042") one per jurisdiction, kind and year: both are series of the
  kernel's one allocator (``kernel.numbers``), locked in the same transaction as the
  insert, so a rolled-back issue returns its number and two clerks queue on the lock.
- Tags (LIC-08, REC-02) are physical stock: the next free tag is claimed with
  ``select_for_update(skip_locked=True)`` so a second clerk takes the next tag instead of
  waiting; SQLite has no row locks but serialises writers (ordinance.sweeps.lock).
  A sale draws from the counter's stock, or from the tags a clinic holds on consignment
  (``TagSource``): same claim, same lock, another set of tags.
"""

from dataclasses import dataclass

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from kernel.models import NumberSeries
from licensing.models import Tag, TagStatus
from ordinance.refusals import Refused
from ordinance.rules import rule_citation
from ordinance.sweeps import lock

TAG = _l("Tag")

# The city's series of the kernel's allocator (``kernel.numbers.allocate``).
RECEIPTS = "receipt"  # one series, no year
DOG_LICENSES = "license-dog"  # one series a year
KENNEL_LICENSES = "license-kennel"  # one series a year


def numbers_continue_after(jurisdiction, series: str, highest: int, year: int = 0) -> None:
    """Move the city's ``series`` past ``highest``, a number already used outside it
    (an imported license or receipt), so the next one allocated follows it."""
    assert transaction.get_connection().in_atomic_block, "inside the import's transaction"
    row, _created = NumberSeries.objects.select_for_update().get_or_create(
        jurisdiction=jurisdiction, series=series, year=year
    )
    if row.next_number <= highest:
        NumberSeries.objects.filter(pk=row.pk).update(next_number=highest + 1)


@dataclass(frozen=True)
class TagSource:
    """The tags a sale may draw from other than the counter's stock: those a clinic holds
    on consignment. ``tags`` is any set of ``Tag`` rows; ``holder``
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
