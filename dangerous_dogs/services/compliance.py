"""Compliance of a declared dangerous dog: the Subd. 15(E) checklist, each item verified by
a person, or the dog humanely destroyed (DD-10, DD-11, DD-13, DD-30; MN-05).

- Enclosure and warning sign with the warning symbol: what was seen, and a photo.
- Coverage: a surety bond or liability insurance, issuer, number, amount, expiry; the
  amount at least the governing ``dd_min_bond`` / ``dd_min_insurance``. Glencoe prints
  "$50" (Appendix D G15, most likely $50,000 cut short); Minn. Stat. 347.51 subd. 2's
  $300,000 governs, and the page shows both with their sections (``rule_layers``).
- Fee: paid when the certificate of registration is issued (``registration_issue``).
- Microchip: number, manufacturer, implant date and veterinarian, under the governing
  ``dd_microchip_statute`` (Glencoe's is blank, G16: Minn. Stat. 347.515 governs).

Only a **dangerous** dog has requirements: a potentially dangerous dog has none while
``pdd_requirements`` is blank (DD-30, G21). ``compliance_checklist`` is the one answer the
case page, registration, seizure and reclaim read.
"""

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from dangerous_dogs.models import (
    ComplianceProof,
    CoverageKind,
    Designation,
    DesignationCase,
    Requirement,
)
from kernel.checks import refuse_if_future, refuse_unless_serves
from licensing.services.registry import clean_microchip
from ordinance.models import Event
from ordinance.refusals import Check, Refused, refusing
from ordinance.rules import RuleLayers, RuleNotSet, rule_citation, rule_in_force, rule_layers

from .common import procedure_or_refuse

# The profile values the checklist reads, in one query (rule_layers).
BOND, INSURANCE, MICROCHIP_STATUTE, FEE_CAP = (
    "dd_min_bond",
    "dd_min_insurance",
    "dd_microchip_statute",
    "dd_annual_fee_cap",
)
CHECKLIST_KEYS = (BOND, INSURANCE, MICROCHIP_STATUTE, FEE_CAP, "dd_compliance_days")
# What the owner proves before registration and before a reclaim (the fee is paid then).
PROVEN_FIRST = (Requirement.ENCLOSURE, Requirement.COVERAGE, Requirement.MICROCHIP)


SHORT_LABELS = {
    Requirement.ENCLOSURE: gettext_lazy("the enclosure and warning sign"),
    Requirement.COVERAGE: gettext_lazy("the bond or insurance"),
    Requirement.FEE: gettext_lazy("the registration fee"),
    Requirement.MICROCHIP: gettext_lazy("the microchip"),
}


def seizure_citation(jurisdiction, *, on: date) -> str:
    """The section that authorizes the seizure (Subd. 15(K)(1)), as the profile's
    ``dd_seizure`` ground cites it."""
    rule = rule_in_force(jurisdiction, "impound_ground_dd_seizure", on=on, optional=True)
    return rule.citation if rule else rule_citation(jurisdiction, "DD-21")


def compliance_rules(jurisdiction, *, on: date) -> dict[str, RuleLayers]:
    """Both layers of each checklist value (one query)."""
    return rule_layers(jurisdiction, CHECKLIST_KEYS, on=on)


def requirement_citation(rules: dict[str, RuleLayers], requirement: str, jurisdiction) -> str:
    """The section of one requirement, the statute's where it governs."""
    if requirement == Requirement.COVERAGE:
        return rules[BOND].governing.citation
    if requirement == Requirement.MICROCHIP:
        return rules[MICROCHIP_STATUTE].governing.citation
    if requirement == Requirement.FEE:
        return rule_citation(jurisdiction, "DD-12")
    return rules["dd_compliance_days"].governing.citation


@dataclass
class Item:
    requirement: str
    label: str
    citation: str
    proof: ComplianceProof | None = None
    met: bool = False
    note: str = ""


@dataclass
class Checklist:
    """Each requirement met or missing, and the deadline with its section (DD-10)."""

    case: DesignationCase
    on: date
    applies: bool
    why_none: str = ""
    items: list[Item] = field(default_factory=list)
    rules: dict = field(default_factory=dict)

    @property
    def missing(self) -> list[Item]:
        return [item for item in self.items if not item.met]

    def missing_of(self, requirements) -> list[Item]:
        return [item for item in self.missing if item.requirement in requirements]

    @property
    def missing_labels(self) -> str:
        return ", ".join(str(SHORT_LABELS[item.requirement]) for item in self.missing)

    @property
    def days_left(self) -> int | None:
        deadline = self.case.compliance_deadline
        return (deadline - self.on).days if deadline else None

    @property
    def days_overdue(self) -> int:
        left = self.days_left
        return -left if left is not None and left < 0 else 0

    @property
    def overdue(self) -> bool:
        deadline = self.case.compliance_deadline
        return bool(deadline and deadline < self.on and self.missing)

    def refusal(self, requirements, label) -> Refused | None:
        """A refusal naming every missing item of ``requirements`` with its section."""
        missing = self.missing_of(requirements)
        if not missing:
            return None
        return Refused(
            [
                Check(
                    str(label),
                    "fail",
                    _("Not verified yet: %(item)s.%(note)s")
                    % {"item": item.label, "note": f" {item.note}" if item.note else ""},
                    item.citation,
                )
                for item in missing
            ]
        )


