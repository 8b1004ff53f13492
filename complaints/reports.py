"""Complaint and citation reports: complaints by kind and month, repeat
addresses, citations by status and charge class.

Each report is one service for the page's table and chart and its CSV, so the three
agree. The counting is done by the database (GROUP BY), one query per report whatever the
number of rows, scoped to the cities the user serves; Python only lays the grouped rows
out as a table. Dates are local dates (``TIME_ZONE``), both ends included.
"""

from datetime import date

from django.db.models import Count, DateField, Max, Min
from django.db.models.functions import TruncMonth

from citations.models import ChargeClass, Citation, CitationStatus

from .models import Complaint, Kind

KIND_COLUMNS = tuple(Kind.values)
CLASS_COLUMNS = tuple(ChargeClass.values)

BY_KIND_COLUMNS = ("city", "month", *KIND_COLUMNS, "total")
REPEAT_COLUMNS = ("city", "address", "complaints", "kinds", "first", "last", "premises")
CITATION_COLUMNS = ("city", "status", *CLASS_COLUMNS, "total")


def _complaints(jurisdiction_ids, start: date, end: date):
    return Complaint.objects.filter(
        jurisdiction_id__in=jurisdiction_ids, occurred_at__date__range=(start, end)
    )


def complaints_by_kind_month(*, jurisdiction_ids, start: date, end: date) -> list[dict]:
    """One row per city and month with a complaint, a count per kind and the total."""
    grouped = (
        _complaints(jurisdiction_ids, start, end)
        .annotate(month=TruncMonth("occurred_at", output_field=DateField()))
        .values("jurisdiction__short_name", "month", "kind")
        .annotate(n=Count("pk"))
        .order_by("jurisdiction__short_name", "month", "kind")
    )
    rows: dict[tuple, dict] = {}
    for g in grouped:
        key = (g["jurisdiction__short_name"], g["month"])
        row = rows.setdefault(
            key,
            {"city": key[0], "month": f"{key[1]:%Y-%m}", **dict.fromkeys(KIND_COLUMNS, 0)},
        )
        row[g["kind"]] = g["n"]
    for row in rows.values():
        row["total"] = sum(row[k] for k in KIND_COLUMNS)
    return list(rows.values())


def repeat_addresses(*, jurisdiction_ids, start: date, end: date) -> list[dict]:
    """Addresses (as normalized at intake) with more than one complaint in the range,
    most complaints first."""
    grouped = (
        _complaints(jurisdiction_ids, start, end)
        .values("jurisdiction__short_name", "address_key")
        .annotate(
            complaints=Count("pk"),
            kinds=Count("kind", distinct=True),
            first=Min("occurred_at"),
            last=Max("occurred_at"),
            address=Max("address_line"),
            unit=Max("unit"),
            premises=Max("premises_id"),
        )
        .filter(complaints__gt=1)
        .order_by("-complaints", "jurisdiction__short_name", "address_key")
    )
    return [
        {
            "city": g["jurisdiction__short_name"],
            "address": f"{g['address']} {g['unit']}".strip(),
            "complaints": g["complaints"],
            "kinds": g["kinds"],
            "first": g["first"],
            "last": g["last"],
            "premises": g["premises"],
        }
        for g in grouped
    ]


def citations_by_status_class(*, jurisdiction_ids, start: date, end: date) -> list[dict]:
    """One row per city and status (in the status order) with a count per charge class,
    for citations issued in the range."""
    grouped = (
        Citation.objects.filter(
            jurisdiction_id__in=jurisdiction_ids, issued_at__date__range=(start, end)
        )
        .values("jurisdiction__short_name", "status", "charge_class")
        .annotate(n=Count("pk"))
        .order_by("jurisdiction__short_name")
    )
    order = {status: i for i, status in enumerate(CitationStatus.values)}
    rows: dict[tuple, dict] = {}
    for g in grouped:
        key = (g["jurisdiction__short_name"], g["status"])
        row = rows.setdefault(
            key, {"city": key[0], "status": key[1], **dict.fromkeys(CLASS_COLUMNS, 0)}
        )
        row[g["charge_class"]] = g["n"]
    for row in rows.values():
        row["total"] = sum(row[c] for c in CLASS_COLUMNS)
    return sorted(rows.values(), key=lambda r: (r["city"], order[r["status"]]))
