"""What a dog's standing is under the dangerous-dog rules, for every page that asks.

``designation_status(animal, on)`` is the one answer: for a Glencoe dog the designation in
force (none, potentially dangerous or dangerous since a date, declared how), its cases,
whether it is registered (DD-01: a dangerous dog without a registration is a violation),
the Subd. 15(G)(1) keeping requirements of a dangerous dog, and for a potentially
dangerous dog the DD-30 gap and the prong (3) escalation (DD-02). For a North Branch dog,
which has no procedure (DD-29), the officer's classification, the Sec. 6-73 duty and the
Sec. 6-75 court gate at large. A law-enforcement dog is outside Subd. 15 (DD-27).

It costs at most two queries: the dog's cases (registration read in the same query) or
its classifications, and the profile's values read together (``rules_in_force``).
"""

from dataclasses import dataclass, field
from datetime import date

from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext as _

from dangerous_dogs.models import (
    Classification,
    Designation,
    DesignationCase,
    Registration,
)
from licensing.models import Animal
from ordinance.models import Jurisdiction
from ordinance.rules import Rule, profile_for, rule_citation, rules_in_force

from .classification import DUTY_KEY
from .common import PROCEDURE_KEY

IMPOUND_GROUND_KEY = "fierce_dog_impound_ground"
PDD_REQUIREMENTS_KEY = "pdd_requirements"


@dataclass
class Requirement:
    text: str
    citation: str


@dataclass
class DesignationStatus:
    """A dog's standing on ``on``; the section template reads it, nothing else."""

    animal: Animal
    on: date
    # Glencoe: the Subd. 15 proceeding (DD-29 decides which city has it).
    procedure: bool = False
    procedure_citation: str = ""
    law_enforcement: bool = False
    law_enforcement_citation: str = ""
    cases: list = field(default_factory=list)
    current: DesignationCase | None = None  # the open case, if any
    in_force: DesignationCase | None = None  # the case whose designation is in force
    registered_until: date | None = None
    registration_citation: str = ""
    unregistered_violation: bool = False
    keeping: list[Requirement] = field(default_factory=list)
    pdd_requirements: Rule | None = None
    pdd_requirements_blank: str = ""  # the section where the ordinance leaves them blank
    escalation_citation: str = ""
    # North Branch: no procedure; an officer's classification (Sec. 6-73, 6-75).
    no_procedure_citation: str = ""
    classification: Classification | None = None
    past_classifications: list = field(default_factory=list)
    duty: Rule | None = None
    impound_ground: Rule | None = None

    @property
    def designation(self) -> str:
        return self.in_force.declared_designation if self.in_force else ""

    @property
    def dangerous(self) -> bool:
        return self.designation == Designation.DANGEROUS

    @property
    def potentially_dangerous(self) -> bool:
        return self.designation == Designation.POTENTIALLY_DANGEROUS

    @property
    def registered(self) -> bool:
        return self.registered_until is not None and self.registered_until >= self.on

    @property
    def compliance_running(self) -> bool:
        case = self.in_force
        return bool(case and case.compliance_deadline and case.compliance_deadline >= self.on)

    @property
    def may_open_case(self) -> bool:
        return self.procedure and not self.law_enforcement and self.animal.is_alive()


def _cases(animal: Animal, on: date) -> list[DesignationCase]:
    registered_until = (
        Registration.objects.filter(case=OuterRef("pk"), issued_on__lte=on)
        .order_by("-expires_on")
        .values("expires_on")[:1]
    )
    return list(
        DesignationCase.objects.filter(animal=animal)
        .annotate(registered_until=Subquery(registered_until))
        .order_by("-created_at", "-pk")
    )


def designation_status(animal: Animal, *, on: date) -> DesignationStatus:
    """The dog's standing under Subd. 15 (Glencoe) or Sec. 6-73 (North Branch) on ``on``."""
    jurisdiction = animal.jurisdiction
    status = DesignationStatus(animal=animal, on=on)
    rules = rules_in_force(
        jurisdiction,
        [PROCEDURE_KEY, PDD_REQUIREMENTS_KEY, DUTY_KEY, IMPOUND_GROUND_KEY]
        + _ground_keys(jurisdiction),
        on=on,
        blanks=True,
    )
    procedure = rules.get(PROCEDURE_KEY)
    if procedure is not None:
        status.procedure = True
        status.procedure_citation = procedure.citation
        return _glencoe(status, rules)
    status.no_procedure_citation = rule_citation(jurisdiction, "DD-29")
    duty = rules.get(DUTY_KEY)
    if isinstance(duty, Rule):
        status.duty = duty
        ground = rules.get(IMPOUND_GROUND_KEY)
        if isinstance(ground, Rule):
            label = rules.get(f"impound_ground_{ground.value}")
            status.impound_ground = label if isinstance(label, Rule) else None
        classifications = list(animal.classifications.all())
        standing = [c for c in classifications if c.in_force]
        status.classification = standing[0] if standing else None
        status.past_classifications = [c for c in classifications if not c.in_force]
    return status


def _ground_keys(jurisdiction: Jurisdiction) -> list[str]:
    """The impound ground labels of the city's profile (read with the rest, one query)."""
    return [k for k in profile_for(jurisdiction).values if k.startswith("impound_ground_")]


def _glencoe(status: DesignationStatus, rules) -> DesignationStatus:
    animal, jurisdiction, on = status.animal, status.animal.jurisdiction, status.on
    if animal.is_law_enforcement:
        status.law_enforcement = True
        status.law_enforcement_citation = rule_citation(jurisdiction, "DD-27")
        return status
    status.cases = _cases(animal, on)
    status.current = next((c for c in status.cases if c.is_open), None)
    status.in_force = next((c for c in status.cases if c.in_force), None)
    case = status.in_force
    if case is None:
        return status
    status.registration_citation = rule_citation(jurisdiction, "DD-01")
    if status.dangerous:
        status.registered_until = getattr(case, "registered_until", None)
        status.unregistered_violation = not status.registered and not status.compliance_running
        keeping_citation = rule_citation(jurisdiction, "DD-14")
        status.keeping = [
            Requirement(
                _("On the owner's property: kept in a proper enclosure."), keeping_citation
            ),
            Requirement(
                _(
                    "Outside the enclosure: muzzled, and restrained by a substantial chain or "
                    "leash under the physical restraint of a responsible person."
                ),
                keeping_citation,
            ),
        ]
    elif status.potentially_dangerous:
        requirements = rules.get(PDD_REQUIREMENTS_KEY)
        if isinstance(requirements, Rule):
            status.pdd_requirements = requirements
        else:
            status.pdd_requirements_blank = (
                requirements.citation if requirements is not None else ""
            ) or rule_citation(jurisdiction, "DD-30")
        status.escalation_citation = rule_citation(jurisdiction, "DD-02")
    return status
