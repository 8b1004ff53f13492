"""Dangerous-dog sweeps of the compliance stage (DD-10, DD-15, DD-20, DD-21; G20, G22).

- ``dangerous_dogs.compliance_overdue``: a declared dangerous dog whose stored
  ``compliance_deadline`` is before today, not registered and not yet marked
  (``seizure_due_on`` null). With an appeal pending and ``appeal_stays_compliance`` blank
  (Appendix D G22), a person is asked instead, once (the flag's Event marks it); else the
  case is marked for seizure and flagged with the missing items (Subd. 15(K)(1)).
- ``dangerous_dogs.registration_lapsed``: the latest registration of a registered dog
  whose ``expires_on`` is before today, not renewed: flagged once as a 15(G)(2) violation.
  Seizure for it only where ``dd_seize_on_later_breach`` is true (G20); Glencoe's is false
  and the flag says so.

- ``dangerous_dogs.seizure_disposed``: a seized dog whose impound case closed without a
  reclaim (euthanized, died, adopted, transferred, released) before today: the case
  closes the same way, once.

All select on the stored date or the state, so a second run changes nothing and a run
after days down acts once per row (ordinance.sweeps.run_sweep).
"""

from collections.abc import Iterable
from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db.models import CharField, Exists, OuterRef
from django.db.models.functions import Cast
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from base.together import Part
from dangerous_dogs.models import (
    Appeal,
    CaseStatus,
    Designation,
    DesignationCase,
    Registration,
)
from impound.models import CaseStatus as ImpoundStatus
from ordinance.deadlines import Deadline, UpcomingQuery, register_sweep, register_upcoming
from ordinance.models import Event
from ordinance.rules import RuleNotSet, rule_in_force
from ordinance.sweeps import run_sweep

STAY_FLAGGED = "dangerous_dogs.compliance.appeal_flagged"
SEIZURE_DUE = "dangerous_dogs.compliance.seizure_due"
LAPSED = "dangerous_dogs.registration.lapsed"


def _events(model, action):
    return Event.objects.filter(
        subject_type=ContentType.objects.get_for_model(model),
        subject_id=Cast(OuterRef("pk"), CharField()),
        action=action,
    )


def _pending_appeals():
    return Appeal.objects.filter(case=OuterRef("pk"), decision__isnull=True)


def overdue_cases(today: date):
    return (
        DesignationCase.objects.filter(
            status=CaseStatus.DECLARED,
            declared_designation=Designation.DANGEROUS,
            compliance_deadline__lt=today,
            seizure_due_on__isnull=True,
        )
        .annotate(
            appeal_pending=Exists(_pending_appeals()),
            asked=Exists(_events(DesignationCase, STAY_FLAGGED)),
        )
        .exclude(appeal_pending=True, asked=True)
        .select_related("jurisdiction")
        .prefetch_related("proofs", "registrations", "appeals")
    )


def _stay(case, today):
    """(stays, citation): True/False as set, None while blank (a person decides)."""
    try:
        rule = rule_in_force(case.jurisdiction, "appeal_stays_compliance", on=today, optional=True)
    except RuleNotSet as exc:
        return None, exc.citation
    if rule is None:
        return False, ""
    return bool(rule.value), rule.citation


