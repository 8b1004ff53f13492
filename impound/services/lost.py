"""Lost-pet reports and matching them to the pound's animals.

Rules: IMP-05, REC-04 (North Branch Sec. 6-68: "every possible effort to notify the
owners"; Glencoe 701 Subds. 13, 14). How long a report stays open
(``lost_report_open_days``) and how long after the day lost an intake may match
(``lost_match_window_days``) are the profile's program settings, not ordinance rules;
so is how many days before its end the resident is reminded to renew it
(``lost_report_reminder_days``, once per open period: ``lost_reports_remind``).

One service answers "is this a likely match" (``match_score``). It runs when a resident
files a report (against the animals in the pound now) and when an intake is recorded
(against the open reports: a ``post_save`` receiver on ``ImpoundCase`` runs it after the
intake commits, so the intake service imports nothing of this). A match is stored once
per (report, case) and each side is e-mailed once, claimed by a conditional UPDATE.

What the resident's e-mail says is what the public found page shows (species, breed,
color, sex, approximate age, where and when found at street level, the claim-by date
with its section) and the pound's address and hours: never the finder or an owner. The
officer sees the resident's contact.
"""

import logging
import operator
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import reduce

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.db import IntegrityError, models, transaction
from django.db.models import F, Q
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _

from base.roles import OFFICER
from impound.models import (
    ACTIVE_LOST_STATUSES,
    OPEN_STATUSES,
    ImpoundCase,
    LostMatch,
    LostReport,
    LostStatus,
)
from impound.services.notices import claim_by
from kernel.checks import refuse_if_future
from licensing.models.registry import Sex
from ordinance.models import Event, Jurisdiction
from ordinance.refusals import Refused, refusing
from ordinance.rules import RuleUnavailable, get_rule
from ordinance.sweeps import SweepResult, run_sweep

logger = logging.getLogger(__name__)

OPEN_DAYS_KEY = "lost_report_open_days"
WINDOW_KEY = "lost_match_window_days"
REMINDER_DAYS_KEY = "lost_report_reminder_days"
REMINDED = "impound.lost.reminded"

# How the score adds up, out of 100 (a matching measure of this software, not an
# ordinance value): species is required; a tag or microchip that agrees is decisive.
SPECIES_POINTS = 20
SEX_POINTS = 15
COLOR_POINTS = 25
BREED_POINTS = 20
BREED_UNKNOWN_POINTS = 5
PLACE_POINTS = 10
DATE_POINTS = 10
DECISIVE_SCORE = 100
LIKELY_SCORE = 60

# Words that say nothing about which animal it is.
_FILLER = frozenset(
    {"a", "an", "and", "the", "of", "with", "mix", "mixed", "cross", "x", "breed", "dog", "cat"}
)
_STREET_FILLER = frozenset(
    {
        "st",
        "street",
        "ave",
        "avenue",
        "rd",
        "road",
        "dr",
        "drive",
        "ln",
        "lane",
        "blvd",
        "ct",
        "court",
        "n",
        "s",
        "e",
        "w",
        "north",
        "south",
        "east",
        "west",
        "and",
        "near",
        "at",
        "by",
        "the",
        "of",
        "park",
    }
)
# Spellings that mean the same.
_SYNONYMS = {
    "grey": "gray",
    "lab": "labrador",
    "labs": "labrador",
    "golden": "golden",
    "gsd": "shepherd",
    "alsatian": "shepherd",
    "pitbull": "pit",
    "pittie": "pit",
    "blk": "black",
    "wht": "white",
    "brn": "brown",
    "tan": "tan",
    "tri": "tricolor",
    "tricolour": "tricolor",
    "colour": "color",
    "calico": "calico",
    "tabby": "tabby",
}
_WORD = re.compile(r"[a-z0-9]+")
_HOUSE_NUMBER = re.compile(r"^\s*\d+[a-z]?\s+(?=\D)", re.IGNORECASE)


def words(text: str, *, filler=_FILLER) -> frozenset[str]:
    """Lower-case words of ``text``, spelled one way, without filler words."""
    found = set()
    for word in _WORD.findall((text or "").lower()):
        if word.endswith("s") and len(word) > 3 and word[:-1] in _SYNONYMS:
            word = word[:-1]
        word = _SYNONYMS.get(word, word)
        if word not in filler:
            found.add(word)
    return frozenset(found)


def street_level(text: str) -> str:
    """A place without its house number ("12 Elm St" -> "Elm St"): what a page or an
    e-mail may show of where an animal was found or lost."""
    return _HOUSE_NUMBER.sub("", text or "").strip()


