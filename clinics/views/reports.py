"""The clinic reports' pages: a chart drawn on the server, the same
numbers in a table, and ``?format=csv`` with the same rows. A date range (licensing's
report form), the user's cities only; the clerk and the administrator."""

import csv
from collections import defaultdict
from datetime import date

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.access import role_required
from base.charts import Series, bar_chart_svg
from base.csvcells import safe_cell
from base.roles import ADMINISTRATOR, CLERK
from licensing.forms.reports import DateRangeForm

from .. import reports

REPORT_ROLES = (CLERK, ADMINISTRATOR)

COLUMN_LABELS = {
    "city": gettext_lazy("City"),
    "clinic": gettext_lazy("Clinic"),
    "month": gettext_lazy("Month"),
    "received": gettext_lazy("Received"),
    "matched": gettext_lazy("Matched by the software"),
    "confirmed": gettext_lazy("Confirmed by the clerk"),
    "registered": gettext_lazy("Registered as new"),
    "rejected": gettext_lazy("Rejected"),
    "waiting": gettext_lazy("Waiting for the clerk"),
    "match_rate": gettext_lazy("Match rate"),
    "recorded_rate": gettext_lazy("Recorded"),
}


def _by_month_chart(rows):
    months = sorted({r["month"] for r in rows})
    received = defaultdict(lambda: defaultdict(int))
    for row in rows:
        received[row["clinic"]][row["month"]] += row["received"]
    return bar_chart_svg(
        title=_("Certificates received by month"),
        desc=_(
            "A bar per month and clinic: the certificates received. The table has each outcome."
        ),
        categories=months,
        series=[Series(name, [by[m] for m in months]) for name, by in sorted(received.items())],
        element_id="certificates-by-month",
    )


def _match_rate_chart(rows):
    return bar_chart_svg(
        title=_("Certificates by clinic and outcome"),
        desc=_(
            "A bar per clinic and outcome: the number of certificates. The table has the shares."
        ),
        categories=[f"{r['clinic']} ({r['city']})" for r in rows],
        series=[
            Series(str(COLUMN_LABELS[key]), [r[key] for r in rows])
            for key in ("matched", "confirmed", "registered", "rejected", "waiting")
        ],
        element_id="certificates-match-rate",
    )


REPORTS = {
    "certificates": (
        gettext_lazy("Certificates received by clinic and month"),
        reports.certificates_by_clinic_month,
        reports.BY_MONTH_COLUMNS,
        _by_month_chart,
    ),
    "match_rate": (
        gettext_lazy("Certificate match rate by clinic"),
        reports.match_rate_by_clinic,
        reports.MATCH_RATE_COLUMNS,
        _match_rate_chart,
    ),
}


def _csv(key, columns, rows, start, end):
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = f"clinic-{key.replace('_', '-')}-{start:%Y%m%d}-{end:%Y%m%d}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    writer = csv.writer(response)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([safe_cell(row[c]) for c in columns])
    return response


def report_list():
    return [(reverse(f"clinics:report_{key}"), title) for key, (title, *_) in REPORTS.items()]


def _report(request, key):
    title, service, columns, chart = REPORTS[key]
    today = timezone.localdate()
    default = {"start": date(today.year, 1, 1), "end": today}
    bound = "start" in request.GET or "end" in request.GET
    form = DateRangeForm(request.GET if bound else None, initial=default)
    context = {"title": title, "form": form, "reports": report_list(), "rows": None}
    if bound and not form.is_valid():
        return render(request, "clinics/report.html", context, status=400)
    span = form.cleaned_data if bound else default
    ids = request.user.jurisdiction_ids
    if len(ids) < 2:
        columns = [c for c in columns if c != "city"]
    rows = service(jurisdiction_ids=ids, start=span["start"], end=span["end"])
    if request.GET.get("format") == "csv":
        return _csv(key, columns, rows, span["start"], span["end"])
    context.update(
        headers=[COLUMN_LABELS[c] for c in columns],
        rows=[[row[c] for c in columns] for row in rows],
        chart=chart(rows) if rows else None,
        query=request.GET.urlencode(),
    )
    return render(request, "clinics/report.html", context)


@role_required(*REPORT_ROLES)
def report_certificates(request):
    return _report(request, "certificates")


@role_required(*REPORT_ROLES)
def report_match_rate(request):
    return _report(request, "match_rate")
