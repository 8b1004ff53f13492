"""Complaint and citation reports: a page with a chart drawn on the
server (base.charts) and the same numbers in a table, and ``?format=csv`` with the same
rows. A date range (licensing's report form), the user's cities only; staff only."""

import csv
from collections import defaultdict
from datetime import date

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.access import role_required
from base.charts import Series, bar_chart_svg
from base.csvcells import safe_cell
from base.roles import STAFF_ROLES
from citations.models import ChargeClass, CitationStatus
from licensing.forms.reports import DateRangeForm

from . import reports
from .models import Kind

REPORT_ROLES = STAFF_ROLES
# The repeat-address chart shows the addresses with the most complaints (a screen
# setting; the table and the CSV have them all).
REPEAT_CHART_ADDRESSES = 8

KIND_LABELS = dict(Kind.choices)
CLASS_LABELS = dict(ChargeClass.choices)
STATUS_LABELS = dict(CitationStatus.choices)
COLUMN_LABELS = {
    "city": gettext_lazy("City"),
    "month": gettext_lazy("Month"),
    "total": gettext_lazy("Total"),
    "address": gettext_lazy("Address"),
    "complaints": gettext_lazy("Complaints"),
    "kinds": gettext_lazy("Kinds"),
    "first": gettext_lazy("First"),
    "last": gettext_lazy("Latest"),
    "status": gettext_lazy("Status"),
    **KIND_LABELS,
    **CLASS_LABELS,
}


def _kinds_chart(rows):
    totals = defaultdict(lambda: defaultdict(int))
    months = sorted({r["month"] for r in rows})
    for row in rows:
        totals[row["city"]][row["month"]] += row["total"]
    return bar_chart_svg(
        title=_("Complaints by month"),
        desc=_("A bar per month and city: the number of complaints. The table has each kind."),
        categories=months,
        series=[Series(city, [by[m] for m in months]) for city, by in sorted(totals.items())],
        element_id="complaints-by-month",
    )


def _repeats_chart(rows):
    top = rows[:REPEAT_CHART_ADDRESSES]
    return bar_chart_svg(
        title=_("Addresses with the most complaints"),
        desc=_("A bar per address: the number of complaints there. The table lists them all."),
        categories=[r["address"] for r in top],
        series=[Series(str(_("Complaints")), [r["complaints"] for r in top])],
        element_id="repeat-addresses",
    )


def _citations_chart(rows):
    statuses = list(CitationStatus.values)
    totals = {c: dict.fromkeys(statuses, 0) for c in reports.CLASS_COLUMNS}
    for row in rows:
        for charge in reports.CLASS_COLUMNS:
            totals[charge][row["status"]] += row[charge]
    return bar_chart_svg(
        title=_("Citations by status and charge class"),
        desc=_("A bar per status and charge class: the number of citations issued."),
        categories=[str(STATUS_LABELS[s]) for s in statuses],
        series=[Series(str(CLASS_LABELS[c]), list(totals[c].values())) for c in totals],
        element_id="citations-by-status",
    )


REPORTS = {
    "kinds": (
        gettext_lazy("Complaints by kind and month"),
        reports.complaints_by_kind_month,
        reports.BY_KIND_COLUMNS,
        _kinds_chart,
    ),
    "repeats": (
        gettext_lazy("Repeat addresses"),
        reports.repeat_addresses,
        reports.REPEAT_COLUMNS[:-1],  # the premises link is the page's, not the CSV's
        _repeats_chart,
    ),
    "citations": (
        gettext_lazy("Citations by status and charge class"),
        reports.citations_by_status_class,
        reports.CITATION_COLUMNS,
        _citations_chart,
    ),
}


def _display(column, value):
    if column == "status":
        return STATUS_LABELS.get(value, value)
    if column in ("first", "last"):
        return date_format(timezone.localtime(value), "SHORT_DATE_FORMAT")
    return value


def _cell(column, value):
    """A CSV cell: ISO dates; no spreadsheet formula from an address typed at intake."""
    if column in ("first", "last"):
        return timezone.localtime(value).date().isoformat()
    return safe_cell(value)


def _csv(key, columns, rows, start, end):
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = f"complaints-{key}-{start:%Y%m%d}-{end:%Y%m%d}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    writer = csv.writer(response)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(c, row[c]) for c in columns])
    return response


def _report(request, key):
    title, service, columns, chart = REPORTS[key]
    today = timezone.localdate()
    default = {"start": date(today.year, 1, 1), "end": today}
    bound = "start" in request.GET or "end" in request.GET
    form = DateRangeForm(request.GET if bound else None, initial=default)
    context = {"title": title, "form": form, "key": key, "reports": report_list()}
    if bound and not form.is_valid():
        return render(request, "complaints/reports_report.html", context, status=400)
    span = form.cleaned_data if bound else default
    ids = request.user.jurisdiction_ids
    if len(ids) < 2:
        columns = [c for c in columns if c != "city"]
    rows = service(jurisdiction_ids=ids, start=span["start"], end=span["end"])
    if request.GET.get("format") == "csv":
        return _csv(key, columns, rows, span["start"], span["end"])
    context.update(
        headers=[COLUMN_LABELS[c] for c in columns],
        rows=[([_display(c, row[c]) for c in columns], row.get("premises")) for row in rows],
        link_column=columns.index("address") if "address" in columns else None,
        chart=chart(rows) if rows else None,
        query=request.GET.urlencode(),
    )
    return render(request, "complaints/reports_report.html", context)


def report_list():
    return [(reverse(f"complaints:report_{key}"), title) for key, (title, *_) in REPORTS.items()]


@role_required(*REPORT_ROLES)
def report_kinds(request):
    return _report(request, "kinds")


@role_required(*REPORT_ROLES)
def report_repeats(request):
    return _report(request, "repeats")


@role_required(*REPORT_ROLES)
def report_citations(request):
    return _report(request, "citations")


urlpatterns = [
    path("reports/by-kind/", report_kinds, name="report_kinds"),
    path("reports/repeat-addresses/", report_repeats, name="report_repeats"),
    path("reports/citations/", report_citations, name="report_citations"),
]
