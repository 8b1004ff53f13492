"""What the resident and the officers hear about lost-pet reports, by e-mail after
commit: a likely match (each side once, claimed by a conditional UPDATE first) and the
reminder before a report closes (once per open period, the profile's program setting
``lost_report_reminder_days``; a beat sweep, ``lost_reports_remind``).

What the resident's e-mail says is what the public found page shows (species, breed,
color, sex, approximate age, where and when found at street level, the claim-by date
with its section) and the pound's address and hours: never the finder or an owner. The
officer sees the resident's contact.
"""

import logging
import operator
from datetime import date, datetime, timedelta
from functools import reduce

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.db import models, transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _

from base.roles import OFFICER
from impound.models import ACTIVE_LOST_STATUSES, ImpoundCase, LostMatch, LostReport
from impound.services.notices import claim_by
from ordinance.models import Event, Jurisdiction
from ordinance.rules import RuleUnavailable, rule_in_force
from ordinance.sweeps import SweepResult, run_sweep

logger = logging.getLogger(__name__)

REMINDER_DAYS_KEY = "lost_report_reminder_days"
REMINDED = "impound.lost.reminded"


# --- Notifying (after commit; each side once) -----------------------------------------


def public_description(case: ImpoundCase) -> dict:
    """What the public found page shows of a case, and nothing more: never the finder,
    an owner, the case's ground or its notes."""
    # Where: the officer's public place (found_area) or only the city, as the found page
    # (impound.services.found); never seized_where, which may be a finder's address.
    # When to claim: the posted notice's one answer (impound.services.notices.claim_by).
    deadline = claim_by(case)
    return {
        "species": case.get_species_display(),
        "breed": case.breed,
        "color": case.color,
        "sex": case.get_sex_display(),
        "age_months": case.approximate_age_months,
        "found_where": case.found_area or case.jurisdiction.name,
        "found_on": case.seized_on,
        "claim_by": deadline["date"],
        "claim_by_hour": time_format(deadline["time"]),
        "claim_by_citation": deadline["citation"],
    }


def _pound_part(case: ImpoundCase) -> dict:
    pound = case.pound
    return {
        "name": pound.name,
        "address": pound.address,
        "phone": pound.phone,
        "hours": [
            f"{h.get_weekday_display()} {time_format(h.opens)}-{time_format(h.closes)}"
            for h in pound.hours.all()
        ],
    }


def _site_url(path: str) -> str:
    base = getattr(settings, "SITE_URL", "") or ""
    return f"{base.rstrip('/')}{path}"


def lost_match_notify(*, match_pk: int, now: datetime | None = None) -> tuple[bool, bool]:
    """E-mail the resident and the city's officers about a match, each once (claimed
    with a conditional UPDATE first). Returns (resident sent, officers sent)."""
    now = now or timezone.now()
    match = (
        LostMatch.objects.select_related(
            "report__reporter", "report__jurisdiction", "case__jurisdiction", "case__pound"
        )
        .filter(pk=match_pk)
        .first()
    )
    if match is None:
        return False, False
    resident = officers = False
    if LostMatch.objects.filter(pk=match_pk, notified_at__isnull=True).update(notified_at=now):
        resident = _mail_resident(match)
    if LostMatch.objects.filter(pk=match_pk, officer_notified_at__isnull=True).update(
        officer_notified_at=now
    ):
        officers = _mail_officers(match)
    return resident, officers


def _send(subject, body, to, match, what) -> bool:
    if not to:
        return False
    try:
        EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, to).send()
    except Exception as exc:  # claimed: once per match, never a storm of retries
        logger.exception("Lost-match e-mail (%s) for match %s failed", what, match.pk)
        Event.record(
            f"impound.lost.{what}_email_failed",
            match.report,
            summary=f"Lost-match e-mail to the {what} not sent",
            data={"error": exc.__class__.__name__, "match": match.pk},
        )
        return False
    Event.record(
        f"impound.lost.{what}_emailed",
        match.report,
        summary=f"Lost-match e-mail sent to the {what}",
        data={"match": match.pk, "case": match.case.number},
    )
    return True


def _mail_resident(match: LostMatch) -> bool:
    report, case = match.report, match.case
    email = report.reporter.email
    context = {
        "report": report,
        "animal": public_description(case),
        "pound": _pound_part(case),
        "city": case.jurisdiction,
        "report_url": _site_url(reverse("impound:lost_report_detail", args=[report.pk])),
    }
    subject = _("%(city)s: an animal like yours is at the pound") % {
        "city": case.jurisdiction.short_name
    }
    body = render_to_string("impound/lost/emails/resident_match.txt", context)
    return _send(subject, body, [email] if email else [], match, "resident")


def officers_to_notify(jurisdiction: Jurisdiction) -> list[str]:
    """E-mail addresses of the city's active officers."""
    users = get_user_model().objects.filter(
        is_active=True, groups__name=OFFICER, jurisdictions=jurisdiction
    )
    return sorted({u.email for u in users.exclude(email="")})


