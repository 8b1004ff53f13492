"""Violation codes from the city's profile, and the charge class proposed for a citation.

Rules: FEE-15 (each code carries the city, the section and the default class; the $300
cap only for Glencoe Subd. 26), RES-06 (count prior adjudicated violations per dog,
owner and address and propose the class; the officer confirms). Codes are profile values
(``violation_codes``, ``violation_<code>``, ``violation_<code>_class``, optionally
``violation_<code>_repeat_class`` and ``violation_<code>_fine_cap``), read through
``ordinance.rules``; nothing here knows a section or a class of its own.
"""

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from citations.models import ChargeClass, Citation, CitationStatus
from ordinance.models import Jurisdiction
from ordinance.refusals import Refused
from ordinance.rules import rule_in_force, rules_in_force

# A prior violation is one a court adjudicated (RES-06 "prior adjudicated violations").
PRIOR_STATUSES = (CitationStatus.ADJUDICATED,)


@dataclass(frozen=True)
class ViolationCode:
    """One violation a city's officer may cite, as the profile states it."""

    code: str
    label: str
    citation: str  # the section violated
    charge_class: str  # the default class
    class_citation: str  # the penalty clause
    repeat_class: str = ""  # the class once a prior violation of this code is adjudicated
    repeat_citation: str = ""
    repeat_note: str = ""
    fine_cap: Decimal | None = None
    fine_cap_citation: str = ""

    def __str__(self):
        return f"{self.label} ({self.citation})"

    @property
    def class_label(self) -> str:
        return str(ChargeClass(self.charge_class).label)


def _check_class(jurisdiction, value: str, citation: str) -> str:
    if value not in ChargeClass.values:
        raise Refused.because(
            _("Charge class"),
            _("%(city)s's profile names an unknown charge class “%(value)s”.")
            % {"city": jurisdiction, "value": value},
            citation,
        )
    return value


def violation_codes(jurisdiction: Jurisdiction, *, on: date) -> list[ViolationCode]:
    """The city's violation codes in the profile's order, each with its sections."""
    codes = list(rule_in_force(jurisdiction, "violation_codes", on=on).value)
    keys = [f"violation_{c}{suffix}" for c in codes for suffix in ("", "_class")]
    rules = rules_in_force(jurisdiction, keys, on=on)  # one query
    return [_code(jurisdiction, code, rules, on) for code in codes]


def _code(jurisdiction, code: str, rules, on: date) -> ViolationCode:
    label, klass = rules[f"violation_{code}"], rules[f"violation_{code}_class"]
    repeat = rule_in_force(jurisdiction, f"violation_{code}_repeat_class", on=on, optional=True)
    cap_key = rule_in_force(jurisdiction, f"violation_{code}_fine_cap", on=on, optional=True)
    cap = rule_in_force(jurisdiction, cap_key.value, on=on) if cap_key else None
    return ViolationCode(
        code=code,
        label=label.value,
        citation=label.citation,
        charge_class=_check_class(jurisdiction, klass.value, klass.citation),
        class_citation=klass.citation,
        repeat_class=_check_class(jurisdiction, repeat.value, repeat.citation) if repeat else "",
        repeat_citation=repeat.citation if repeat else "",
        repeat_note=repeat.note if repeat else "",
        fine_cap=cap.value if cap else None,
        fine_cap_citation=cap.citation if cap else "",
    )


def violation_code(jurisdiction: Jurisdiction, code: str, *, on: date) -> ViolationCode:
    for found in violation_codes(jurisdiction, on=on):
        if found.code == code:
            return found
    raise Refused.because(
        _("Violation"),
        _("%(city)s's ordinance has no such violation code.") % {"city": jurisdiction},
        field="violation_code",
    )


@dataclass(frozen=True)
class Priors:
    """Prior adjudicated violations counted for a new citation (RES-06)."""

    animal: int
    owner: int
    address: int
    same_code: int


@dataclass(frozen=True)
class Proposal:
    charge_class: str
    citation: str
    basis: str
    priors: Priors

    @property
    def class_label(self) -> str:
        return str(ChargeClass(self.charge_class).label)


def count_priors(
    *, jurisdiction, code: str, before: datetime, animal=None, owner=None, premises=None
) -> Priors:
    """Adjudicated citations of the city before ``before`` for the same dog, owner and
    address (the premises), and how many of them were for the same code (one query)."""
    subjects = {"animal": animal, "owner": owner, "premises": premises}
    wanted = {name: Q(**{name: obj}) for name, obj in subjects.items() if obj is not None}
    if not wanted:
        return Priors(0, 0, 0, 0)
    any_subject = Q()
    for condition in wanted.values():
        any_subject |= condition
    counts = Citation.objects.filter(
        any_subject,
        jurisdiction=jurisdiction,
        status__in=PRIOR_STATUSES,
        violated_at__lt=before,
    ).aggregate(
        **{name: Count("pk", filter=condition) for name, condition in wanted.items()},
        same_code=Count("pk", filter=Q(violation_code=code)),
    )
    return Priors(
        animal=counts.get("animal", 0),
        owner=counts.get("owner", 0),
        address=counts.get("premises", 0),
        same_code=counts["same_code"],
    )


def propose_class(violation: ViolationCode, priors: Priors) -> Proposal:
    """The default class, or the repeat class where the profile has one and a prior
    violation of the same code was adjudicated (Glencoe Subd. 5: only a first barking
    violation is a petty misdemeanor). The officer confirms (RES-06)."""
    counted = _(
        "Prior adjudicated violations: %(a)s of the dog, %(o)s of the owner, %(p)s at the "
        "address; %(s)s of this code."
    ) % {"a": priors.animal, "o": priors.owner, "p": priors.address, "s": priors.same_code}
    if violation.repeat_class and priors.same_code > 0:
        basis = _("A prior violation of this code: %(cls)s (%(section)s).") % {
            "cls": ChargeClass(violation.repeat_class).label,
            "section": violation.repeat_citation,
        }
        if violation.repeat_note:
            basis = f"{basis} {violation.repeat_note}"
        return Proposal(
            violation.repeat_class, violation.repeat_citation, f"{counted} {basis}", priors
        )
    if violation.repeat_class:
        basis = _("A first violation of this code: %(cls)s (%(section)s).")
    else:
        basis = _("%(cls)s (%(section)s), whatever the prior violations.")
    basis = basis % {"cls": violation.class_label, "section": violation.class_citation}
    return Proposal(violation.charge_class, violation.class_citation, f"{counted} {basis}", priors)


def propose_for(
    *, jurisdiction, violation: str, violated_at: datetime, animal=None, owner=None
) -> tuple[ViolationCode, Proposal]:
    """The code and the class the software proposes for a citation about to be issued:
    what the officer is shown to confirm (the citation page, a complaint's outcome)."""
    code = violation_code(jurisdiction, violation, on=timezone.localdate(violated_at))
    owner = owner or (animal.owner if animal is not None else None)
    priors = count_priors(
        jurisdiction=jurisdiction,
        code=code.code,
        before=violated_at,
        animal=animal,
        owner=owner,
        premises=animal.premises if animal is not None and animal.premises_id else None,
    )
    return code, propose_class(code, priors)