def _identifier(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", (text or "").lower())


@dataclass(frozen=True)
class MatchScore:
    score: int
    reasons: tuple[str, ...] = ()
    decisive: bool = False
    ruled_out: str = ""

    @property
    def likely(self) -> bool:
        return not self.ruled_out and (self.decisive or self.score >= LIKELY_SCORE)


@dataclass
class _Tally:
    score: int = 0
    reasons: list[str] = field(default_factory=list)

    def add(self, points: int, reason: str) -> None:
        self.score += points
        self.reasons.append(reason)


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Share of the shorter description's words the other has too (0..1)."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def match_score(report: LostReport, case: ImpoundCase, *, window_days: int) -> MatchScore:
    """Is ``case`` likely the animal of ``report``? Species must agree and the case must be
    in the report's city; a tag number or microchip that agrees is decisive, one that
    differs rules the animal out; otherwise sex, color, breed, place and date add up."""
    if report.species != case.species:
        return MatchScore(0, ruled_out=_("Another species"))
    if report.jurisdiction_id != case.jurisdiction_id:
        return MatchScore(0, ruled_out=_("Another city"))
    chip, case_chip = _identifier(report.microchip), _identifier(case.microchip)
    if chip and case_chip:
        if chip == case_chip:
            return MatchScore(DECISIVE_SCORE, (_("The microchip number matches"),), True)
        return MatchScore(0, ruled_out=_("Another microchip number"))
    tag = _identifier(report.tag_number)
    if tag and case.tag_text:
        case_tags = {_identifier(w) for w in re.split(r"[\s,;:/#]+", case.tag_text)}
        if tag in case_tags or tag == _identifier(case.tag_text):
            return MatchScore(DECISIVE_SCORE, (_("The tag number matches"),), True)
    placed_on = timezone.localtime(case.placed_at).date()
    if placed_on < report.lost_on or (placed_on - report.lost_on).days > window_days:
        return MatchScore(0, ruled_out=_("Taken in outside the days after the loss"))
    known = {Sex.MALE, Sex.FEMALE}
    if report.sex in known and case.sex in known and report.sex != case.sex:
        return MatchScore(0, ruled_out=_("Another sex"))

    tally = _Tally()
    tally.add(SPECIES_POINTS, _("Same species"))
    if report.sex in known and report.sex == case.sex:
        tally.add(SEX_POINTS, _("Same sex"))
    color = _overlap(words(report.color), words(case.color))
    if color:
        tally.add(round(COLOR_POINTS * color), _("Color alike"))
    report_breed, case_breed = words(report.breed), words(case.breed)
    if report_breed and case_breed:
        breed = _overlap(report_breed, case_breed)
        if breed:
            tally.add(round(BREED_POINTS * breed), _("Breed alike"))
    else:
        tally.score += BREED_UNKNOWN_POINTS
    streets = _overlap(
        words(report.lost_where, filler=_STREET_FILLER),
        words(f"{case.found_area} {case.seized_where}", filler=_STREET_FILLER),
    )
    if streets:
        tally.add(PLACE_POINTS, _("Found near where it was lost"))
    tally.add(DATE_POINTS, _("Taken in after it was lost"))
    return MatchScore(min(tally.score, DECISIVE_SCORE - 1), tuple(tally.reasons))


# --- Filing, renewing, closing -------------------------------------------------------


def _open_days(jurisdiction: Jurisdiction, on: date):
    return get_rule(jurisdiction, OPEN_DAYS_KEY, on=on)


REPORT_FIELDS = frozenset(
    {
        "species",
        "breed",
        "color",
        "sex",
        "approximate_age_months",
        "name",
        "distinguishing_marks",
        "tag_number",
        "microchip",
        "photo",
        "lost_on",
        "lost_where",
        "contact_preference",
        "contact_phone",
    }
)


@refusing()
@transaction.atomic
def lost_report_file(
    *, reporter, jurisdiction: Jurisdiction, now: datetime | None = None, **fields
) -> LostReport:
    """File a resident's lost report: its end stored from the profile's setting, then
    compared with the animals in the city's pound now (IMP-05)."""
    unknown = set(fields) - REPORT_FIELDS
    if unknown:
        raise TypeError(f"Not lost-report fields: {sorted(unknown)}")
    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_if_future(fields["lost_on"], _("Date lost"), field="lost_on", today=today)
    if fields.get("contact_preference") == "phone" and not (fields.get("contact_phone") or ""):
        raise Refused.because(
            _("Phone"), _("Give a phone number to be called on."), field="contact_phone"
        )
    rule = _open_days(jurisdiction, today)
    report = LostReport(
        jurisdiction=jurisdiction,
        reporter=reporter,
        status=LostStatus.OPEN,
        status_changed_at=now,
        expires_on=today + timedelta(days=rule.value),
        expires_citation=rule.citation,
        **{k: v for k, v in fields.items() if v is not None},
    )
    report.lost_where = street_level(report.lost_where) or report.lost_where
    report.save()
    Event.record(
        "impound.lost.filed",
        report,
        actor=reporter,
        at=now,
        summary=_("Lost %(what)s reported; open until %(end)s (%(citation)s)")
        % {
            "what": report.description(),
            "end": date_format(report.expires_on),
            "citation": rule.citation,
        },
        data={"expires_on": str(report.expires_on)},
    )
    match_report(report, now=now)
    return report


@refusing()
@transaction.atomic
def lost_report_renew(*, report: LostReport, actor, now: datetime | None = None) -> LostReport:
    """Move the report's end forward: the profile's days from today (never earlier than
    it was). An expired report opens again; a closed one stays closed."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    report = LostReport.objects.select_for_update().get(pk=report.pk)
    if not report.is_active:
        report.ensure("reopen", to=LostStatus.OPEN)  # a closed report stays closed
    rule = _open_days(report.jurisdiction, today)
    before = report.expires_on
    report.expires_on = max(before, today + timedelta(days=rule.value))
    report.expires_citation = rule.citation
    renewed = {
        "actor": actor,
        "at": now,
        "summary": _("Lost report renewed: open until %(end)s (%(citation)s)")
        % {"end": date_format(report.expires_on), "citation": rule.citation},
        "data": {"was": str(before), "expires_on": str(report.expires_on)},
    }
    if report.is_active:  # only its end moves
        report.save(update_fields=["expires_on", "expires_citation"])
        Event.record("impound.lost.renewed", report, **renewed)
        return report
    matched = report.matches.exists()
    report.apply(
        "reopen",
        to=LostStatus.MATCHED if matched else LostStatus.OPEN,
        fields=["expires_on", "expires_citation"],
        **renewed,
    )
    match_report(report, now=now)
    return report


@refusing()
@transaction.atomic
def lost_report_close(
    *, report: LostReport, actor, note: str, now: datetime | None = None
) -> LostReport:
    """The resident found the animal (or no longer looks): the report is closed."""
    report = LostReport.objects.select_for_update().get(pk=report.pk)
    report.close(at=now or timezone.now(), actor=actor, note=note)
    return report


# --- Matching ------------------------------------------------------------------------


def _window(jurisdiction: Jurisdiction, on: date) -> int:
    return get_rule(jurisdiction, WINDOW_KEY, on=on).value


def match_report(report: LostReport, *, now: datetime) -> list[LostMatch]:
    """Compare an active report with the animals now in its city's pound."""
    if not report.is_active:
        return []
    window = _window(report.jurisdiction, timezone.localdate(now))
    cases = ImpoundCase.objects.filter(
        jurisdiction_id=report.jurisdiction_id,
        status__in=OPEN_STATUSES,
        species=report.species,
    )
    return _store(((report, case) for case in cases), window=window, now=now)


def match_case(case: ImpoundCase, *, now: datetime) -> list[LostMatch]:
    """Compare an animal just taken in with the active reports of its city."""
    if not case.is_open:
        return []
    window = _window(case.jurisdiction, timezone.localdate(now))
    reports = LostReport.objects.filter(
        jurisdiction_id=case.jurisdiction_id,
        status__in=ACTIVE_LOST_STATUSES,
        species=case.species,
    )
    return _store(((report, case) for report in reports), window=window, now=now)


def _store(pairs, *, window: int, now: datetime) -> list[LostMatch]:
    stored = []
    for report, case in pairs:
        result = match_score(report, case, window_days=window)
        if not result.likely:
            continue
        match = _store_one(report, case, result, now)
        if match is not None:
            stored.append(match)
    return stored


def _store_one(report, case, result: MatchScore, now) -> LostMatch | None:
    """The match, once per (report, case): None when it was stored before."""
    if LostMatch.objects.filter(report=report, case=case).exists():
        return None
    try:
        with transaction.atomic():
            match = LostMatch.objects.create(
                report=report,
                case=case,
                score=result.score,
                reasons=list(result.reasons),
                decisive=result.decisive,
                created_at=now,
            )
    except IntegrityError:  # another run stored it a moment ago
        return None
    report.mark_matched(at=now, data={"case": case.number, "score": result.score})
    Event.record(
        "impound.lost.match_found",
        case,
        at=now,
        summary=_("Likely match with a lost report (score %(s)s): %(r)s")
        % {"s": result.score, "r": "; ".join(result.reasons)},
        data={"report": report.pk, "score": result.score, "decisive": result.decisive},
    )
    transaction.on_commit(lambda: lost_match_notify(match_pk=match.pk), robust=True)
    return match


@receiver(post_save, sender=ImpoundCase, dispatch_uid="impound.lost.match_new_intake")
def _match_new_intake(sender, instance, created, raw=False, **kwargs):
    """A new intake is compared with the open reports once it commits; a failure here
    never undoes the intake (``robust``)."""
    if created and not raw:
        pk = instance.pk
        transaction.on_commit(lambda: _match_case_pk(pk), robust=True)


def _match_case_pk(pk: int) -> None:
    case = ImpoundCase.objects.select_related("jurisdiction").filter(pk=pk).first()
    if case is not None:
        with transaction.atomic():
            match_case(case, now=timezone.now())


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
            days[city.pk] = get_rule(city, REMINDER_DAYS_KEY, on=today).value
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
