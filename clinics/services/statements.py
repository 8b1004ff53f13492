"""What a clinic owes the city and holds of its tags.

``clinic_statement``: one clinic, one city, one month: the licenses it sold with their
receipt numbers (REC-01), the fees it collected for the city by line with their
authority, the voids of its sales, the tags received, returned and lost, and the tags
it still holds unsold at the month's end (REC-02). ``clinic_balances``: every clinic of
the user's cities, month by month: sales, what is due, and the tags on hand.

Reads only, in a fixed number of queries whatever the rows (style.md): the statement's
opening count is worked back from the month's movements, not counted again.
"""

import calendar
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from itertools import groupby

from django.db.models import Count, F, Q, Sum
from django.db.models.functions import TruncMonth
from django.utils import timezone
from django.utils.formats import date_format

from licensing.models import Receipt, ReceiptLine
from ordinance.money import money_sum, to_money
from ordinance.rules import rule_citation

from ..models import (
    ClinicSale,
    ConsignedTag,
    ConsignmentBlock,
    ReconciliationKind,
    TagReconciliation,
)


def month_bounds(year: int, month: int) -> tuple[datetime, datetime]:
    """[first day 00:00, first day of the next month 00:00) in local time."""
    tz = timezone.get_current_timezone()
    last = calendar.monthrange(year, month)[1]
    after = date.fromordinal(date(year, month, last).toordinal() + 1)
    return (
        timezone.make_aware(datetime.combine(date(year, month, 1), time.min), tz),
        timezone.make_aware(datetime.combine(after, time.min), tz),
    )


def number_ranges(numbers) -> str:
    """41, 42, 43, 45 -> "41–43, 45"."""
    runs = []
    for _key, run in groupby(enumerate(sorted(numbers)), lambda p: p[1] - p[0]):
        values = [n for _i, n in run]
        runs.append(str(values[0]) if len(values) == 1 else f"{values[0]}–{values[-1]}")
    return ", ".join(runs)


@dataclass
class Statement:
    """A clinic's month with a city, as plain values (the PDF's snapshot is made of it)."""

    clinic: dict
    city: dict
    year: int
    month: int
    month_label: str
    sales: list = field(default_factory=list)
    voids: list = field(default_factory=list)
    fees: list = field(default_factory=list)
    received: list = field(default_factory=list)
    returned: list = field(default_factory=list)
    lost: list = field(default_factory=list)
    unsold: list = field(default_factory=list)
    closing: int = 0
    due: Decimal = field(default_factory=Decimal)  # the sum of the fees, set by the service
    receipt_citation: str = ""
    tag_citation: str = ""

    @property
    def counts(self) -> dict:
        received = sum(r["count"] for r in self.received)
        returned = sum(r["count"] for r in self.returned)
        lost = sum(r["count"] for r in self.lost)
        sold = len(self.sales)
        return {
            "opening": self.closing + sold + returned + lost - received,
            "received": received,
            "sold": sold,
            "returned": returned,
            "lost": lost,
            "closing": self.closing,
        }

    def as_context(self) -> dict:
        return {**asdict(self), "counts": self.counts}


def clinic_statement(*, clinic, jurisdiction, year: int, month: int) -> Statement:
    low, high = month_bounds(year, month)
    statement = Statement(
        clinic={"name": clinic.name, "address": clinic.address},
        city={
            "name": jurisdiction.name,
            "short_name": jurisdiction.short_name,
            "seal_text": jurisdiction.seal_text,
            "address": jurisdiction.address,
            "phone": jurisdiction.phone,
        },
        year=year,
        month=month,
        month_label=date_format(date(year, month, 1), "F Y"),
        receipt_citation=rule_citation(jurisdiction, "REC-01")
        or rule_citation(jurisdiction, "LIC-06"),
        tag_citation=rule_citation(jurisdiction, "REC-02"),
    )
    scope = {"clinic": clinic, "jurisdiction": jurisdiction}
    sales = list(
        ClinicSale.objects.filter(**scope, sold_at__gte=low, sold_at__lt=high)
        .select_related(
            "license__animal", "license__owner", "receipt__voided_by", "holding__tag", "sold_by"
        )
        .order_by("receipt__number")
    )
    voids = list(
        Receipt.objects.filter(
            voids__clinic_sale__clinic=clinic,
            jurisdiction=jurisdiction,
            issued_at__gte=low,
            issued_at__lt=high,
        )
        .select_related("voids")
        .order_by("number")
    )
    statement.sales = [_sale_row(s) for s in sales]
    statement.voids = [
        {"number": v.number, "voids": v.voids.number, "at": v.issued_at, "total": v.total}
        for v in voids
    ]
    statement.fees = _fee_totals([s.receipt_id for s in sales] + [v.pk for v in voids])
    statement.due = money_sum(row["amount"] for row in statement.fees)
    statement.received = _received(scope, low, high)
    _add_reconciliations(statement, clinic, jurisdiction, low, high)
    statement.unsold, statement.closing = _unsold_at(scope, high)
    return statement