def latest_proofs(case: DesignationCase) -> dict[str, ComplianceProof]:
    """The latest verified proof of each requirement (reads ``case.proofs.all()``, which
    a page prefetches)."""
    latest: dict[str, ComplianceProof] = {}
    for proof in case.proofs.all():
        held = latest.get(proof.requirement)
        if held is None or (proof.verified_on, proof.pk) > (held.verified_on, held.pk):
            latest[proof.requirement] = proof
    return latest


def pdd_requirements_note(jurisdiction, *, on: date) -> str:
    """Why a potentially dangerous dog has nothing to comply with (DD-30, G21)."""
    try:
        rule = rule_in_force(jurisdiction, "pdd_requirements", on=on, optional=True)
    except RuleNotSet as exc:
        return _(
            "A potentially dangerous dog has no requirements to meet: the ordinance attaches "
            "none to the designation and the city has set none (%(section)s)."
        ) % {"section": exc.citation}
    if rule is None:
        return _("A potentially dangerous dog has no requirements to meet.")
    return _("Requirements set by the city: %(value)s (%(section)s).") % {
        "value": rule.value,
        "section": rule.citation,
    }


def compliance_checklist(
    case: DesignationCase, *, on: date, registration_in_force: bool | None = None
) -> Checklist:
    """The checklist of ``case`` on ``on``; the fee is met by a registration in force."""
    if case.declared_designation != Designation.DANGEROUS:
        return Checklist(
            case, on, applies=False, why_none=pdd_requirements_note(case.jurisdiction, on=on)
        )
    rules = compliance_rules(case.jurisdiction, on=on)
    proofs = latest_proofs(case)
    if registration_in_force is None:
        from .registration import registration_status

        registration_in_force = registration_status(case, on=on).in_force
    items = []
    for requirement in Requirement:
        item = Item(
            requirement,
            requirement.label,
            requirement_citation(rules, requirement, case.jurisdiction),
            proofs.get(requirement),
        )
        if requirement == Requirement.FEE:
            item.met = registration_in_force
        elif requirement == Requirement.COVERAGE and item.proof is not None:
            expires = item.proof.expires_on
            item.met = expires is not None and expires >= on
            if not item.met:
                item.note = _("The bond or policy on file expired on %(d)s.") % {"d": expires}
        else:
            item.met = item.proof is not None
        items.append(item)
    return Checklist(case, on, applies=True, items=items, rules=rules)


def coverage_minimum(rules: dict[str, RuleLayers], kind: str) -> RuleLayers:
    return rules[BOND if kind == CoverageKind.BOND else INSURANCE]


def _required(values: dict, messages: dict, citation: str) -> None:
    missing = [
        Check(_("Proof"), "fail", str(messages[name]), citation, name)
        for name in messages
        if values.get(name) in (None, "")
    ]
    if missing:
        raise Refused(missing)


def _check_coverage(rules, values, verified_on, citation) -> None:
    kind = values.get("coverage_kind")
    if kind not in CoverageKind.values:
        raise Refused.because(
            _("Coverage"),
            _("Choose a surety bond or a liability insurance policy."),
            citation,
            field="coverage_kind",
        )
    _required(
        values,
        {
            "issuer": _("Name the surety company or the insurer."),
            "policy_number": _("Enter the bond or policy number."),
            "amount": _("Enter the amount of the bond or policy."),
            "expires_on": _("Enter the date the bond or policy expires."),
        },
        citation,
    )
    layers = coverage_minimum(rules, kind)
    minimum = layers.governing
    amount = Decimal(values["amount"])
    if amount < minimum.value:
        why = f" {minimum.why}" if minimum.why else ""
        raise Refused.because(
            _("Amount"),
            _("%(kind)s of %(amount)s is less than the %(minimum)s required.%(why)s")
            % {
                "kind": CoverageKind(kind).label,
                "amount": f"${amount:,.2f}",
                "minimum": minimum.display(),
                "why": why,
            },
            minimum.citation,
            field="amount",
        )
    if values["expires_on"] < verified_on:
        raise Refused.because(
            _("Expires on"),
            _("The bond or policy expired on %(d)s: an expired policy is no proof.")
            % {"d": values["expires_on"]},
            minimum.citation,
            field="expires_on",
        )