@register_sweep("dangerous_dogs.compliance_overdue")
def sweep_compliance_overdue(*, now: datetime, dry_run: bool = False):
    from dangerous_dogs.services.compliance import compliance_checklist, seizure_citation

    today = timezone.localdate(now)

    def still_applies(case):
        if case.status != CaseStatus.DECLARED or case.seizure_due_on is not None:
            return False
        if not (case.compliance_deadline and case.compliance_deadline < today):
            return False
        pending = any(a.pending for a in case.appeals.all())
        if pending:
            stays, _citation = _stay(case, today)
            if stays is True:
                return False
        return True

    def transition(case, at):
        pending = any(a.pending for a in case.appeals.all())
        if pending:
            stays, citation = _stay(case, today)
            if stays is None:
                reason = _(
                    "The compliance deadline of %(d)s passed while an appeal is pending; the "
                    "ordinance does not say whether an appeal stays it: decide whether to "
                    "seize the dog."
                ) % {"d": date_format(case.compliance_deadline)}
                case.flag(reason, citation, on=today, at=at)
                Event.record(STAY_FLAGGED, case, at=at, summary=reason, data={"on": str(today)})
                return
        checklist = compliance_checklist(case, on=today, registration_in_force=False)
        citation = seizure_citation(case.jurisdiction, on=today)
        reason = _(
            "Seize the dog: the compliance deadline passed with %(items)s missing (%(section)s)"
        ) % {"items": checklist.missing_labels or _("registration"), "section": citation}
        case.seizure_due_on = today
        case.save(update_fields=["seizure_due_on"])
        case.flag(reason, citation, on=today, at=at)
        Event.record(
            SEIZURE_DUE,
            case,
            at=at,
            summary=reason,
            data={"deadline": str(case.compliance_deadline), "on": str(today)},
        )

    return run_sweep(
        name="dangerous-dog compliance overdue",
        action=SEIZURE_DUE,
        due=overdue_cases(today),
        still_applies=still_applies,
        transition=transition,
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


def lapsed_registrations(today: date):
    return (
        Registration.objects.filter(
            case__status=CaseStatus.REGISTERED,
            expires_on__lt=today,
            renewed_by__isnull=True,
        )
        .exclude(Exists(_events(Registration, LAPSED)))
        .select_related("case__jurisdiction")
    )


@register_sweep("dangerous_dogs.registration_lapsed")
def sweep_registration_lapsed(*, now: datetime, dry_run: bool = False):
    today = timezone.localdate(now)

    def still_applies(registration):
        return registration.case.status == CaseStatus.REGISTERED and registration.expires_on < today

    def transition(registration, at):
        case = registration.case
        rule = rule_in_force(case.jurisdiction, "dd_seize_on_later_breach", on=today, optional=True)
        if rule is not None and rule.value:
            consequence = _("the city's rule allows seizure for it (%(s)s).") % {"s": rule.citation}
        else:
            consequence = _(
                "not a ground for seizure: the ordinance has none after registration%(s)s."
            ) % {"s": f" ({rule.citation})" if rule else ""}
        reason = _(
            "Registration %(n)s was not renewed by %(d)s: a violation of %(section)s; "
            "%(consequence)s"
        ) % {
            "n": registration.number,
            "d": date_format(registration.expires_on),
            "section": registration.renewal_citation,
            "consequence": consequence,
        }
        case.flag(reason, registration.renewal_citation, on=today, at=at)
        Event.record(LAPSED, registration, at=at, summary=reason, data={"case": case.pk})

    return run_sweep(
        name="dangerous-dog registrations lapsed",
        action=LAPSED,
        due=lapsed_registrations(today),
        still_applies=still_applies,
        transition=transition,
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


def upcoming_compliance(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    """ "Dangerous dog: comply or destroy" (the home page reads it with the other case
    deadlines in one query: dangerous_dogs.upcoming)."""
    from dangerous_dogs.upcoming import case_deadlines

    return case_deadlines(
        jurisdiction_ids=jurisdiction_ids, start=start, end=end, kinds=("compliance",)
    )


@register_upcoming("dangerous_dogs.registration_renewal")
def upcoming_renewals(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    rows = Registration.objects.filter(
        jurisdiction_id__in=jurisdiction_ids,
        case__status=CaseStatus.REGISTERED,
        renewed_by__isnull=True,
        expires_on__range=(start, end),
    )
    yield UpcomingQuery({"rows": Part(rows, related=("jurisdiction",))}, _renewals)


def _renewals(found) -> Iterable[Deadline]:
    for row in found["rows"]:
        yield Deadline(
            due=row.expires_on,
            what=_("Dangerous-dog registration renewal due"),
            subject=row.number,
            consequence=_("a violation the next day"),
            citation=row.renewal_citation,
            url=reverse("dangerous_dogs:case_detail", args=[row.case_id]),
            jurisdiction=row.jurisdiction.short_name,
        )


# How the impound case of a seized dog closed -> how the designation case closes (DD-23:
# a dog not reclaimed within the period is disposed of under Minn. Stat. 35.71 subd. 3).
# A redemption never reaches here: the reclaim moves the case in the same transaction.
SEIZURE_OUTCOMES = {
    ImpoundStatus.EUTHANIZED: CaseStatus.DESTROYED,
    ImpoundStatus.DIED: CaseStatus.DECEASED,
    ImpoundStatus.ADOPTED: CaseStatus.TRANSFERRED,
    ImpoundStatus.TRANSFERRED: CaseStatus.TRANSFERRED,
    ImpoundStatus.RELEASED: CaseStatus.TRANSFERRED,
}


@register_sweep("dangerous_dogs.seizure_disposed")
def sweep_seizure_disposed(*, now: datetime, dry_run: bool = False):
    """A seized dog the pound disposed of after the reclaim period: from the next day the
    case closes the way the impound case did, once (DD-23, Subd. 15(K)(3))."""
    today = timezone.localdate(now)

    def transition(case, at):
        impound = case.impound_case
        status = SEIZURE_OUTCOMES[impound.status]
        case.closed_on = impound.closed_on or today
        case.closing_note = (
            _("Not reclaimed: impound case %(n)s closed as %(how)s")
            % {"n": impound.number, "how": impound.get_status_display().lower()}
        )[:300]
        case.apply(
            "dispose",
            to=status,
            actor=None,
            at=at,
            summary=case.closing_note,
            citation=impound.ground_citation,
            data={"impound_case": impound.number, "impound_status": impound.status},
            fields=["closed_on", "closing_note"],
        )

    return run_sweep(
        name="seized dangerous dogs disposed of",
        action="dangerous_dogs.case.seizure_disposed",
        due=DesignationCase.objects.filter(
            status__in=DesignationCase.transition("dispose").sources,
            impound_case__status__in=list(SEIZURE_OUTCOMES),
            impound_case__closed_on__lt=today,
        ).select_related("jurisdiction", "impound_case"),
        still_applies=lambda c: (
            c.may("dispose")
            and c.impound_case.status in SEIZURE_OUTCOMES
            and c.impound_case.closed_on < today
        ),
        transition=transition,
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )
