"""The investigation that opens a dangerous-dog case (DD-02, DD-26, DD-27).

What the officer found is one typed record, ``Investigation`` (the form's cleaned data,
whose choices the form already checked). The rules it is checked against: a dog, not a
law-enforcement dog (15(M)); the Subd. 1 definition agrees with the designation sought;
the dates; prong (3) of "Dangerous Dog" needs an earlier notice that the dog is
potentially dangerous, which is stored on the new case (``prior_notice_on``).
"""

from dataclasses import dataclass, fields
from datetime import date, datetime

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from dangerous_dogs.models import (
    DANGEROUS_CRITERIA,
    POTENTIALLY_DANGEROUS_CRITERIA,
    CaseStatus,
    Criterion,
    Designation,
    DesignationCase,
    IncidentKind,
)
from kernel.checks import refuse_if_future
from licensing.models import Animal
from ordinance.refusals import Refused
from ordinance.rules import rule_citation

CRITERIA = {
    Designation.DANGEROUS: DANGEROUS_CRITERIA,
    Designation.POTENTIALLY_DANGEROUS: POTENTIALLY_DANGEROUS_CRITERIA,
}
# A notice that the dog is potentially dangerous stands unless the case ended without it.
NOT_A_NOTICE = (
    CaseStatus.EXEMPT,
    CaseStatus.WITHDRAWN,
    CaseStatus.DISMISSED,
    CaseStatus.RESCINDED,
)
EXEMPTIONS = ("exempt_trespass", "exempt_provocation", "exempt_crime")
TEXTS = ("location", "victim", "injuries", "witnesses", "evidence", "exemption_findings")


@dataclass(frozen=True)
class Investigation:
    """The incident and what the investigation found, each 15(L) exemption considered."""

    incident_kind: IncidentKind
    occurred_at: datetime
    location: str
    victim: str
    criterion: Criterion
    designation: Designation
    exemption_findings: str
    investigated_by_name: str
    investigated_on: date
    off_owner_property: bool = True
    injuries: str = ""
    witnesses: str = ""
    evidence: str = ""
    evidence_file: object = None
    exempt_trespass: bool = False
    exempt_provocation: bool = False
    exempt_crime: bool = False

    def __post_init__(self):
        for name, choices in (
            ("incident_kind", IncidentKind),
            ("criterion", Criterion),
            ("designation", Designation),
        ):
            object.__setattr__(self, name, choices(getattr(self, name)))

    @property
    def exemptions(self) -> list[str]:
        """The exemptions found to apply (the case's field names)."""
        return [name for name in EXEMPTIONS if getattr(self, name)]

    def case_fields(self) -> dict:
        """The case's columns, texts trimmed; no evidence file unless one was given."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update({name: (values[name] or "").strip() for name in TEXTS})
        values["investigated_by_name"] = self.investigated_by_name.strip()
        if not self.evidence_file:
            del values["evidence_file"]
        return values


def prior_pdd_notice(animal: Animal, *, exclude_pk=None) -> date | None:
    """The first date the owner was sent notice that the dog is potentially dangerous:
    the receipt of a potentially-dangerous notice of intent or a PDD declaration on an
    earlier case that still stands (DD-02 prong 3)."""
    cases = DesignationCase.objects.filter(animal=animal).exclude(status__in=NOT_A_NOTICE)
    if exclude_pk:
        cases = cases.exclude(pk=exclude_pk)
    dates = []
    for received, declared_on, designation, declared in cases.values_list(
        "notice_received_on", "declared_on", "designation", "declared_designation"
    ):
        if designation == Designation.POTENTIALLY_DANGEROUS and received:
            dates.append(received)
        if declared == Designation.POTENTIALLY_DANGEROUS and declared_on:
            dates.append(declared_on)
    return min(dates) if dates else None


def check_dog(animal: Animal, jurisdiction) -> None:
    if animal.is_law_enforcement:
        raise Refused.because(
            _("Law-enforcement dog"),
            _(
                "%(name)s is a trained dog used by law enforcement for police work: the "
                "dangerous-dog provisions do not apply to it."
            )
            % {"name": animal.name},
            rule_citation(jurisdiction, "DD-27"),
        )
    if animal.species != "dog":
        raise Refused.because(
            _("Animal"),
            _("Only a dog can be declared potentially dangerous or dangerous."),
            rule_citation(jurisdiction, "DD-02"),
        )


def required(values: dict) -> None:
    """Refuse every blank text at once, each next to its field: {field: (label, value)}."""
    missing = [
        Refused.because(label, _("This is required."), field=field).checks[0]
        for field, (label, value) in values.items()
        if not (value or "").strip()
    ]
    if missing:
        raise Refused(missing)


def check_investigation(found: Investigation, *, animal: Animal, now: datetime) -> date | None:
    """Check what the officer found against DD-02; the earlier PDD notice, if any."""
    definition = rule_citation(animal.jurisdiction, "DD-02")
    required(
        {
            "location": (_("Where it happened"), found.location),
            "victim": (_("Person or animal harmed or threatened"), found.victim),
            "exemption_findings": (
                _("Why each exemption does or does not apply"),
                found.exemption_findings,
            ),
            "investigated_by_name": (_("Investigated by"), found.investigated_by_name),
        }
    )
    _check_definition(found, definition)
    _check_dates(found, now)
    return _check_prong_three(found, animal, definition)


def _check_definition(found: Investigation, definition: str) -> None:
    if found.criterion in CRITERIA[found.designation]:
        return
    meant = next(d for d, criteria in CRITERIA.items() if found.criterion in criteria)
    raise Refused.because(
        _("Designation intended"),
        _("“%(criterion)s” is the definition of a %(designation)s.")
        % {"criterion": found.criterion.label, "designation": meant.label.lower()},
        definition,
        field="designation",
    )


def _check_dates(found: Investigation, now: datetime) -> None:
    occurred_on = timezone.localdate(found.occurred_at)
    refuse_if_future(found.occurred_at, _("When it happened"), field="occurred_at", now=now)
    refuse_if_future(
        found.investigated_on,
        _("Investigation completed on"),
        field="investigated_on",
        today=timezone.localdate(now),
    )
    if found.investigated_on < occurred_on:
        raise Refused.because(
            _("Investigation completed on"),
            _("The investigation cannot end before the incident (%(date)s).")
            % {"date": date_format(occurred_on)},
            field="investigated_on",
        )


def _check_prong_three(found: Investigation, animal: Animal, definition: str) -> date | None:
    prior = prior_pdd_notice(animal)
    if found.criterion != Criterion.AFTER_PDD_NOTICE:
        return prior
    occurred_on = timezone.localdate(found.occurred_at)
    if prior is None:
        message = _(
            "No earlier notice that %(name)s is potentially dangerous is on record: prong (3) "
            "needs one."
        ) % {"name": animal.name}
    elif occurred_on <= prior:
        message = _(
            "Prong (3) needs an attack after the owner was sent notice (%(date)s); this "
            "incident was on %(when)s."
        ) % {"date": prior, "when": date_format(occurred_on)}
    else:
        return prior
    raise Refused.because(_("Definition met"), message, definition, field="criterion")