def _check_microchip(values, today, citation) -> None:
    _required(
        values,
        {
            "microchip": _("Enter the microchip number."),
            "microchip_manufacturer": _("Name the microchip's manufacturer."),
            "implanted_on": _("Enter the date the microchip was implanted."),
            "veterinarian": _("Name the veterinarian who implanted it."),
        },
        citation,
    )
    try:
        values["microchip"] = clean_microchip(values["microchip"])
    except ValidationError as exc:
        raise Refused.because(_("Microchip"), exc.messages[0], citation, field="microchip") from exc
    refuse_if_future(values["implanted_on"], _("Implanted on"), field="implanted_on", today=today)


def check_dangerous(case: DesignationCase, on: date) -> None:
    """Refuse for a potentially dangerous dog: it has no requirements (DD-30)."""
    if case.declared_designation != Designation.DANGEROUS:
        raise Refused.because(
            _("Designation"), pdd_requirements_note(case.jurisdiction, on=on), field="requirement"
        )


PROOF_FIELDS = (
    "details",
    "document",
    "coverage_kind",
    "issuer",
    "policy_number",
    "amount",
    "expires_on",
    "microchip",
    "microchip_manufacturer",
    "implanted_on",
    "veterinarian",
)


@refusing()
@transaction.atomic
def proof_record(
    case: DesignationCase,
    requirement: str,
    *,
    verified_on: date,
    actor,
    now: datetime | None = None,
    **values,
) -> ComplianceProof:
    """A person verified one requirement (DD-10): enclosure, coverage or microchip."""
    unknown = set(values) - set(PROOF_FIELDS)
    if unknown:
        raise TypeError(f"Not proof fields: {sorted(unknown)}")
    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_unless_serves(actor, case.jurisdiction)
    procedure_or_refuse(case.jurisdiction, on=today)
    # Proofs are recorded while the designation is in force: before registration, while
    # seized (to reclaim), and at renewal (a new bond or policy).
    if not case.in_force:
        raise case.not_now(_("recording a proof of compliance"))
    check_dangerous(case, today)
    refuse_if_future(verified_on, _("Verified on"), field="verified_on", today=today)
    rules = compliance_rules(case.jurisdiction, on=today)
    citation = requirement_citation(rules, requirement, case.jurisdiction)
    if requirement == Requirement.FEE or requirement not in Requirement.values:
        raise Refused.because(
            _("Requirement"),
            _("The annual fee is paid when the certificate of registration is issued."),
            citation,
            field="requirement",
        )
    values = {k: (v.strip() if isinstance(v, str) else v) for k, v in values.items()}
    if requirement == Requirement.ENCLOSURE:
        _required(
            values,
            {
                "details": _(
                    "Describe the proper enclosure and the warning sign with the warning "
                    "symbol as seen."
                ),
                "document": _("Upload a photo of the enclosure and the posted sign."),
            },
            citation,
        )
    elif requirement == Requirement.COVERAGE:
        _check_coverage(rules, values, verified_on, citation)
    else:
        _check_microchip(values, today, citation)
    kept = {k: v for k, v in values.items() if v not in (None, "")}
    proof = ComplianceProof.objects.create(
        case=case, requirement=requirement, verified_on=verified_on, verified_by=actor, **kept
    )
    Event.record(
        "dangerous_dogs.compliance.verified",
        case,
        actor=actor,
        at=now,
        summary=_("Verified: %(item)s (%(section)s)")
        % {"item": Requirement(requirement).label, "section": citation},
        data={"proof": proof.pk, "requirement": requirement, "verified_on": str(verified_on)},
    )
    return proof


@refusing()
@transaction.atomic
def case_destroyed(
    case: DesignationCase, *, on: date, veterinarian: str, actor, now: datetime | None = None
) -> DesignationCase:
    """The owner had the dog humanely destroyed instead of complying (DD-10): closed."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_unless_serves(actor, case.jurisdiction)
    procedure_or_refuse(case.jurisdiction, on=today)
    check_dangerous(case, today)
    refuse_if_future(on, _("Destroyed on"), field="on", today=today)
    if not veterinarian.strip():
        raise Refused.because(
            _("Veterinarian"),
            _("Name the veterinarian who destroyed the dog."),
            case.compliance_citation,
            field="veterinarian",
        )
    if case.declared_on and on < case.declared_on:
        raise Refused.because(
            _("Destroyed on"),
            _("The date is before the declaration (%(d)s).") % {"d": date_format(case.declared_on)},
            field="on",
        )
    case.closed_on = on
    case.closing_note = _("Humanely destroyed on %(d)s by %(vet)s") % {
        "d": on,
        "vet": veterinarian.strip(),
    }
    case.apply(
        "destroy",
        actor=actor,
        at=now,
        summary=case.closing_note,
        citation=case.compliance_citation,
        data={"on": str(on), "veterinarian": veterinarian.strip()},
        fields=["closed_on", "closing_note"],
    )
    return case
