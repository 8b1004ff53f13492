"""Licensing's deadline sweeps and upcoming-deadline queries, registered with ordinance.

Sweeps (run by beat through ``deadlines.sweep_all``; by hand with
``manage.py expire_licenses --dry-run``):
- dog licenses expire after ``expires_on`` (LIC-07, NB Sec. 6-62): one set-based UPDATE;
- kennel licenses expire after ``expires_on`` (KEN-05, NB Sec. 6-65(b)): the same;
- a denied kennel application whose appeal deadline passed unappealed becomes final
  (KEN-07, Glencoe 701 Subd. 4(E));
- renewal reminders when the renewal window opens, once per license and term (LIC-13,
  ``services.reminders``).
"""

from collections.abc import Iterable
from datetime import date, datetime

from django.db.models import Count, F, Q
from django.db.models.functions import JSONObject
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from base.together import Part
from licensing.models import KennelLicense, KennelStatus, License, LicenseStatus
from licensing.services.expiry import kennel_licenses_expire, licenses_expire
from licensing.services.kennels.denials import kennel_denials_finalise
from licensing.services.reminders import renewal_reminders_send
from ordinance.deadlines import Deadline, UpcomingQuery, register_sweep, register_upcoming
from ordinance.models import Jurisdiction
from ordinance.rules import RuleUnavailable, rule_in_force


@register_sweep("licensing.licenses_expire")
def sweep_licenses_expire(*, now: datetime, dry_run: bool = False):
    return licenses_expire(now=now, dry_run=dry_run)


@register_sweep("licensing.kennel_licenses_expire")
def sweep_kennel_licenses_expire(*, now: datetime, dry_run: bool = False):
    return kennel_licenses_expire(now=now, dry_run=dry_run)


@register_sweep("licensing.kennel_denials_final")
def sweep_kennel_denials_final(*, now: datetime, dry_run: bool = False):
    return kennel_denials_finalise(now=now, dry_run=dry_run)


@register_sweep("licensing.renewal_reminders")
def sweep_renewal_reminders(*, now: datetime, dry_run: bool = False):
    """E-mail owners once per license and term when the renewal window opens (LIC-13)."""
    return renewal_reminders_send(now=now, dry_run=dry_run)


def _citation(jurisdiction, key: str, on: date) -> str:
    try:
        rule = rule_in_force(jurisdiction, key, on=on, optional=True)
    except RuleUnavailable:
        return ""
    return rule.citation if rule else ""


@register_upcoming("licensing.licenses_expiring")
def upcoming_license_expiries(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    """Per city and day: "312 dog licenses expire" (one aggregate query)."""
    counts = (
        License.objects.filter(
            jurisdiction_id__in=jurisdiction_ids,
            status=LicenseStatus.ACTIVE,
            expires_on__range=(start, end),
        )
        .order_by()
        .values("jurisdiction_id", "expires_on")
        .annotate(row=JSONObject(city=F("jurisdiction_id"), on=F("expires_on"), n=Count("pk")))
        .values("row")
    )
    cities = Jurisdiction.objects.filter(pk__in=jurisdiction_ids)
    yield UpcomingQuery(
        {"counts": Part(counts, rows=True), "cities": Part(cities)}, _license_expiries
    )


def _license_expiries(found) -> Iterable[Deadline]:
    cities = {city.pk: city for city in found["cities"]}
    url = reverse("licensing:report_expiring")
    for row in found["counts"]:
        city, on, n = cities[row["city"]], date.fromisoformat(row["on"][:10]), row["n"]
        yield Deadline(
            due=on,
            what=ngettext("%(n)d dog license expires", "%(n)d dog licenses expire", n) % {"n": n},
            subject=city.short_name,
            consequence=_("expired the next day; renewals after that may carry the late penalty"),
            citation=_citation(city, "license_expiry", on),
            url=f"{url}?start={on:%Y-%m-%d}&end={on:%Y-%m-%d}",
            jurisdiction=city.short_name,
        )


@register_upcoming("licensing.kennel_deadlines")
def upcoming_kennel_deadlines(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    """Kennel licenses expiring, and kennel denial appeal deadlines (KEN-05, KEN-07), read
    with one query."""
    expiring = Q(status=KennelStatus.ACTIVE, expires_on__range=(start, end))
    appeals = Q(status=KennelStatus.DENIED, appeal_deadline__range=(start, end))
    kennels = KennelLicense.objects.filter(
        expiring | appeals, jurisdiction_id__in=jurisdiction_ids
    ).order_by("pk")
    yield UpcomingQuery(
        {"rows": Part(kennels, related=("jurisdiction", "premises"))}, _kennel_deadlines
    )


def _kennel_deadlines(found) -> Iterable[Deadline]:
    kennels = found["rows"]
    for kennel in (k for k in kennels if k.status == KennelStatus.ACTIVE):
        yield Deadline(
            due=kennel.expires_on,
            what=_("Kennel license expires"),
            subject=str(kennel),
            consequence=_("expired the next day unless renewed"),
            citation=_citation(kennel.jurisdiction, "kennel_license_expiry", kennel.expires_on),
            url=kennel.get_absolute_url(),
            jurisdiction=kennel.jurisdiction.short_name,
        )
    for kennel in (k for k in kennels if k.status == KennelStatus.DENIED):
        yield Deadline(
            due=kennel.appeal_deadline,
            what=_("Kennel denial: last day to appeal to the Council"),
            subject=str(kennel),
            consequence=_("the denial becomes final"),
            citation=_citation(
                kennel.jurisdiction,
                "kennel_denial_appeal_days",
                kennel.denial_notified_on or kennel.appeal_deadline,
            ),
            url=kennel.get_absolute_url(),
            jurisdiction=kennel.jurisdiction.short_name,
        )
