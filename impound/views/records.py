"""Impound records (IMP-06; Minn. Stat. 346.47 subd. 2, MN-03).

Staff: the year's monthly intakes and dispositions as a chart, a table and a CSV (one
service answers all three), and the register (C13) as CSV. Anyone: the city's recent
cases as the statute's "form permitting easy perusal by the public", without personal
data, with the pound's address and hours.
"""

import csv
from datetime import date

from django import forms
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.access import public, role_required
from base.charts import Series, bar_chart_svg
from base.roles import STAFF_ROLES
from impound.models import Pound
from impound.services import reports
from ordinance.models import Jurisdiction

PUBLIC_PAGE_SIZE = 25
# The statute that opens the records to the public (rules.md Appendix H MN-03).
PERUSAL_STATUTE = "Minn. Stat. 346.47 subd. 2"

SERIES = (
    ("intakes", gettext_lazy("Intakes")),
    ("redemptions", gettext_lazy("Redemptions")),
    ("adoptions", gettext_lazy("Adoptions")),
    ("euthanasias", gettext_lazy("Euthanasias")),
    ("other_closings", gettext_lazy("Other closings")),
)
COLUMN_LABELS = {
    "city": gettext_lazy("City"),
    "month": gettext_lazy("Month"),
    **dict(SERIES),
    "closed": gettext_lazy("Closed"),
    "average_days_held": gettext_lazy("Average days held"),
}


class YearForm(forms.Form):
    year = forms.TypedChoiceField(label=gettext_lazy("Year"), coerce=int)

    def __init__(self, *args, years, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["year"].choices = [(y, str(y)) for y in years]


def _year(request, today, cities):
    """The chosen year (from the first case's year to this one) and the form."""
    years = reports.impound_years(cities, today=today)
    form = YearForm(request.GET if "year" in request.GET else None, years=years)
    if form.is_bound:
        return (form.cleaned_data["year"] if form.is_valid() else None), form
    form.initial["year"] = today.year
    return today.year, form


@role_required(*STAFF_ROLES)
def records(request):
    """Monthly intakes and dispositions of a year: chart, table and CSV (IMP-06)."""
    today = timezone.localdate()
    ids = request.user.jurisdiction_ids
    cities = reports.impound_cities(jurisdiction_ids=ids)
    year, form = _year(request, today, cities)
    if year is None:
        return render(request, "impound/records/records.html", {"form": form}, status=400)
    start, end = date(year, 1, 1), date(year, 12, 31)
    rows = reports.impound_monthly(jurisdiction_ids=ids, start=start, end=end, cities=cities)
    several = len(ids) > 1
    columns = [c for c in reports.MONTHLY_COLUMNS if several or c != "city"]
    if request.GET.get("format") == "csv":
        return _csv(f"impound-monthly-{year}.csv", columns, rows)
    retention = [(city, reports.record_retention(city, on=today)) for city in cities]
    return render(
        request,
        "impound/records/records.html",
        {
            "form": form,
            "year": year,
            "columns": [(c, COLUMN_LABELS[c]) for c in columns],
            "rows": [[row[c] for c in columns] for row in rows],
            "charts": _charts(rows, year),
            "retention": retention,
            "several_cities": several,
        },
    )


def _charts(rows, year):
    """One chart per city: a bar per month and series, the table's numbers."""
    charts, by_city = [], {}
    for row in rows:
        by_city.setdefault(row["city"], []).append(row)
    for n, (city, city_rows) in enumerate(by_city.items(), start=1):
        months = [date.fromisoformat(r["month"] + "-01").strftime("%b") for r in city_rows]
        title = _("Impounds in %(city)s, %(year)s") % {"city": city, "year": year}
        desc = _(
            "Bars for each month of %(year)s: intakes, redemptions, adoptions, euthanasias "
            "and other closings. The table below has the same numbers."
        ) % {"year": year}
        charts.append(
            bar_chart_svg(
                title=title,
                desc=desc,
                categories=months,
                series=[Series(str(label), [r[key] for r in city_rows]) for key, label in SERIES],
                element_id=f"impound-chart-{n}",
            )
        )
    return charts


@role_required(*STAFF_ROLES)
def register_csv(request):
    """The register (C13) of the year's cases as CSV, with the parties: staff only."""
    today = timezone.localdate()
    ids = request.user.jurisdiction_ids
    cities = reports.impound_cities(jurisdiction_ids=ids)
    year, form = _year(request, today, cities)
    if year is None:
        return render(request, "impound/records/records.html", {"form": form}, status=400)
    rows = reports.impound_register(
        cities=cities, start=date(year, 1, 1), end=date(year, 12, 31), on=today
    )
    columns = [c for c in reports.REGISTER_COLUMNS if len(ids) > 1 or c != "city"]
    return _csv(f"impound-register-{year}.csv", columns, rows)


def _csv(name, columns, rows):
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    writer = csv.writer(response)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row[c]) for c in columns])
    return response


def _cell(value):
    """No spreadsheet formula from text typed at intake (a leading = + - @)."""
    text = "" if value is None else str(value)
    if text[:1] in ("=", "+", "-", "@") and not isinstance(value, int | float):
        return "'" + text
    return text


def _public_scope(city):
    """The city, its retention rule, the first day of the public list and its cases."""
    jurisdiction = get_object_or_404(Jurisdiction, slug=city)
    today = timezone.localdate()
    retention = reports.record_retention(jurisdiction, on=today)
    months = retention.value if retention is not None else None
    since = reports.months_before(today, months) if months else None
    return jurisdiction, today, retention, since, reports.public_cases(jurisdiction, since=since)


@public
def public_records(request, city):
    """The city's recent cases for anyone to read (Minn. Stat. 346.47 subd. 2, MN-03):
    the animal and where (street level) and when it was seized, and its outcome; no name,
    address, microchip or owner."""
    jurisdiction, today, retention, since, cases = _public_scope(city)
    page = Paginator(cases, PUBLIC_PAGE_SIZE).get_page(request.GET.get("page"))
    pounds = (
        Pound.objects.filter(jurisdictions=jurisdiction, designated_from__lte=today)
        .exclude(designated_until__lt=today)
        .prefetch_related("hours")
        .only("name", "address", "phone")
    )
    return render(
        request,
        "impound/records/public.html",
        {
            "city": jurisdiction,
            "page": page,
            "since": since,
            "retention": retention,
            "pounds": pounds,
            "statute": PERUSAL_STATUTE,
        },
    )


@public
def public_records_csv(request, city):
    """The same public record as CSV: every case of the retention
    period, the page's fields, no person."""
    jurisdiction, today, _retention, _since, cases = _public_scope(city)
    name = f"impound-record-{jurisdiction.slug}-{today:%Y-%m-%d}.csv"
    return _csv(name, reports.PUBLIC_COLUMNS, reports.public_rows(cases.iterator()))


urlpatterns = [
    path("records/", records, name="records"),
    path("records/register.csv", register_csv, name="register_csv"),
    path("public/<slug:city>/", public_records, name="public_records"),
    path("public/<slug:city>/records.csv", public_records_csv, name="public_records_csv"),
]
SECTIONS: list = []
