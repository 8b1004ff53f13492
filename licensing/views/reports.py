"""Reports (HTML table + ``?format=csv`` with the same rows) and the lost-dog tag lookup."""

import csv
from datetime import date

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from base.access import role_required
from base.csvcells import safe_cell
from base.roles import ADMINISTRATOR, CLERK, STAFF_ROLES
from licensing.forms.reports import DateRangeForm, RenewalNoticesForm, TagLookupForm
from licensing.services import reports
from licensing.services.renewal_notices import renewal_labels_pdf, renewal_notices_print
from licensing.services.standing import license_standings, prefetch_standing
from ordinance.rules import RuleUnavailable, rule_citation, rule_in_force

COUNTER = (CLERK, ADMINISTRATOR)
# The HTML table of expiring licenses shows this many rows; the CSV has them all.
EXPIRING_SCREEN_ROWS = 500

REPORTS = {
    "issued": (_("Licenses issued"), ["city", "kind", "issued", "late_penalty", "void"]),
    "revenue": (
        _("Revenue by fee code"),
        ["city", "code", "description", "charged", "voided", "net"],
    ),
    "tags": (
        _("Tags outstanding by year"),
        [
            "city",
            "year",
            "on_current_licenses",
            "issued",
            "in_stock",
            "at_clinics",
            "lost",
            "void",
            "total",
        ],
    ),
    "expiring": (
        _("Licenses expiring"),
        [
            "city",
            "license",
            "expires_on",
            "animal",
            "owner",
            "phone",
            "address",
            "email",
            "notice_printed",
        ],
    ),
}


# Column headers as a clerk reads them ("Late penalty", not "Latepenalty").
COLUMN_LABELS = {
    "city": _("City"),
    "kind": _("Kind"),
    "issued": _("Issued"),
    "late_penalty": _("Late penalty"),
    "void": _("Void"),
    "code": _("Fee code"),
    "description": _("Fee"),
    "charged": _("Lines charged"),
    "voided": _("Lines voided"),
    "net": _("Net amount"),
    "year": _("Year"),
    "on_current_licenses": _("On current licenses"),
    "in_stock": _("In stock"),
    "at_clinics": _("At clinics"),
    "lost": _("Lost"),
    "total": _("Total"),
    "license": _("License"),
    "expires_on": _("Expires on"),
    "animal": _("Animal"),
    "owner": _("Owner"),
    "phone": _("Phone"),
    "address": _("Mailing address"),
    "email": _("E-mail"),
    "notice_printed": _("Renewal notice"),
}
MONEY_COLUMNS = {"net"}


def _display(column, value):
    """Money with its dollar sign on the page (the CSV keeps plain numbers and ISO dates)."""
    if column in MONEY_COLUMNS and value is not None:
        sign = "-" if value < 0 else ""
        return f"{sign}${abs(value):,.2f}"
    if column == "notice_printed" and value is not None:
        return _("Notice printed %(day)s") % {"day": date_format(value)}
    if column == "address" and not value:
        return _("No mailing address: no notice can be mailed")
    return value


def _total_row(key, columns, rows):
    """The revenue report's total row, in the table's columns; None for other reports."""
    if key != "revenue" or not rows:
        return None
    totals = reports.revenue_totals(rows)
    cells = [_display(c, totals[c]) if c in totals else "" for c in columns]
    cells[0] = _("Total")
    return cells


@role_required(*COUNTER)
def report_index(request):
    return render(
        request,
        "licensing/reports/index.html",
        {
            "reports": [
                (f"licensing:report_{key}", title) for key, (title, _cols) in REPORTS.items()
            ]
        },
    )


def _default_range(key: str, today: date) -> dict:
    if key == "expiring":
        return {"start": today, "end": date(today.year, 12, 31)}
    return {"start": date(today.year, 1, 1), "end": today}


def _rows(key, *, ids, start, end, today, limit=None):
    if key == "issued":
        return reports.report_issued(jurisdiction_ids=ids, start=start, end=end)
    if key == "revenue":
        return reports.report_revenue(jurisdiction_ids=ids, start=start, end=end)
    if key == "tags":
        return reports.report_tags(jurisdiction_ids=ids, start=start, end=end, on=today)
    return reports.report_expiring(jurisdiction_ids=ids, start=start, end=end, limit=limit)


def _report(request, key, *, refused=None):
    title, columns = REPORTS[key]
    today = timezone.localdate()
    data = request.GET if "start" in request.GET or "end" in request.GET else None
    form = DateRangeForm(data, initial=_default_range(key, today))
    several = len(request.user.jurisdiction_ids) > 1
    if not several:
        columns = [c for c in columns if c != "city"]
    rows, truncated, bounds = None, False, _default_range(key, today)
    if data is None or form.is_valid():
        bounds = form.cleaned_data if data is not None else _default_range(key, today)
        csv_wanted = request.GET.get("format") == "csv"
        limit = None if csv_wanted or key != "expiring" else EXPIRING_SCREEN_ROWS + 1
        rows = _rows(key, ids=request.user.jurisdiction_ids, today=today, limit=limit, **bounds)
        if csv_wanted:
            return _csv(key, columns, rows, bounds)
        truncated = len(rows) > EXPIRING_SCREEN_ROWS
        rows = rows[:EXPIRING_SCREEN_ROWS]
    notices = _notices_forms(key, bounds, refused) if rows is not None or refused else None
    return render(
        request,
        "licensing/reports/report.html",
        {
            "title": title,
            "form": form,
            "columns": columns,
            "headers": [COLUMN_LABELS.get(c, c) for c in columns],
            "key": key,
            "rows": [[_display(c, row[c]) for c in columns] for row in rows]
            if rows is not None
            else None,
            "total_row": _total_row(key, columns, rows) if rows is not None else None,
            "truncated": truncated,
            "query": request.GET.urlencode(),
            "notices": notices,
        },
        status=400 if refused or (data is not None and not form.is_valid()) else 200,
    )