def _mail_officers(match: LostMatch) -> bool:
    report, case = match.report, match.case
    context = {
        "match": match,
        "report": report,
        "case": case,
        "reporter": report.reporter,
        "case_url": _site_url(case.get_absolute_url()),
        "list_url": _site_url(reverse("impound:lost_reports")),
    }
    subject = _("%(city)s: a lost report may match case %(n)s") % {
        "city": case.jurisdiction.short_name,
        "n": case.number,
    }
    body = render_to_string("impound/lost/emails/officer_match.txt", context)
    return _send(subject, body, officers_to_notify(case.jurisdiction), match, "officers")


# --- Reminding before a report closes ---------------------------------------------------


def reminders_due(today: date) -> tuple[dict[int, int], models.QuerySet]:
    """Active reports whose stored end is today or within the city's
    ``lost_report_reminder_days`` (calendar days: a weekend or holiday moves nothing) and
    that were not yet reminded of this end: one query per city for its setting, one
    selection of rows. A report past its end is never reminded, so a run after days
    down reminds only the reports still open. Returns the days by city and the rows."""
    days: dict[int, int] = {}
    within = []
    for city in Jurisdiction.objects.order_by("pk"):
        try:
            days[city.pk] = rule_in_force(city, REMINDER_DAYS_KEY, on=today).value
        except RuleUnavailable:  # no value loaded for this city: no reminders there
            logger.warning("No %s for %s: lost reports not reminded", REMINDER_DAYS_KEY, city)
            continue
        within.append(
            Q(
                jurisdiction_id=city.pk,
                expires_on__range=(today, today + timedelta(days=days[city.pk])),
            )
        )
    if not within:
        return days, LostReport.objects.none()
    due = (
        LostReport.objects.filter(reduce(operator.or_, within), status__in=ACTIVE_LOST_STATUSES)
        .filter(
            Q(reminder_sent_for_expiry__isnull=True)
            | Q(reminder_sent_for_expiry__lt=F("expires_on"))
        )
        .exclude(reporter__email="")
    )
    return days, due


def _still_due(report: LostReport, today: date, days: int | None) -> bool:
    """Re-checked under the sweep's row lock."""
    return (
        days is not None
        and report.is_active
        and bool(report.reporter.email)
        and today <= report.expires_on <= today + timedelta(days=days)
        and (
            report.reminder_sent_for_expiry is None
            or report.reminder_sent_for_expiry < report.expires_on
        )
    )


def lost_reports_remind(*, now: datetime, dry_run: bool = False) -> SweepResult:
    """The sweep: e-mail each resident once per open period that the report closes soon."""
    today = timezone.localdate(now)
    days, due = reminders_due(today)
    return run_sweep(
        name="lost-pet report reminders",
        action=REMINDED,
        due=due.select_related("reporter", "jurisdiction"),
        still_applies=lambda r: _still_due(r, today, days.get(r.jurisdiction_id)),
        transition=lost_report_remind,
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


def lost_report_remind(report: LostReport, at: datetime) -> None:
    """Mark the report reminded of its present end (history kept), record it, and e-mail
    the resident after commit: once, since the mark is written first."""
    report.reminder_sent_for_expiry = report.expires_on
    report._change_reason = REMINDED
    report.save(update_fields=["reminder_sent_for_expiry"])
    Event.record(
        REMINDED,
        report,
        at=at,
        summary=_("Reminder e-mailed: the report closes after %(day)s")
        % {"day": date_format(report.expires_on)},
        data={"expires_on": str(report.expires_on)},
    )
    pk, end = report.pk, report.expires_on
    transaction.on_commit(lambda: _mail_reminder(pk, end), robust=True)


def _mail_reminder(pk: int, expires_on: date) -> bool:
    """The reminder: what the resident's own report page shows of the report (no phone,
    no contact), the day it closes and the page where it is renewed."""
    report = LostReport.objects.select_related("reporter", "jurisdiction").filter(pk=pk).first()
    if report is None or not report.reporter.email:
        return False
    city = report.jurisdiction
    context = {
        "report": report,
        "city": city,
        "expires_on": expires_on,
        "report_url": _site_url(reverse("impound:lost_report_detail", args=[report.pk])),
    }
    subject = _("%(city)s: your lost-pet report closes after %(day)s") % {
        "city": city.short_name,
        "day": date_format(expires_on),
    }
    body = render_to_string("impound/lost/emails/resident_reminder.txt", context)
    try:
        EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [report.reporter.email]).send()
    except Exception as exc:  # marked first: once per period, never a storm of retries
        logger.exception("Lost-report reminder for report %s failed", report.pk)
        Event.record(
            f"{REMINDED}_email_failed",
            report,
            summary=_("Lost-report reminder e-mail not sent"),
            data={"error": exc.__class__.__name__, "expires_on": str(expires_on)},
        )
        return False
    return True
