"""Counter reports: aggregation in SQL, scoped to the cities a user serves.

Every report is a list of dict rows with the same keys for the HTML table and the CSV
download; the number of queries does not grow with the data (one aggregate each).
"""

from datetime import date, datetime, time
from decimal import Decimal

from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from licensing.models import (
    License,
    LicenseStatus,
    ReceiptLine,
    RenewalNotice,
    Tag,
    TagStatus,
)
from ordinance.money import money_sum, to_money

# How services.voids describes a void line (untranslated: the stored text is English).
VOID_PREFIX = "Void: %(d)s"


def _day_bounds(start: date, end: date) -> tuple[datetime, datetime]:
    """[start 00:00, end+1 00:00) in local time, so a receipt at 23:59 counts on its day."""
    tz = timezone.get_current_timezone()
    after_end = date.fromordinal(end.toordinal() + 1)
    return (
        timezone.make_aware(datetime.combine(start, time.min), tz),
        timezone.make_aware(datetime.combine(after_end, time.min), tz),
    )


def report_revenue(*, jurisdiction_ids, start: date, end: date) -> list[dict]:
    """Receipt lines by city and fee code (LIC-06, REC-01); voids are negative lines, netted."""
    low, high = _day_bounds(start, end)
    rows = (
        ReceiptLine.objects.filter(
            receipt__jurisdiction_id__in=jurisdiction_ids,
            receipt__issued_at__gte=low,
            receipt__issued_at__lt=high,
        )
        .order_by()
        .values("receipt__jurisdiction__short_name", "code")
        .annotate(
            # The fee's own description, from a charged line (a void line's reads "Void:
            # ..."); a code with only voids in the range falls back below.
            fee_description=Max("description", filter=Q(amount__gt=0)),
            any_description=Max("description"),
            charged=Count("pk", filter=Q(amount__gt=0)),
            voided=Count("pk", filter=Q(amount__lt=0)),
            net=Sum("amount"),
        )
        .order_by("receipt__jurisdiction__short_name", "code")
    )
    return [
        {
            "city": r["receipt__jurisdiction__short_name"],
            "code": r["code"],
            "description": r["fee_description"] or _fee_description(r),
            "charged": r["charged"],
            "voided": r["voided"],
            "net": _money(r["net"]),
        }
        for r in rows
    ]


def _fee_description(row) -> str:
    """A fee code with no charged line in the range: the description its void copied."""
    text = row["any_description"] or row["code"]
    prefix = VOID_PREFIX.split("%")[0]
    return text[len(prefix) :] if text.startswith(prefix) else text


def revenue_totals(rows: list[dict]) -> dict:
    """The revenue report's total row: lines charged and voided, net."""
    return {
        "charged": sum(r["charged"] for r in rows),
        "voided": sum(r["voided"] for r in rows),
        "net": money_sum(r["net"] for r in rows),
    }


def _money(value) -> Decimal:
    """Two places whatever the database's SUM returns (SQLite drops trailing zeros)."""
    return to_money(value)


def report_issued(*, jurisdiction_ids, start: date, end: date) -> list[dict]:
    """Licenses issued in the range, by city and kind, with how many are now void."""
    rows = (
        License.objects.filter(jurisdiction_id__in=jurisdiction_ids, issued_on__range=(start, end))
        .order_by()
        .values("jurisdiction__short_name", "kind")
        .annotate(
            issued=Count("pk"),
            late=Count("pk", filter=Q(late_penalty=True)),
            void=Count("pk", filter=Q(status=LicenseStatus.VOID)),
        )
        .order_by("jurisdiction__short_name", "kind")
    )
    return [
        {
            "city": r["jurisdiction__short_name"],
            "kind": r["kind"],
            "issued": r["issued"],
            "late_penalty": r["late"],
            "void": r["void"],
        }
        for r in rows
    ]


