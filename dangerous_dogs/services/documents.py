"""The contexts of the proceeding's documents, frozen when each is issued (style.md
"Documents freeze their data first"): the notice of intent (C24) and the declaration
(C29) of the notice stage, the Review Panel's hearing notice (C27) and its written
findings (C28)."""

from datetime import date

from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _

from dangerous_dogs.models import (
    Designation,
    DesignationCase,
    HearingFinding,
    PanelHearing,
    Requirement,
    Vote,
)
from notices.models import ServiceMethod
from ordinance.rules import RuleNotSet, rule_citation, rule_in_force, rule_layers, rules_in_force

from .common import deadline
from .investigation import EXEMPTIONS
from .panel import RECIPIENTS, PanelRules, Tally


def incident_facts(case: DesignationCase) -> str:
    """The facts of the basis, as the notice and the declaration print them."""
    when = timezone.localtime(case.occurred_at)
    facts = _("On %(date)s at %(time)s, at %(where)s%(off)s: %(what)s; %(victim)s.") % {
        "date": date_format(when),
        "time": time_format(when, "g:i a"),
        "where": case.location,
        "off": _(" (off the owner's property)") if case.off_owner_property else "",
        "what": case.get_incident_kind_display().lower(),
        "victim": case.victim,
    }
    if case.injuries:
        facts += " " + _("Injuries: %(i)s.") % {"i": case.injuries.rstrip(".")}
    return facts


def _basis(case) -> dict:
    return {
        "criterion": str(case.get_criterion_display()),
        "facts": incident_facts(case),
        "section": rule_citation(case.jurisdiction, "DD-02"),
        "prior_notice_on": case.prior_notice_on,
    }


def exemption_rows(case) -> list[dict]:
    return [
        {
            "label": str(DesignationCase._meta.get_field(f).verbose_name),
            "applies": getattr(case, f),
        }
        for f in EXEMPTIONS
    ]


def _owner(case) -> dict:
    return {"name": case.owner.name, "address": case.owner.address}


def _dog(case) -> dict:
    a = case.animal
    return {"name": a.name, "breed": a.breed, "color": a.color, "sex": a.get_sex_display()}


def notice_context(case: DesignationCase, *, on: date) -> dict:
    j = case.jurisdiction
    rules = rules_in_force(j, ["dd_contest_days", "dd_service_methods"], on=on)
    contest, methods = rules["dd_contest_days"], rules["dd_service_methods"]
    return {
        "case": {"number": case.number},
        "owner": _owner(case),
        "dog": _dog(case),
        "designation": str(case.get_designation_display()),
        "basis": _basis(case),
        "exemptions": exemption_rows(case),
        "exemption_findings": case.exemption_findings,
        "exemption_section": rule_citation(j, "DD-26"),
        "notice_section": rule_citation(j, "DD-03"),
        "contest": {"days": contest.display(), "section": contest.citation},
        "default_section": rule_citation(j, "DD-09"),
        "methods": [str(ServiceMethod(m).label) for m in methods.value],
        "methods_section": methods.citation,
    }


def _money(layers) -> dict:
    governing = layers.governing
    row = {"amount": governing.display(), "section": governing.citation, "why": ""}
    if layers.ordinance is not None and layers.verdict == "superseded":
        row["why"] = governing.why
        row["ordinance"] = {
            "amount": layers.ordinance.display(),
            "section": layers.ordinance.citation,
        }
    return row


def requirements(case: DesignationCase, *, on: date) -> dict:
    """What the declaration tells the owner to do (DD-10; DD-30 for a PDD)."""
    j = case.jurisdiction
    if case.designation == Designation.POTENTIALLY_DANGEROUS:
        section = rule_citation(j, "DD-30")
        try:
            rule = rule_in_force(j, "pdd_requirements", on=on, optional=True)
        except RuleNotSet:
            rule = None
        return {
            "dangerous": False,
            "pdd": rule.value if rule is not None else "",
            "section": rule.citation if rule is not None else section,
        }
    days = rule_in_force(j, "dd_compliance_days", on=on)
    fee_cap = rule_in_force(j, "dd_annual_fee_cap", on=on)
    chip = rule_in_force(j, "dd_microchip_statute", on=on)
    return {
        "dangerous": True,
        "days": days.display(),
        "section": days.citation,
        "bond": _money(rule_layers(j, "dd_min_bond", on=on)),
        "insurance": _money(rule_layers(j, "dd_min_insurance", on=on)),
        "fee_cap": {"amount": fee_cap.display(), "section": fee_cap.citation},
        "microchip": {"statute": chip.value, "section": chip.citation},
        "enclosure_section": rule_citation(j, "DD-10"),
    }


def declaration_context(case: DesignationCase, *, on: date) -> dict:
    j = case.jurisdiction
    return {
        "case": {
            "number": case.number,
            "notice_received_on": case.notice_received_on,
            "contest_deadline": case.contest_deadline,
            "contest_section": case.contest_citation,
            "defaulted_on": case.defaulted_on,
        },
        "owner": _owner(case),
        "dog": _dog(case),
        "designation": str(case.get_designation_display()),
        "basis": _basis(case),
        "declared_on": on,
        "default_section": rule_citation(j, "DD-09"),
        "requirements": requirements(case, on=on),
    }


