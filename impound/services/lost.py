"""Lost-pet reports: filing, renewing and closing them, and matching them with the
pound's animals (IMP-05, REC-04: North Branch Sec. 6-68 "every possible effort to notify
the owners"; Glencoe 701 Subds. 13, 14).

How long a report stays open (``lost_report_open_days``) and how long after the day lost
an intake may match (``lost_match_window_days``) are the profile's program settings, not
ordinance rules. Matching runs when a resident files a report (against the animals in
the pound now) and when an intake is recorded (against the open reports: a ``post_save``
receiver on ``ImpoundCase`` runs it after the intake commits, so the intake service
imports nothing of this). A match is stored once per (report, case); who hears of it,
and the reminder before a report closes, is ``lost_mail``; the score is ``lost_matching``.
"""

from datetime import date, datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from impound.models import (
    ACTIVE_LOST_STATUSES,
    OPEN_STATUSES,
    ImpoundCase,
    LostMatch,
    LostReport,
    LostStatus,
)
from kernel.checks import refuse_if_future
from ordinance.models import Event, Jurisdiction
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_in_force

from .lost_mail import lost_match_notify
from .lost_matching import MatchScore, match_score, street_level

OPEN_DAYS_KEY = "lost_report_open_days"
WINDOW_KEY = "lost_match_window_days"


# --- Filing, renewing, closing -------------------------------------------------------


def _open_days(jurisdiction: Jurisdiction, on: date):
    return rule_in_force(jurisdiction, OPEN_DAYS_KEY, on=on)


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
    return rule_in_force(jurisdiction, WINDOW_KEY, on=on).value


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
