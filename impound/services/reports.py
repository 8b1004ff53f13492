"""Impound records (IMP-06, Minn. Stat. 346.47 subd. 2, rules.md Appendix H MN-03).

The monthly figures are one service for the page's chart and table and its CSV, so the
three always agree; aggregation is in SQL, a fixed number of queries whatever the data.
The register (C13) is the staff's CSV of the period's cases; the public list shows the
description of each animal and where and when it was seized, never a person.
"""

from datetime import date, datetime, time

from django.db.models import Avg, Count, DateField, DurationField, ExpressionWrapper, F, Min, Q
from django.db.models.functions import TruncDate, TruncMonth
from django.utils import timezone
from django.utils.translation import gettext as _

from impound.models import CLOSED_STATUSES, OPEN_STATUSES, CaseStatus, ImpoundCase
from ordinance.models import Jurisdiction
from ordinance.rules import RuleUnavailable, rule_in_force

# Closed statuses counted in their own column; the rest are "other closings".
COUNTED = (CaseStatus.REDEEMED, CaseStatus.ADOPTED, CaseStatus.EUTHANIZED)
OTHER_CLOSED = tuple(s for s in CLOSED_STATUSES if s not in COUNTED)

MONTHLY_COLUMNS = (
    "city",
    "month",
    "intakes",
    "redemptions",
    "adoptions",
    "euthanasias",
    "other_closings",
    "closed",
    "average_days_held",
)

REGISTER_COLUMNS = (
    "city",
    "case",
    "placed_at",
    "species",
    "breed",
    "sex",
    "approximate_age_months",
    "traits",
    "color",
    "location_seized",
    "date_seized",
    "received_from_name",
    "received_from_address",
    "transferred_to_name",
    "transferred_to_address",
    "licensed",
    "id_tag",
    "no_research",
    "disposition",
    "closed_on",
)

# What the public list shows: the animal and its seizure, never a person (MN-03). Where
# is the officer's public place (``found_area``, a block or street), never ``seized_where``
# (it may be a finder's address); blank shows the city alone.
PUBLIC_FIELDS = (
    "number",
    "jurisdiction",
    "species",
    "breed",
    "sex",
    "color",
    "approximate_age_months",
    "distinguishing_traits",
    "found_area",
    "seized_on",
    "placed_at",
    "status",
    "hold_ends_on",
    "closed_on",
)

# The public record as CSV: the same cases and fields as the page.
PUBLIC_COLUMNS = (
    "case",
    "species",
    "breed",
    "sex",
    "approximate_age_months",
    "color",
    "traits",
    "where_seized",
    "date_seized",
    "placed_at",
    "outcome",
    "closed_on",
)


def months_between(start: date, end: date) -> list[date]:
    """The first day of every month from ``start``'s to ``end``'s, inclusive."""
    months, year, month = [], start.year, start.month
    while (year, month) <= (end.year, end.month):
        months.append(date(year, month, 1))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return months


def months_before(day: date, months: int) -> date:
    """The same day ``months`` months earlier (the month's last day where it is shorter)."""
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    month += 1
    for last in (31, 30, 29, 28):
        try:
            return date(year, month, min(day.day, last))
        except ValueError:
            continue
    raise AssertionError("unreachable")


def _day_bounds(start: date, end: date) -> tuple[datetime, datetime]:
    """[start 00:00, end+1 00:00) in local time."""
    tz = timezone.get_current_timezone()
    return (
        timezone.make_aware(datetime.combine(start, time.min), tz),
        timezone.make_aware(datetime.combine(date.fromordinal(end.toordinal() + 1), time.min), tz),
    )


def impound_monthly(*, jurisdiction_ids, start: date, end: date, cities=None) -> list[dict]:
    """Per city and month of [start, end]: intakes (by time of placement), redemptions,
    adoptions, euthanasias and other closings (by closing date), and the average days
    held of the cases closed that month (closing date less the local date of placement).

    Every month of the range has its row, zeros included. Three queries, whatever the
    number of cases: the cities (none when the caller passes them, as Jurisdictions),
    the intakes, the closings.
    """
    if cities is None:
        cities = Jurisdiction.objects.filter(pk__in=jurisdiction_ids)
    cities = {c.pk: c.short_name for c in sorted(cities, key=lambda c: c.short_name)}
    low, high = _day_bounds(start, end)
    cases = ImpoundCase.objects.filter(jurisdiction_id__in=jurisdiction_ids).order_by()
    intakes = {
        (r["jurisdiction_id"], r["month"]): r["n"]
        for r in cases.filter(placed_at__gte=low, placed_at__lt=high)
        .annotate(month=TruncMonth("placed_at", output_field=DateField()))
        .values("jurisdiction_id", "month")
        .annotate(n=Count("pk"))
    }
    held = ExpressionWrapper(F("closed_on") - TruncDate("placed_at"), output_field=DurationField())
    closings = {
        (r["jurisdiction_id"], r["month"]): r
        for r in cases.filter(closed_on__range=(start, end))
        .annotate(month=TruncMonth("closed_on"))
        .values("jurisdiction_id", "month")
        .annotate(
            redeemed=Count("pk", filter=Q(status=CaseStatus.REDEEMED)),
            adopted=Count("pk", filter=Q(status=CaseStatus.ADOPTED)),
            euthanized=Count("pk", filter=Q(status=CaseStatus.EUTHANIZED)),
            other=Count("pk", filter=Q(status__in=OTHER_CLOSED)),
            closed=Count("pk"),
            held=Avg(held),
        )
    }
    rows = []
    for city_id, city in cities.items():
        for month in months_between(start, end):
            closing = closings.get((city_id, month), {})
            average = closing.get("held")
            rows.append(
                {
                    "city": city,
                    "month": f"{month:%Y-%m}",
                    "intakes": intakes.get((city_id, month), 0),
                    "redemptions": closing.get("redeemed", 0),
                    "adoptions": closing.get("adopted", 0),
                    "euthanasias": closing.get("euthanized", 0),
                    "other_closings": closing.get("other", 0),
                    "closed": closing.get("closed", 0),
                    "average_days_held": (
                        None if average is None else round(average.total_seconds() / 86400, 1)
                    ),
                }
            )
    return rows