def _sale_row(sale: ClinicSale) -> dict:
    license, receipt, tag = sale.license, sale.receipt, sale.holding.tag
    voided_by = getattr(receipt, "voided_by", None)
    return {
        "at": sale.sold_at,
        "receipt": receipt.number,
        "license": license.number,
        "tag": tag.number,
        "tag_year": tag.year,
        "animal": license.animal.name,
        "owner": license.owner.name,
        "total": receipt.total,
        "sold_by": sale.sold_by.get_full_name() or sale.sold_by.username,
        "voided_by": voided_by.number if voided_by else None,
    }


def _fee_totals(receipt_ids: list[int]) -> list[dict]:
    """The month's receipt lines by fee, with the authority that sets each (FEE-01)."""
    if not receipt_ids:
        return []
    rows = (
        ReceiptLine.objects.filter(receipt_id__in=receipt_ids)
        .order_by()
        .values("code", "description", "authority")
        .annotate(lines=Count("pk"), amount=Sum("amount"))
        .order_by("code", "-amount", "description")
    )
    return [{**row, "amount": to_money(row["amount"])} for row in rows]


def _received(scope, low, high) -> list[dict]:
    blocks = ConsignmentBlock.objects.filter(
        **scope, issued_at__gte=low, issued_at__lt=high
    ).select_related("issued_by")
    return [
        {
            "at": b.issued_at,
            "numbers": number_ranges(range(b.first_number, b.last_number + 1)),
            "year": b.year,
            "count": b.size,
            "who": b.issued_by.get_full_name() or b.issued_by.username,
            "why": b.note,
        }
        for b in blocks.order_by("issued_at", "pk")
    ]


def _add_reconciliations(statement, clinic, jurisdiction, low, high) -> None:
    records = (
        TagReconciliation.objects.filter(
            block__clinic=clinic,
            block__jurisdiction=jurisdiction,
            recorded_at__gte=low,
            recorded_at__lt=high,
        )
        .select_related("block", "recorded_by")
        .order_by("recorded_at", "pk")
    )
    for r in records:
        row = {
            "at": r.recorded_at,
            "numbers": r.numbers,
            "year": r.block.year,
            "count": r.count,
            "who": r.recorded_by.get_full_name() or r.recorded_by.username,
            "why": r.reason,
        }
        (statement.lost if r.kind == ReconciliationKind.LOST else statement.returned).append(row)


def _held_at(scope, moment: datetime):
    """The clinic's holdings it had not sold, returned or lost at ``moment``."""
    return ConsignedTag.objects.filter(
        block__clinic=scope["clinic"],
        block__jurisdiction=scope["jurisdiction"],
        block__issued_at__lt=moment,
    ).filter(Q(closed_at__isnull=True) | Q(closed_at__gte=moment))


def _unsold_at(scope, moment: datetime) -> tuple[list[dict], int]:
    """REC-02: the tags the clinic held unsold at ``moment``, as number ranges per year."""
    pairs = sorted(_held_at(scope, moment).values_list("tag__year", "tag__number"))
    rows = [
        {"year": year, "numbers": number_ranges(n for _y, n in group), "count": 0}
        for year, group in groupby(pairs, key=lambda p: p[0])
    ]
    counts = {}
    for year, _number in pairs:
        counts[year] = counts.get(year, 0) + 1
    for row in rows:
        row["count"] = counts[row["year"]]
    return rows, len(pairs)


# --- Clinic sales and balances by month -------------------------------

BALANCE_COLUMNS = [
    "city",
    "clinic",
    "month",
    "received",
    "sold",
    "returned",
    "lost",
    "on_hand",
    "collected",
    "voided",
    "due",
]


