"""Renewal reminders: ``licensing.renewal_reminders``.

When the renewal window opens (the profile's ``renewal_window_days_before_term`` before
the next term starts: NB Sec. 6-65(c), LIC-13), the owner of each active license for the
term now ending is e-mailed once, with a link to the animal's page and the section. "The
window is open" is the counter's own answer: ``license_term`` on that day gives the next
term (the term an application made today is for), so the portal, the counter and this
sweep cannot disagree.

Set-based: one query per city finds the licenses due (no reminder row for that term, no
license for the next term yet, animal alive, owner with an e-mail address). Never where
``licensing_status`` refuses (Glencoe: the licensing section deleted, Subd. 2(D)). Each
reminder is a ``RenewalReminder`` row under its unique constraint (license, term), inserted
first; the e-mail goes after commit. Run twice, nothing is sent twice; after days down,
the next run sends each license's reminder once while its window is still open.
"""

import logging
from dataclasses import dataclass
from datetime import date, datetime

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from licensing.models import AnimalStatus, License, LicenseStatus, RenewalReminder
from licensing.services.assessment import TERM_KEYS, license_term, licensing_status
from ordinance.calendar import add_calendar_days
from ordinance.models import Event, Jurisdiction
from ordinance.rules import RuleUnavailable, rules_in_force
from ordinance.sweeps import SweepResult, run_sweep

logger = logging.getLogger(__name__)
ACTION = "licensing.license.renewal_reminded"


@dataclass(frozen=True)
class RenewalWindow:
    """The term a renewal made today is for, and the section that opens the window."""

    term_start: date
    expires_on: date
    ending_on: date  # the last day of the term now ending
    citation: str


def renewal_window(jurisdiction: Jurisdiction, *, on: date) -> RenewalWindow | None:
    """The open renewal window in ``jurisdiction`` on ``on``, or None (not open, or the
    city issues no dog licenses, or a value is blank)."""
    if licensing_status(jurisdiction=jurisdiction, species="dog", on=on).blocks:  # LIC-16
        return None
    try:
        rules = rules_in_force(jurisdiction, TERM_KEYS, on=on)
    except RuleUnavailable:
        return None
    term_start, expires_on, in_window = license_term(jurisdiction=jurisdiction, on=on, rules=rules)
    if not in_window:
        return None
    return RenewalWindow(
        term_start=term_start,
        expires_on=expires_on,
        ending_on=add_calendar_days(term_start, -1),
        citation=rules["renewal_window_days_before_term"].citation,
    )


def due_licenses(jurisdiction: Jurisdiction, window: RenewalWindow) -> QuerySet:
    """Active licenses of the ending term whose owner should be reminded now."""
    renewed = License.objects.filter(
        animal=OuterRef("animal"), term_start__gte=window.term_start
    ).exclude(status=LicenseStatus.VOID)
    reminded = RenewalReminder.objects.filter(license=OuterRef("pk"), term_start=window.term_start)
    return (
        License.objects.filter(
            jurisdiction=jurisdiction,
            status=LicenseStatus.ACTIVE,
            expires_on=window.ending_on,
            animal__status=AnimalStatus.ALIVE,
        )
        .exclude(owner__email="")
        .exclude(Exists(renewed))
        .exclude(Exists(reminded))
    )


def renewal_reminders_send(*, now: datetime, dry_run: bool = False) -> SweepResult:
    """The sweep: every city's open window, its due licenses, one reminder each."""
    today = timezone.localdate(now)
    windows, due = {}, License.objects.none()
    for city in Jurisdiction.objects.order_by("pk"):
        window = renewal_window(city, on=today)
        if window is not None:
            windows[city.pk] = window
            due = due | due_licenses(city, window)
    return run_sweep(
        name="renewal reminders",
        action=ACTION,
        due=License.objects.filter(pk__in=due.values("pk")).select_related(
            "owner", "animal", "jurisdiction"
        ),
        still_applies=lambda lic: _still_due(lic, windows.get(lic.jurisdiction_id)),
        transition=lambda lic, at: send_renewal_reminder(lic, windows[lic.jurisdiction_id], at),
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


def _still_due(license: License, window: RenewalWindow | None) -> bool:
    """Re-checked under the row lock: another run may have reminded it meanwhile."""
    return (
        window is not None
        and due_licenses(license.jurisdiction, window).filter(pk=license.pk).exists()
    )


def send_renewal_reminder(license: License, window: RenewalWindow, at: datetime) -> bool:
    """Insert the reminder row (the unique constraint settles a race), then mail after
    commit. False when another run already reminded this license for this term."""
    owner, animal, city = license.owner, license.animal, license.jurisdiction
    try:
        with transaction.atomic():
            RenewalReminder.objects.create(
                license=license, term_start=window.term_start, sent_to=owner.email, sent_at=at
            )
    except IntegrityError:
        return False
    Event.record(
        ACTION,
        license,
        at=at,
        jurisdiction=city,
        summary=(
            f"Renewal reminder e-mailed to {owner.email} for the term from "
            f"{window.term_start:%Y-%m-%d} ({window.citation})"
        ),
        data={
            "term_start": window.term_start.isoformat(),
            "to": owner.email,
            "citation": window.citation,
        },
    )
    context = {
        "owner": owner,
        "animal": animal,
        "license": license,
        "city": city,
        "window": window,
        "url": settings.SITE_URL.rstrip("/") + reverse("licensing:portal_animal", args=[animal.pk]),
    }
    subject = _("%(city)s: time to renew the license of %(animal)s (expires %(day)s)") % {
        "city": city.short_name,
        "animal": animal.name,
        "day": date_format(license.expires_on),
    }
    transaction.on_commit(lambda: _mail(subject, context, owner.email, license.pk))
    return True


def _mail(subject: str, context: dict, to: str, pk: int) -> None:
    body = render_to_string("licensing/emails/renewal_reminder.txt", context)
    try:
        EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to]).send()
    except Exception:  # the row stays: one reminder per term, never a storm of retries
        logger.exception("Renewal reminder for license %s failed", pk)