def impound_cities(*, jurisdiction_ids):
    """The cities, each with ``first_case_at`` (its earliest time of placement, or None),
    by short name: one query."""
    return list(
        Jurisdiction.objects.filter(pk__in=jurisdiction_ids)
        .annotate(first_case_at=Min("impound_cases__placed_at"))
        .order_by("short_name")
    )


def impound_years(cities, *, today: date) -> list[int]:
    """From the year of the cities' first case to this year, newest first."""
    firsts = [timezone.localtime(c.first_case_at).year for c in cities if c.first_case_at]
    return list(range(today.year, min(firsts, default=today.year) - 1, -1))


def record_retention(jurisdiction: Jurisdiction, *, on: date):
    """The rule that says how long the city keeps impound records (IMP-06, MN-03): the
    governing value of ``impound_record_retention_months``; None where none applies."""
    try:
        return rule_in_force(jurisdiction, "impound_record_retention_months", on=on, optional=True)
    except RuleUnavailable:
        return None


def impound_register(*, cities, start: date, end: date, on: date) -> list[dict]:
    """The register (C13) of these cities' cases placed in [start, end], oldest first: one
    query for the cases, one per city for the age from which the parties are named
    (IMP-06)."""
    low, high = _day_bounds(start, end)
    party_age = {}
    names = {city.pk: city.short_name for city in cities}
    for city in cities:
        try:
            rule = rule_in_force(city, "impound_record_party_age_months", on=on, optional=True)
        except RuleUnavailable:
            rule = None
        party_age[city.pk] = rule.value if rule else 0
    cases = ImpoundCase.objects.filter(
        jurisdiction_id__in=names, placed_at__gte=low, placed_at__lt=high
    ).order_by("jurisdiction__short_name", "placed_at", "pk")
    rows = []
    for case in cases:
        named = case.approximate_age_months >= party_age.get(case.jurisdiction_id, 0)
        tag = case.tag_text if case.tag_present else ""
        rows.append(
            {
                "city": names[case.jurisdiction_id],
                "case": case.number,
                "placed_at": timezone.localtime(case.placed_at).strftime("%Y-%m-%d %H:%M"),
                "species": case.get_species_display(),
                "breed": case.breed,
                "sex": case.get_sex_display(),
                "approximate_age_months": case.approximate_age_months,
                "traits": case.distinguishing_traits,
                "color": case.color,
                "location_seized": case.seized_where,
                "date_seized": case.seized_on,
                "received_from_name": case.brought_by_name if named else "",
                "received_from_address": case.brought_by_address if named else "",
                "transferred_to_name": case.transferred_to_name if named else "",
                "transferred_to_address": case.transferred_to_address if named else "",
                "licensed": _yes_no(case.licensed),
                "id_tag": (tag or _("tag present")) if case.tag_present else _("none"),
                "no_research": (
                    f"{_('yes')} ({case.no_research_source})".replace(" ()", "")
                    if case.no_research
                    else _("no")
                ),
                "disposition": case.get_status_display(),
                "closed_on": case.closed_on or "",
            }
        )
    return rows


def _yes_no(value) -> str:
    if value is None:
        return _("not recorded")
    return _("yes") if value else _("no")


def public_cases(jurisdiction: Jurisdiction, *, since: date | None):
    """The city's cases whose record is in the retention period, newest first, with only
    the fields the public may read (MN-03): placed on or after ``since``, or closed on or
    after it, or still in the pound (the record runs at least six months after the final
    disposition, IMP-06); all where None. A queryset, for a paginator."""
    cases = ImpoundCase.objects.filter(jurisdiction=jurisdiction)
    if since is not None:
        cases = cases.filter(
            Q(placed_at__gte=_day_bounds(since, since)[0])
            | Q(closed_on__gte=since)
            | Q(status__in=OPEN_STATUSES)
        )
    return (
        cases.select_related("jurisdiction")
        .only(*PUBLIC_FIELDS, "jurisdiction__name")
        .order_by("-placed_at", "-pk")
    )


def public_where(case: ImpoundCase) -> str:
    """Where the animal was seized, for the public: the block or street, or the city."""
    return case.found_area or case.jurisdiction.name


def public_rows(cases) -> list[dict]:
    """The public record's rows (PUBLIC_COLUMNS): no name, address, microchip or tag."""
    return [
        {
            "case": case.number,
            "species": case.get_species_display(),
            "breed": case.breed,
            "sex": case.get_sex_display(),
            "approximate_age_months": case.approximate_age_months,
            "color": case.color,
            "traits": case.distinguishing_traits,
            "where_seized": public_where(case),
            "date_seized": case.seized_on,
            "placed_at": timezone.localtime(case.placed_at).strftime("%Y-%m-%d %H:%M"),
            "outcome": case.get_status_display(),
            "closed_on": case.closed_on,
        }
        for case in cases
    ]
