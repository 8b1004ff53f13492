"""A specimen sent for rabies testing, and its result (NB Sec. 6-96(6); GL 701 Subd. 21(C)).

``lab_submit`` records the humane destruction and the submission of a bite's animal (after
the officer's decision to destroy for testing, or the Hearing Examiner's decision to
euthanize and test); the bite report waits for the result. ``lab_result_record`` records
the laboratory's answer; any result closes the report, and a positive one puts the follow-up
of the people and animals exposed before a person (RAB-07).
"""

from dataclasses import asdict, dataclass, replace
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from kernel.checks import refuse_if_before, refuse_if_future, refuse_unless_serves
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation
from rabies.models import BiteReport, HearingOutcome, LabResult, LabSubmission

from .common import city_rule, locked

RESULTS = (LabResult.NEGATIVE, LabResult.POSITIVE, LabResult.UNSATISFACTORY)


def default_laboratory(jurisdiction, *, on: date) -> tuple[str, str]:
    """(laboratory, section) the city's ordinance names, or ("", "")."""
    rule = city_rule(jurisdiction, "rabies_laboratory", on=on)
    return (str(rule.value), rule.citation) if rule is not None else ("", "")


@dataclass(frozen=True)
class Specimen:
    """The animal destroyed and its specimen sent: the form's fields."""

    destroyed_on: date | None = None
    submitted_on: date | None = None
    laboratory: str = ""
    specimen_reference: str = ""


def _hearing_decision(bite: BiteReport):
    """The Hearing Examiner's decision to euthanize and test (RAB-22: never before it)."""
    hearing = bite.hearings.order_by("-pk").first()
    if hearing is None or hearing.outcome != HearingOutcome.EUTHANIZE_AND_TEST:
        raise Refused.because(
            _("Laboratory submission"),
            _("Only after the Hearing Examiner's decision to euthanize and test."),
            hearing.citation if hearing else "",
        )
    return hearing.decision


def _checked(specimen: Specimen, bite: BiteReport, today: date) -> Specimen:
    """The specimen's dates checked against the bite and today, and its laboratory (the
    one the city's ordinance names when none is given)."""
    bite_day = timezone.localtime(bite.bitten_at).date()
    for value, label, field in (
        (specimen.destroyed_on, _("Destroyed on"), "destroyed_on"),
        (specimen.submitted_on, _("Submitted on"), "submitted_on"),
    ):
        if value is None:
            raise Refused.because(label, _("Give the date."), field=field)
        refuse_if_future(value, label, field=field, today=today)
        refuse_if_before(value, bite_day, label, _("the bite"), field=field)
    if specimen.submitted_on < specimen.destroyed_on:
        raise Refused.because(
            _("Submitted on"),
            _("The specimen cannot be submitted before the animal was destroyed."),
            field="submitted_on",
        )
    laboratory = (specimen.laboratory or "").strip()
    if not laboratory:
        laboratory, _citation = default_laboratory(bite.jurisdiction, on=bite_day)
    if not laboratory:
        raise Refused.because(_("Laboratory"), _("Name the laboratory."), field="laboratory")
    reference = (specimen.specimen_reference or "").strip()
    return replace(specimen, laboratory=laboratory, specimen_reference=reference)


@refusing()
@transaction.atomic
def lab_submit(
    bite: BiteReport,
    *,
    actor,
    decision=None,
    transition: str = "test_after_hearing",
    now: datetime | None = None,
    **specimen,
) -> LabSubmission:
    """Record the animal destroyed and sent to the laboratory (``specimen``: the fields of
    ``Specimen``); the bite awaits the result.

    After a Hearing Examiner's proceeding (``transition`` "test_after_hearing") the
    decision must be to euthanize and test; after the officer's decision to destroy for
    testing, ``bite_decide`` passes "destroy" and its decision."""
    now = now or timezone.now()
    refuse_unless_serves(actor, bite.jurisdiction)
    bite = locked(BiteReport, bite.pk)
    bite.require(transition, _("a laboratory submission"))
    if transition == "test_after_hearing":
        decision = _hearing_decision(bite)
    specimen = _checked(Specimen(**specimen), bite, timezone.localdate(now))
    submission = LabSubmission.objects.create(
        jurisdiction=bite.jurisdiction,
        bite_report=bite,
        decision=decision,
        recorded_by=actor,
        **asdict(specimen),
    )
    bite.apply(
        transition,
        actor=actor,
        at=now,
        summary=_("Destroyed on %(d)s; submitted to %(lab)s on %(s)s")
        % {
            "d": date_format(specimen.destroyed_on),
            "lab": specimen.laboratory,
            "s": date_format(specimen.submitted_on),
        },
        data={"submission": submission.pk},
    )
    return submission


@refusing()
@transaction.atomic
def lab_result_record(
    submission: LabSubmission,
    *,
    actor,
    result: str,
    result_on: date,
    result_file=None,
    now: datetime | None = None,
) -> LabSubmission:
    """The laboratory's result: closes the bite report; a positive result is flagged."""
    now = now or timezone.now()
    refuse_unless_serves(actor, submission.jurisdiction)
    submission = LabSubmission.objects.select_for_update().get(pk=submission.pk)
    if submission.result != LabResult.PENDING:
        raise Refused.because(_("Result"), _("The result is already recorded."))
    if result not in RESULTS:
        raise Refused.because(_("Result"), _("Choose the laboratory's result."), field="result")
    if result_on is None:
        raise Refused.because(_("Result received on"), _("Give the date."), field="result_on")
    refuse_if_future(
        result_on, _("Result received on"), field="result_on", today=timezone.localdate(now)
    )
    if result_on < submission.submitted_on:
        raise Refused.because(
            _("Result received on"),
            _("The result cannot come before the submission (%(d)s).")
            % {"d": date_format(submission.submitted_on)},
            field="result_on",
        )
    if not result_file:
        raise Refused.because(
            _("Laboratory report"), _("Attach the laboratory's report."), field="result_file"
        )
    submission.result, submission.result_on = result, result_on
    submission.result_file = result_file
    submission.save(update_fields=["result", "result_on", "result_file"])
    label = LabResult(result).label
    bite = submission.bite_report
    if bite is None:  # a quarantine's submission closes no bite report
        Event.record(
            "rabies.lab.result",
            submission.quarantine,
            actor=actor,
            at=now,
            summary=str(label),
            data={"submission": submission.pk},
        )
        return submission
    bite = BiteReport.objects.select_for_update(of=("self",)).get(pk=bite.pk)
    bite.require("result", _("a laboratory result"))
    bite.closed_on = timezone.localdate(now)
    bite.closing_note = _("Laboratory result from %(lab)s on %(d)s: %(r)s") % {
        "lab": submission.laboratory,
        "d": date_format(result_on),
        "r": label,
    }
    bite.apply(
        "result",
        actor=actor,
        at=now,
        summary=bite.closing_note,
        data={"submission": submission.pk, "result": result},
        fields=["closed_on", "closing_note"],
    )
    if result == LabResult.POSITIVE:
        citation = rule_citation(bite.jurisdiction, "RAB-07") or rule_citation(
            bite.jurisdiction, "RAB-12"
        )
        bite.flag(
            _(
                "Positive for rabies: the people and animals exposed must be followed up "
                "under the state's rabies law."
            ),
            citation,
            on=timezone.localdate(now),
            actor=actor,
            at=now,
        )
    return submission