def _notices_forms(key, bounds, refused):
    """The expiring report's print forms: notices (POST) and labels
    (GET), each for the range shown; ``refused`` = (kind, form) comes back with its errors."""
    if key != "expiring":
        return None
    initial = {**bounds, "which": "unsent"}
    forms = {
        kind: RenewalNoticesForm(initial=initial, auto_id=f"{kind}_%s")
        for kind in ("notices", "labels")
    }
    if refused:
        forms[refused[0]] = refused[1]
    return forms


def _csv(key, columns, rows, bounds):
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = f"{key}-{bounds['start']:%Y%m%d}-{bounds['end']:%Y%m%d}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    writer = csv.writer(response)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([safe_cell(row[c]) for c in columns])
    return response


@role_required(*COUNTER)
def report_issued(request):
    return _report(request, "issued")


@role_required(*COUNTER)
def report_revenue(request):
    return _report(request, "revenue")


@role_required(*COUNTER)
def report_tags(request):
    return _report(request, "tags")


@role_required(*COUNTER)
def report_expiring(request):
    return _report(request, "expiring")


def _pdf(data: bytes, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


@role_required(*COUNTER)
@require_POST
def report_expiring_notices(request):
    """One renewal notice per owner as one PDF, recorded as printed."""
    form = RenewalNoticesForm(request.POST, auto_id="notices_%s")
    if not form.is_valid():
        return _report(request, "expiring", refused=("notices", form))
    pdf, _batch, _created = renewal_notices_print(
        user=request.user, now=timezone.now(), **form.cleaned_data
    )
    return _pdf(pdf, "renewal-notices.pdf")


@role_required(*COUNTER)
def report_expiring_labels(request):
    """Mailing labels for the same owners (an Avery 5160 sheet); records nothing. Without
    a query: the report's default range, owners not yet sent a notice."""
    if request.GET:
        form = RenewalNoticesForm(request.GET, auto_id="labels_%s")
        if not form.is_valid():
            return _report(request, "expiring", refused=("labels", form))
        choice = form.cleaned_data
    else:
        choice = {**_default_range("expiring", timezone.localdate()), "which": "unsent"}
    pdf, _batch = renewal_labels_pdf(user=request.user, now=timezone.now(), **choice)
    return _pdf(pdf, "renewal-labels.pdf")


@role_required(*STAFF_ROLES)
def tag_lookup(request):
    """A lost dog's tag -> license, dog and owner (LIC-09, NB Sec. 6-63)."""
    form = TagLookupForm(request.GET or None, initial={"year": timezone.localdate().year})
    tags, presumption = None, []
    if form.is_valid():
        tags = reports.tag_lookup(
            jurisdiction_ids=request.user.jurisdiction_ids,
            number=form.cleaned_data["number"],
            year=form.cleaned_data["year"],
        )
        if not any(t.license_id for t in tags):
            presumption = _presumption_citations(request.user, timezone.localdate())
        _attach_standings(tags, on=timezone.localdate())
        _attach_lost_sections(tags)
    return render(
        request,
        "licensing/reports/tag_lookup.html",
        {
            "form": form,
            "tags": tags,
            "presumption": presumption,
            "several_cities": len(request.user.jurisdiction_ids) > 1,
        },
        status=400 if request.GET and not form.is_valid() else 200,
    )


def _attach_standings(tags, *, on):
    """Each found dog's standing today from the one standing service (LIC-01, LIC-07):
    a tag of an expired license says so, with the date."""
    animals = [tag.license.animal for tag in tags if tag.license_id]
    prefetch_standing(animals)
    standings = license_standings(animals, on=on)
    for tag in tags:
        if tag.license_id:
            tag.standing = standings[tag.license.animal_id]


def _attach_lost_sections(tags):
    """The tag's city's sections on a lost tag (LIC-10 tags, LIC-14 lost tags), joined;
    "" where its ordinance has none."""
    for tag in tags:
        found = [rule_citation(tag.jurisdiction, rule) for rule in ("LIC-10", "LIC-14")]
        tag.lost_section = "; ".join(dict.fromkeys(c for c in found if c))


def _presumption_citations(user, today):
    """The sections that make a dog without a license presumed unlicensed (LIC-09)."""
    found = []
    for city in user.served_jurisdictions():
        try:
            rule = rule_in_force(city, "tag_legend", on=today, optional=True)
        except RuleUnavailable:
            rule = None
        if rule is not None:
            found.append(rule.citation)
    return found