def _by_month(queryset, moment: str, **values):
    local = timezone.get_current_timezone()
    return (
        queryset.order_by()
        .annotate(month=TruncMonth(moment, tzinfo=local))
        .values("clinic_key", "clinic_name", "city_name", "month")
        .annotate(**values)
    )


def _keys(clinic: str, city: str) -> dict:
    return {
        "clinic_key": F(f"{clinic}_id"),
        "clinic_name": F(f"{clinic}__name"),
        "city_name": F(f"{city}__short_name"),
    }


class _Months:
    """Each (city, clinic) pair's movements by month, summed from the aggregates."""

    def __init__(self):
        self.slots: dict[tuple, dict] = {}

    def add(self, rows, **names) -> None:
        for row in rows:
            month = timezone.localtime(row["month"]).date()
            key = (row["city_name"], row["clinic_name"], row["clinic_key"], month)
            slot = self.slots.setdefault(key, {})
            for name, source in names.items():
                slot[name] = slot.get(name, 0) + (row[source] or 0)

    def pairs(self) -> list[tuple]:
        return sorted({key[:3] for key in self.slots})

    def before(self, pair, year: int) -> int:
        """Tags on hand when ``year`` began: every earlier month's net movement."""
        return sum(
            _net(slot) for key, slot in self.slots.items() if key[:3] == pair and key[3].year < year
        )


def clinic_balances(*, jurisdiction_ids, year: int, through: date) -> list[dict]:
    """One row per city, clinic and month of ``year`` up to ``through``: tags received,
    sold, returned and lost in the month and on hand at its end; what the clinic
    collected, what was voided and what is due to the city (LIC-06, REC-01, REC-02).
    Four aggregate queries, whatever the number of clinics, tags and sales."""
    size = F("last_number") - F("first_number") + 1
    months = _Months()
    months.add(
        _by_month(
            ConsignmentBlock.objects.filter(jurisdiction_id__in=jurisdiction_ids).annotate(
                **_keys("clinic", "jurisdiction")
            ),
            "issued_at",
            n=Sum(size),
        ),
        received="n",
    )
    months.add(
        _by_month(
            ClinicSale.objects.filter(jurisdiction_id__in=jurisdiction_ids).annotate(
                **_keys("clinic", "jurisdiction")
            ),
            "sold_at",
            n=Count("pk"),
            amount=Sum("receipt__total"),
        ),
        sold="n",
        collected="amount",
    )
    months.add(
        _by_month(
            Receipt.objects.filter(
                jurisdiction_id__in=jurisdiction_ids, voids__clinic_sale__isnull=False
            ).annotate(**_keys("voids__clinic_sale__clinic", "jurisdiction")),
            "issued_at",
            amount=Sum("total"),
        ),
        voided="amount",
    )
    months.add(
        _by_month(
            TagReconciliation.objects.filter(block__jurisdiction_id__in=jurisdiction_ids).annotate(
                **_keys("block__clinic", "block__jurisdiction")
            ),
            "recorded_at",
            returned=Sum(size, filter=Q(kind=ReconciliationKind.RETURNED)),
            lost=Sum(size, filter=Q(kind=ReconciliationKind.LOST)),
        ),
        returned="returned",
        lost="lost",
    )
    return _balance_rows(months, year=year, through=through)


def _balance_rows(months: _Months, *, year: int, through: date) -> list[dict]:
    last_month = through.month if through.year == year else 12
    rows = []
    for pair in months.pairs():
        on_hand = months.before(pair, year)
        for month in range(1, last_month + 1):
            slot = months.slots.get((*pair, date(year, month, 1)), {})
            on_hand += _net(slot)
            collected, voided = to_money(slot.get("collected")), to_money(slot.get("voided"))
            rows.append(
                {
                    "city": pair[0],
                    "clinic": pair[1],
                    "month": date(year, month, 1),
                    "received": slot.get("received", 0),
                    "sold": slot.get("sold", 0),
                    "returned": slot.get("returned", 0),
                    "lost": slot.get("lost", 0),
                    "on_hand": on_hand,
                    "collected": collected,
                    "voided": voided,
                    "due": collected + voided,
                }
            )
    return rows


def _net(slot: dict) -> int:
    gone = slot.get("sold", 0) + slot.get("returned", 0) + slot.get("lost", 0)
    return slot.get("received", 0) - gone
