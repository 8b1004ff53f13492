"""The clinic reports: rabies certificates received by clinic and
month, and each clinic's match rate.

One service per report feeds the page's table, its chart and its CSV, so the three agree.
The database does the counting (one GROUP BY query whatever the number of certificates),
scoped to the cities the user serves; months and days are local (``TIME_ZONE``), both
ends of the range included. A certificate counts in the month it was received.

- *matched*: applied by the software, the score at or above the threshold;
- *confirmed*, *registered*: queued, then the clerk confirmed the animal or registered
  the owner and animal the certificate names;
- *rejected*, *waiting*: rejected by the clerk, or still in the queue;
- *match rate*: the share the software matched on its own; *recorded*: the share that
  ended on an animal's record by any path. Both over the certificates received.
"""

from datetime import date

from django.db.models import Count, DateField, Q
from django.db.models.functions import TruncMonth

from .models import CertificateSubmission, SubmissionStatus

STATUS_COLUMNS = {
    "matched": SubmissionStatus.MATCHED,
    "confirmed": SubmissionStatus.CONFIRMED,
    "registered": SubmissionStatus.REGISTERED,
    "rejected": SubmissionStatus.REJECTED,
    "waiting": SubmissionStatus.QUEUED,
}
RECORDED = ("matched", "confirmed", "registered")

BY_MONTH_COLUMNS = ("city", "clinic", "month", "received", *STATUS_COLUMNS, "match_rate")
MATCH_RATE_COLUMNS = ("city", "clinic", "received", *STATUS_COLUMNS, "match_rate", "recorded_rate")


def _percent(part: int, whole: int) -> str:
    """A share as a whole percent, rounded half up; blank when nothing was received."""
    if not whole:
        return ""
    return f"{(200 * part + whole) // (2 * whole)}%"


def _submissions(jurisdiction_ids, start: date, end: date):
    return CertificateSubmission.objects.filter(
        jurisdiction_id__in=jurisdiction_ids, submitted_at__date__range=(start, end)
    )


def _counts() -> dict:
    return {
        "received": Count("pk"),
        **{key: Count("pk", filter=Q(status=value)) for key, value in STATUS_COLUMNS.items()},
    }


def _row(g: dict) -> dict:
    row = {
        "city": g["jurisdiction__short_name"],
        "clinic": g["clinic__name"],
        "received": g["received"],
        **{key: g[key] for key in STATUS_COLUMNS},
    }
    row["match_rate"] = _percent(g["matched"], g["received"])
    row["recorded_rate"] = _percent(sum(g[k] for k in RECORDED), g["received"])
    return row


def certificates_by_clinic_month(*, jurisdiction_ids, start: date, end: date) -> list[dict]:
    """One row per city, clinic and month with a certificate received."""
    group = ("jurisdiction__short_name", "clinic__name", "month")
    grouped = (
        _submissions(jurisdiction_ids, start, end)
        .annotate(month=TruncMonth("submitted_at", output_field=DateField()))
        .values(*group)
        .annotate(**_counts())
        .order_by(*group)
    )
    return [{**_row(g), "month": f"{g['month']:%Y-%m}"} for g in grouped]


def match_rate_by_clinic(*, jurisdiction_ids, start: date, end: date) -> list[dict]:
    """One row per city and clinic over the whole range, with both shares."""
    group = ("jurisdiction__short_name", "clinic__name")
    grouped = (
        _submissions(jurisdiction_ids, start, end)
        .values(*group)
        .annotate(**_counts())
        .order_by(*group)
    )
    return [_row(g) for g in grouped]
