"""The contexts of the proceeding's documents, frozen when each is issued (style.md
"Documents freeze their data first"): the notice of intent (C24) and the declaration
(C29) of the notice stage."""

from datetime import date

from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _

from dangerous_dogs.models import Designation, DesignationCase
from notices.models import ServiceMethod
from ordinance.rules import (
    RuleNotSet,
    get_optional,
    get_rule,
    get_rules,
    rule_citation,
    rule_layers,
)

from .investigation import EXEMPTIONS


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
    rules = get_rules(j, ["dd_contest_days", "dd_service_methods"], on=on)
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
            rule = get_optional(j, "pdd_requirements", on=on)
        except RuleNotSet:
            rule = None
        return {
            "dangerous": False,
            "pdd": rule.value if rule is not None else "",
            "section": rule.citation if rule is not None else section,
        }
    days = get_rule(j, "dd_compliance_days", on=on)
    fee_cap = get_rule(j, "dd_annual_fee_cap", on=on)
    chip = get_rule(j, "dd_microchip_statute", on=on)
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