def report_tags(*, jurisdiction_ids, start: date, end: date, on: date) -> list[dict]:
    """Tags per city and year stamped (start.year..end.year): on current licenses, in stock,
    at clinics selling on consignment, lost, void (LIC-08, LIC-10)."""
    current = Q(
        status=TagStatus.ISSUED, license__status=LicenseStatus.ACTIVE, license__expires_on__gte=on
    )
    rows = (
        Tag.objects.filter(jurisdiction_id__in=jurisdiction_ids, year__range=(start.year, end.year))
        .order_by()
        .values("jurisdiction__short_name", "year")
        .annotate(
            current=Count("pk", filter=current),
            issued=Count("pk", filter=Q(status=TagStatus.ISSUED)),
            available=Count("pk", filter=Q(status=TagStatus.AVAILABLE)),
            consigned=Count("pk", filter=Q(status=TagStatus.CONSIGNED)),
            lost=Count("pk", filter=Q(status=TagStatus.LOST)),
            void=Count("pk", filter=Q(status=TagStatus.VOID)),
            total=Count("pk"),
        )
        .order_by("jurisdiction__short_name", "-year")
    )
    return [
        {
            "city": r["jurisdiction__short_name"],
            "year": r["year"],
            "on_current_licenses": r["current"],
            "issued": r["issued"],
            "in_stock": r["available"],
            "at_clinics": r["consigned"],
            "lost": r["lost"],
            "void": r["void"],
            "total": r["total"],
        }
        for r in rows
    ]


def expiring_licenses(*, jurisdiction_ids, start: date, end: date):
    """Active licenses whose expiry falls in the range (LIC-07): the expiring report's rows,
    and the renewal notices printed from it."""
    return License.objects.filter(
        jurisdiction_id__in=jurisdiction_ids,
        status=LicenseStatus.ACTIVE,
        expires_on__range=(start, end),
    )


def address_lines(*, street: str, unit: str, city: str, state: str, postal_code: str) -> list:
    """A mailing address as an envelope's lines; [] when the street, city or ZIP code is
    missing (no notice can be mailed there)."""
    if not all((part or "").strip() for part in (street, city, postal_code)):
        return []
    return [f"{street} {unit}".strip(), f"{city}, {state} {postal_code}".strip()]


def report_expiring(*, jurisdiction_ids, start: date, end: date, limit: int | None = None):
    """Active licenses whose expiry falls in the range (LIC-07), with owner contact: phone,
    mailing address, e-mail and when a renewal notice was printed. One
    query: the latest notice comes in as a subquery."""
    printed = RenewalNotice.objects.filter(
        license=OuterRef("pk"), owner=OuterRef("owner")
    ).order_by("-printed_at")
    rows = (
        expiring_licenses(jurisdiction_ids=jurisdiction_ids, start=start, end=end)
        .annotate(notice_printed_at=Subquery(printed.values("printed_at")[:1]))
        .order_by("expires_on", "jurisdiction__short_name", "number")
        .values(
            "jurisdiction__short_name",
            "number",
            "expires_on",
            "animal__name",
            "owner__first_name",
            "owner__last_name",
            "owner__organization_name",
            "owner__phone",
            "owner__email",
            "owner__address_line",
            "owner__unit",
            "owner__city",
            "owner__state",
            "owner__postal_code",
            "notice_printed_at",
            "pk",
        )
    )
    if limit is not None:
        rows = rows[:limit]
    return [
        {
            "city": r["jurisdiction__short_name"],
            "license": r["number"],
            "expires_on": r["expires_on"],
            "animal": r["animal__name"],
            "owner": (
                r["owner__organization_name"]
                or f"{r['owner__first_name']} {r['owner__last_name']}".strip()
            ),
            "phone": r["owner__phone"],
            "address": ", ".join(
                address_lines(
                    street=r["owner__address_line"],
                    unit=r["owner__unit"],
                    city=r["owner__city"],
                    state=r["owner__state"],
                    postal_code=r["owner__postal_code"],
                )
            ),
            "email": r["owner__email"],
            "notice_printed": (
                timezone.localdate(r["notice_printed_at"]) if r["notice_printed_at"] else None
            ),
            "pk": r["pk"],
        }
        for r in rows
    ]


def tag_lookup(*, jurisdiction_ids, number: int, year: int) -> list[Tag]:
    """Tags with that number and year in the user's cities, with license, dog and owner
    (LIC-09: a lost dog's owner by tag number). One query."""
    return list(
        Tag.objects.filter(
            jurisdiction_id__in=jurisdiction_ids, number=number, year=year
        ).select_related("jurisdiction", "license__animal", "license__owner")
    )