# --- The Review Panel's hearing notice (C27) and findings (C28) ---------------------------


def hearing_rights(jurisdiction, rules: PanelRules) -> dict:
    return {
        "evidence": _("You may present evidence on your own behalf and cross-examine any witness."),
        "burden": _(
            "The burden of proof is on the animal control officer or the Police Department."
        ),
        "standard": _(
            "A finding that the dog is dangerous or potentially dangerous must be proven by a "
            "preponderance of the evidence."
        ),
        "majority": _("Votes needed for a finding: %(m)s") % {"m": rules.majority.display()},
        "citation": rule_citation(jurisdiction, "DD-07"),
        "majority_citation": rules.majority.citation,
    }


def case_facts(case: DesignationCase) -> dict:
    animal, owner = case.animal, case.owner
    return {
        "number": case.number,
        "designation": str(Designation(case.designation).label),
        "criterion": case.get_criterion_display(),
        "occurred_on": timezone.localtime(case.occurred_at).date(),
        "location": case.location,
        "dog": {
            "name": animal.name,
            "breed": animal.breed,
            "color": animal.color,
        },
        "owner": {"name": owner.name, "address": owner.address},
    }


def hearing_notice_context(hearing: PanelHearing, *, seats, rules: PanelRules, referral) -> dict:
    """The owner's notice of the hearing (C27), the City Attorney's referral frozen on it."""
    case = hearing.case
    return {
        "case": case_facts(case),
        "hearing": {
            "scheduled_for": timezone.localtime(hearing.scheduled_for),
            "place": hearing.place,
        },
        "panel": [
            {"seat": s.get_seat_display(), "name": s.name, "substitute_for": s.substitute_for}
            for s in seats
        ],
        "rights": hearing_rights(case.jurisdiction, rules),
        "referral": referral,
    }


def _pdd_statement(jurisdiction, on: date) -> dict:
    """DD-30: what a potentially dangerous designation requires, if the city says."""
    try:
        rule = rule_in_force(jurisdiction, "pdd_requirements", on=on, optional=True)
    except RuleNotSet as exc:
        return {
            "text": _(
                "The ordinance attaches no requirement to a potentially dangerous dog. If the "
                "dog later aggressively bites, attacks or endangers a person or a domestic "
                "animal, it may be declared dangerous."
            ),
            "citation": exc.citation,
        }
    if rule is None:
        return {"text": "", "citation": ""}
    return {"text": str(rule.value), "citation": rule.citation}


def _compliance_notice(case, finding: str, on: date) -> dict:
    if finding == HearingFinding.DANGEROUS:
        rule = rule_in_force(case.jurisdiction, "dd_compliance_days", on=on)
        return {
            "dangerous": True,
            "days": rule.display(),
            "citation": rule.citation,
            "requirements": [str(r.label) for r in Requirement],
        }
    if finding == HearingFinding.POTENTIALLY_DANGEROUS:
        return {"dangerous": False, "pdd": _pdd_statement(case.jurisdiction, on)}
    return {}


def _appeal_notice(case, ruled_on: date) -> dict:
    """The appeal to the City Council, counted from the ruling (DD-20)."""
    due, citation = deadline(case.jurisdiction, "dd_appeal_days", ruled_on)
    days = rule_in_force(case.jurisdiction, "dd_appeal_days", on=ruled_on)
    return {"days": days.display(), "due": due, "citation": citation}


def _hearing_record(hearing: PanelHearing) -> dict:
    return {
        "held_on": hearing.held_on,
        "place": hearing.place,
        "witnesses": hearing.witnesses,
        "exhibits": hearing.exhibits,
        "owner_appeared": hearing.owner_appeared,
        "owner_evidence": hearing.owner_evidence,
    }


def findings_context(
    hearing: PanelHearing, *, seats, result: Tally, rules: PanelRules, ruled_on: date
) -> dict:
    """The panel's written findings (C28): the hearing, each vote, the tally, the reasons,
    and what follows (the appeal and the compliance clock)."""
    case = hearing.case
    votes = dict(Vote.choices)
    return {
        "case": case_facts(case),
        "hearing": _hearing_record(hearing),
        "finding": str(HearingFinding(result.finding).label),
        "upheld": result.upheld,
        "dangerous": result.finding == HearingFinding.DANGEROUS,
        "votes": [
            {
                "name": s.name,
                "seat": s.get_seat_display(),
                "substitute_for": s.substitute_for,
                "vote": str(votes[s.vote]),
            }
            for s in seats
        ],
        "tally": {
            "members": result.members,
            "majority": result.majority,
            "rule": rules.majority.display(),
            "citation": rules.majority.citation,
        },
        "reasons": hearing.reasons,
        "standard": hearing_rights(case.jurisdiction, rules),
        "ruled_on": ruled_on,
        "distribution": [str(label) for label in RECIPIENTS.values()],
        "appeal": _appeal_notice(case, ruled_on) if result.upheld else {},
        "compliance": _compliance_notice(case, result.finding, ruled_on),
        "citation": rule_citation(case.jurisdiction, "DD-08"),
    }
