"""The end of the period (the sweep) and the examination when it is over (C44; GL 701
Subd. 21(A), (B)): signs of rabies escalate, and the animal is not released."""

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from kernel.checks import refuse_if_future, refuse_unless_serves
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from rabies.models import (
    Quarantine,
)

from ..common import city_rule, locked


def mark_ended(quarantine: Quarantine, *, on: date, at: datetime) -> None:
    quarantine.ended_marked_on = on
    quarantine.apply(
        "end",
        at=at,
        summary=_("Period over on %(d)s: examination and release due (%(s)s)")
        % {"d": date_format(quarantine.ends_on), "s": quarantine.end_citation},
        citation=quarantine.end_citation,
        data={"ends_on": str(quarantine.ends_on)},
        fields=["ended_marked_on"],
    )


def exam_citation(quarantine) -> str:
    rule = city_rule(quarantine.jurisdiction, "quarantine_exam_required", on=quarantine.starts_on)
    return rule.citation if rule else quarantine.end_citation


def examiner_capacities(jurisdiction, *, on: date | None = None) -> list[str]:
    """Who examines: Glencoe names the Rabies Control Authority or a veterinarian (21(A),
    (B)); a city without that rule, its animal control officer or a veterinarian."""
    exam = city_rule(jurisdiction, "quarantine_exam_required", on=on or timezone.localdate())
    if exam is not None:
        return [_("Rabies Control Authority"), _("Veterinarian")]
    return [_("Animal control officer"), _("Veterinarian")]


def _check_exam(quarantine, examined_on, examiner_name, capacity, signs, *, cite, today):
    """Once, when the period is over, by a named examiner of a capacity the city names,
    saying whether there were signs."""
    if quarantine.examined_on is not None:
        raise Refused.because(
            _("Examination"),
            _("The examination was recorded on %(d)s.")
            % {"d": date_format(quarantine.examined_on)},
            cite,
        )
    if examined_on is None:
        raise Refused.because(_("Examined on"), _("Enter the date."), field="examined_on")
    refuse_if_future(examined_on, _("Examined on"), field="examined_on", today=today)
    if examined_on < quarantine.ends_on:
        raise Refused.because(
            _("Examined on"),
            _("The examination is made when the period is over: not before %(d)s.")
            % {"d": date_format(quarantine.ends_on)},
            f"{cite}; {quarantine.end_citation}" if cite != quarantine.end_citation else cite,
            field="examined_on",
        )
    if not examiner_name.strip():
        raise Refused.because(_("Examined by"), _("Name the examiner."), field="examiner_name")
    if capacity not in examiner_capacities(quarantine.jurisdiction):
        raise Refused.because(
            _("In the capacity of"),
            _("Choose the examiner's capacity."),
            cite,
            field="examiner_capacity",
        )
    if signs is None:
        raise Refused.because(
            _("Clinical signs"),
            _("Say whether there were clinical signs of rabies."),
            field="clinical_signs",
        )


def _escalate(quarantine, fields, summary, *, cite, actor, now) -> None:
    """Signs of rabies: no release; the question of testing goes before a person."""
    today = timezone.localdate(now)
    quarantine.apply("signs", actor=actor, at=now, summary=summary, citation=cite, fields=fields)
    destroy = city_rule(quarantine.jurisdiction, "destroy_for_testing", on=today)
    lab = city_rule(quarantine.jurisdiction, "rabies_laboratory", on=today)
    quarantine.flag(
        _(
            "Signs of rabies at the examination: no release; escalate under state law "
            "(laboratory testing)."
        ),
        (lab or destroy).citation if (lab or destroy) else cite,
        on=today,
        actor=actor,
        at=now,
    )


@refusing()
@transaction.atomic
def quarantine_exam(
    quarantine: Quarantine,
    *,
    actor,
    examined_on: date,
    examiner_name: str,
    examiner_capacity: str,
    clinical_signs: bool,
    notes: str = "",
    now: datetime | None = None,
) -> Quarantine:
    """The examination when the period is over (C44). Signs of rabies escalate: no release."""
    now = now or timezone.now()
    refuse_unless_serves(actor, quarantine.jurisdiction)
    quarantine = locked(Quarantine, quarantine.pk)
    # The examination may find signs of rabies: it is made while that may follow.
    quarantine.require("signs", _("an examination"))
    cite = exam_citation(quarantine)
    _check_exam(
        quarantine,
        examined_on,
        examiner_name,
        examiner_capacity,
        clinical_signs,
        cite=cite,
        today=timezone.localdate(now),
    )
    quarantine.examined_on = examined_on
    quarantine.examiner_name = examiner_name.strip()
    quarantine.examiner_capacity = examiner_capacity
    quarantine.clinical_signs = clinical_signs
    quarantine.exam_notes = notes.strip()
    fields = ["examined_on", "examiner_name", "examiner_capacity", "clinical_signs", "exam_notes"]
    summary = _("Examined on %(d)s by %(name)s (%(cap)s): %(result)s") % {
        "d": date_format(examined_on),
        "name": quarantine.examiner_name,
        "cap": examiner_capacity,
        "result": _("clinical signs of rabies") if clinical_signs else _("no clinical signs"),
    }
    if clinical_signs:
        _escalate(quarantine, fields, summary, cite=cite, actor=actor, now=now)
    else:
        quarantine.save(update_fields=fields)
        Event.record("rabies.quarantine.examined", quarantine, actor=actor, at=now, summary=summary)
    return quarantine
