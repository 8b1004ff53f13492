"""Horse permits (Glencoe 702; rules.md HOR-01..06, FEE-13, C52).

The owner of the animals applies to the City Clerk; the system checks what it can (the
pasture's size, animals per pasture, the setback from residences, the fence) and refuses
with the section next to the field; a person records the checks it cannot make
(shelter, grazing, sanitation); the Council decides (date, resolution); the Clerk issues
the permit, which expires on the ensuing April 15 (a permit issued on April 15 itself
follows the profile's setting, HOR-05). No fee is set by §702 (FEE-13): issuing refuses
until the fee schedule has one, which may be "no fee" ($0.00) by resolution.
"""

import math
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from kernel.checks import refuse_if_future, refuse_unless_serves
from notices.services import document_issue
from ordinance.fees import fee_amount
from ordinance.models import Event, Jurisdiction
from ordinance.refusals import Check, Refused, refusing
from ordinance.rules import RuleUnavailable, rule_citation, rules_in_force
from permits.models import Fence, HorsePermit, HorseStatus, PermitKind
from permits.services.common import number_allocate, permit_or_refuse

TEMPLATE = "permits/horse_permit.html"
FEE_CODE = "horse_permit"
STANDARD_KEYS = (
    "horse_min_pasture_acres",
    "horse_acres_per_animal",
    "horse_pasture_setback_ft",
    "horse_fence_forbidden",
)
TERM_KEYS = (
    "horse_permit_expiry",
    "horse_permit_expiry_same_day",
    "horse_permit_reminder_days",
    "horse_permit_short_term_days",
)


def _fmt_acres(value: Decimal) -> str:
    return f"{value.normalize():f}"


def horse_standard_checks(
    jurisdiction: Jurisdiction,
    *,
    pasture_acres: Decimal,
    animal_count: int,
    residence_distance_ft: int,
    fence_material: str,
    on: date,
) -> list[Check]:
    """702(a), (b), (d), (e): what the system can check from the application (HOR-04)."""
    rules = rules_in_force(jurisdiction, STANDARD_KEYS, on=on)
    least, per, setback, forbidden = (rules[k] for k in STANDARD_KEYS)
    return [
        *_pasture_check(pasture_acres, least),
        *_animals_check(animal_count, pasture_acres, per),
        *_setback_check(residence_distance_ft, setback),
        *_fence_check(fence_material, forbidden),
    ]


def _pasture_check(acres: Decimal, least) -> list[Check]:
    if acres >= least.value:
        return []
    message = _("%(a)s acre is less than the smallest pasture allowed, %(m)s.") % {
        "a": _fmt_acres(acres),
        "m": least.display(),
    }
    return [Check(_("Pasture"), "fail", message, least.citation, "pasture_acres")]


def _animals_check(count: int, acres: Decimal, per) -> list[Check]:
    """702(e): one animal per so many acres; horses, colts, ponies and mules all count."""
    allowed = math.floor(acres / per.value) if per.value > 0 else 0
    if count < 1:
        message = _("Give the number of horses, colts, ponies and mules to be kept.")
    elif count > allowed:
        message = ngettext(
            "%(n)s animals asked for: at most %(allowed)s for %(a)s acre (one per %(per)s).",
            "%(n)s animals asked for: at most %(allowed)s for %(a)s acre (one per %(per)s).",
            allowed,
        ) % {"n": count, "allowed": allowed, "a": _fmt_acres(acres), "per": per.display()}
    else:
        return []
    return [Check(_("Animals"), "fail", message, per.citation, "horses")]


def _setback_check(distance_ft: int, setback) -> list[Check]:
    if distance_ft >= setback.value:
        return []
    message = _("The pasture is %(d)s feet from a residence; it must be at least %(m)s.") % {
        "d": distance_ft,
        "m": setback.display(),
    }
    return [Check(_("Setback"), "fail", message, setback.citation, "residence_distance_ft")]


def _fence_check(material: str, forbidden) -> list[Check]:
    if material not in [str(f).lower() for f in forbidden.value]:
        return []
    message = _("A %(f)s fence is not permitted.") % {"f": Fence(material).label.lower()}
    return [Check(_("Fence"), "fail", message, forbidden.citation, "fence_material")]


@dataclass(frozen=True)
class Term:
    """When a permit issued on a day would expire, with its section, and what warns."""

    issued_on: date
    expires_on: date
    citation: str
    remind_on: date
    short: bool
    note: str = ""

    @property
    def weeks(self) -> int:
        return (self.expires_on - self.issued_on).days // 7

    def warning(self) -> str:
        if not self.short:
            return ""
        return ngettext(
            "A permit issued on %(on)s expires on %(exp)s (%(s)s): it lasts only %(w)s week.",
            "A permit issued on %(on)s expires on %(exp)s (%(s)s): it lasts only %(w)s weeks.",
            self.weeks,
        ) % {
            "on": date_format(self.issued_on),
            "exp": date_format(self.expires_on),
            "s": self.citation,
            "w": self.weeks,
        }


def horse_term(jurisdiction: Jurisdiction, *, issued_on: date) -> Term:
    """The ensuing April 15 (702; HOR-05). Issued on April 15 itself: the profile says
    whether that same day or the following year's (Appendix D G41)."""
    rules = rules_in_force(jurisdiction, TERM_KEYS, on=issued_on)
    expiry, same_day, lead, short = (rules[k] for k in TERM_KEYS)
    day = expiry.value
    this_year = day.on_year(issued_on.year)
    if issued_on < this_year or (issued_on == this_year and same_day.value):
        expires_on = this_year
    else:
        expires_on = day.on_year(issued_on.year + 1)
    note = same_day.citation if issued_on == this_year else ""
    return Term(
        issued_on=issued_on,
        expires_on=expires_on,
        citation=expiry.citation,
        remind_on=max(issued_on, expires_on - timedelta(days=lead.value)),
        short=(expires_on - issued_on).days < short.value,
        note=note,
    )


def horse_term_preview(jurisdiction: Jurisdiction, *, on: date) -> Term | None:
    try:
        return horse_term(jurisdiction, issued_on=on)
    except RuleUnavailable:
        return None


APPLICATION_FIELDS = (
    "applicant_name",
    "applicant_address",
    "applicant_phone",
    "applicant_email",
    "legal_description",
    "landowner_name",
    "pasture_acres",
    "horses",
    "colts",
    "ponies",
    "mules",
    "shelter_description",
    "residence_distance_ft",
    "fence_material",
)


@refusing()
@transaction.atomic
def horse_apply(*, jurisdiction: Jurisdiction, actor, on: date | None = None, **fields):
    """Record the application (HOR-02), refused where a standard the system can check
    is not met (HOR-04), each next to its field with its section."""
    on = on or timezone.localdate()
    refuse_unless_serves(actor, jurisdiction)
    permit_or_refuse(jurisdiction, PermitKind.HORSE, on=on)
    count = sum(fields.get(k) or 0 for k in ("horses", "colts", "ponies", "mules"))
    failed = horse_standard_checks(
        jurisdiction,
        pasture_acres=fields["pasture_acres"],
        animal_count=count,
        residence_distance_ft=fields["residence_distance_ft"],
        fence_material=fields["fence_material"],
        on=on,
    )
    if failed:
        raise Refused(failed)
    permit = HorsePermit.objects.create(
        jurisdiction=jurisdiction, applied_on=on, entered_by=actor, **fields
    )
    Event.record(
        "permits.horse.applied",
        permit,
        actor=actor,
        jurisdiction=jurisdiction,
        summary=_("Horse permit applied for by %(a)s: %(n)s animals on %(p)s acre")
        % {"a": permit.applicant_name, "n": count, "p": _fmt_acres(permit.pasture_acres)},
    )
    return permit


def _locked(permit: HorsePermit) -> HorsePermit:
    return (
        HorsePermit.objects.select_for_update(of=("self",))
        .select_related("jurisdiction")
        .get(pk=permit.pk)
    )


def person_check_citations(jurisdiction: Jurisdiction) -> dict[str, str]:
    """702(c), (d), (f): the standards a person checks, with their sections."""
    base = rule_citation(jurisdiction, "HOR-02")
    return {
        "shelter_ok": f"{base}(c)",
        "grazing_ok": f"{base}(d)",
        "sanitation_ok": f"{base}(f)",
    }


def _met(ok: bool) -> str:
    return _("met") if ok else _("not met")


@refusing()
@transaction.atomic
def horse_checks_record(
    *,
    permit: HorsePermit,
    shelter_ok: bool,
    grazing_ok: bool,
    sanitation_ok: bool,
    note: str,
    actor,
    on: date | None = None,
) -> HorsePermit:
    """Record the standards a person checks (HOR-04 (c), (d), (f)); all met moves the
    application on to the Council."""
    on = on or timezone.localdate()
    permit = _locked(permit)
    refuse_unless_serves(actor, permit.jurisdiction)
    permit.shelter_ok, permit.grazing_ok, permit.sanitation_ok = (
        shelter_ok,
        grazing_ok,
        sanitation_ok,
    )
    permit.checks_note = note
    permit.checked_by = actor
    permit.checked_on = on
    permit.apply(
        "check",
        to=HorseStatus.CHECKED if permit.person_checks_done else HorseStatus.APPLIED,
        actor=actor,
        summary=_("Standards checked: shelter %(s)s, grazing %(g)s, sanitation %(f)s")
        % {"s": _met(shelter_ok), "g": _met(grazing_ok), "f": _met(sanitation_ok)},
        data={"shelter": shelter_ok, "grazing": grazing_ok, "sanitation": sanitation_ok},
        fields=[
            "shelter_ok",
            "grazing_ok",
            "sanitation_ok",
            "checks_note",
            "checked_by",
            "checked_on",
        ],
    )
    return permit


@refusing()
@transaction.atomic
def horse_council_decide(
    *,
    permit: HorsePermit,
    decision: str,
    council_date: date,
    resolution_number: str,
    reasons: str,
    actor,
    now: datetime | None = None,
) -> HorsePermit:
    """The Council's decision on the application (HOR-03), recorded by the Clerk."""
    now = now or timezone.now()
    permit = _locked(permit)
    refuse_unless_serves(actor, permit.jurisdiction)
    section = rule_citation(permit.jurisdiction, "HOR-03")
    permit.ensure("council", to=decision)
    if not resolution_number.strip():
        raise Refused.because(
            _("Resolution"),
            _("Give the Council's resolution number."),
            section,
            field="resolution_number",
        )
    refuse_if_future(
        council_date, _("Council meeting"), field="council_date", today=timezone.localdate(now)
    )
    permit.council_decision = decision
    permit.council_date = council_date
    permit.resolution_number = resolution_number.strip()
    permit.council_reasons = reasons
    permit.council_recorded_by = actor
    permit.apply(
        "council",
        to=decision,
        actor=actor,
        at=now,
        summary=_("Council %(d)s on %(on)s, %(r)s (%(s)s)")
        % {
            "d": permit.get_council_decision_display().lower(),
            "on": council_date,
            "r": permit.resolution_number,
            "s": section,
        },
        data={"decision": decision, "resolution": permit.resolution_number},
        fields=[
            "council_decision",
            "council_date",
            "resolution_number",
            "council_reasons",
            "council_recorded_by",
        ],
    )
    return permit


@refusing()
@transaction.atomic
def horse_issue(*, permit: HorsePermit, actor, now: datetime | None = None) -> HorsePermit:
    """The Clerk issues an approved permit (HOR-03, HOR-05); the fee must be set first
    (FEE-13: $0.00 by resolution is "no fee")."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    permit = _locked(permit)
    refuse_unless_serves(actor, permit.jurisdiction)
    permit.ensure("issue")
    fee = fee_amount(permit.jurisdiction, FEE_CODE, on=today)  # FeeNotSet -> Refused
    term = horse_term(permit.jurisdiction, issued_on=today)
    permit.number = number_allocate(permit.jurisdiction, PermitKind.HORSE, year=today.year)
    permit.issued_on = today
    permit.issued_by = actor
    permit.expires_on = term.expires_on
    permit.expiry_citation = term.citation
    permit.remind_on = term.remind_on
    permit.fee_amount = fee.amount
    permit.fee_authority = fee.authority
    permit.document = _issue_document(permit, term=term, actor=actor, now=now)
    permit.apply(
        "issue",
        actor=actor,
        at=now,
        summary=_("Issued %(n)s; expires %(e)s (%(s)s); fee %(f)s (%(a)s)")
        % {
            "n": permit.number,
            "e": term.expires_on,
            "s": term.citation,
            "f": fee.display(),
            "a": fee.authority,
        },
        data={"expires_on": str(term.expires_on), "fee": str(fee.amount)},
        fields=ISSUE_FIELDS,
    )
    return permit


# What issuing sets on the row beside its status.
ISSUE_FIELDS = (
    "number",
    "issued_on",
    "issued_by",
    "expires_on",
    "expiry_citation",
    "remind_on",
    "fee_amount",
    "fee_authority",
    "document",
)


def _issue_document(permit: HorsePermit, *, term: Term, actor, now: datetime):
    """The permit as issued (C52): frozen first, rendered, archived with its hash."""
    citations = person_check_citations(permit.jurisdiction)
    rules = rules_in_force(permit.jurisdiction, STANDARD_KEYS, on=permit.issued_on)
    context = {
        "permit": {
            "applicant_name": permit.applicant_name,
            "applicant_address": permit.applicant_address,
            "legal_description": permit.legal_description,
            "landowner_name": permit.landowner_name,
            "pasture_acres": permit.pasture_acres,
            "horses": permit.horses,
            "colts": permit.colts,
            "ponies": permit.ponies,
            "mules": permit.mules,
            "animal_count": permit.animal_count,
            "shelter_description": permit.shelter_description,
            "council_date": permit.council_date,
            "resolution_number": permit.resolution_number,
            "issued_on": permit.issued_on,
            "expires_on": permit.expires_on,
            "fee": permit.fee_amount,
            "fee_authority": permit.fee_authority,
        },
        "expiry_citation": term.citation,
        "standards": [
            {"label": str(r.label), "value": r.display(), "citation": r.citation}
            for r in rules.values()
        ]
        + [
            {"label": _("Shelter"), "value": _("checked"), "citation": citations["shelter_ok"]},
            {"label": _("Grazing"), "value": _("checked"), "citation": citations["grazing_ok"]},
            {
                "label": _("Sanitation"),
                "value": _("checked"),
                "citation": citations["sanitation_ok"],
            },
        ],
        "approval_section": rule_citation(permit.jurisdiction, "HOR-03"),
    }
    return document_issue(
        kind="horse_permit",
        template=TEMPLATE,
        context=context,
        jurisdiction=permit.jurisdiction,
        actor=actor,
        title=_("Horse permit"),
        number=permit.number,
        subject=permit,
        now=now,
    )


def horse_silences(jurisdiction: Jurisdiction, *, on: date) -> list[dict]:
    """What §702 leaves unset (HOR-06), as the page says it: the fee, the renewal and
    the revocation procedure, each with the section and whether the city has set it."""
    from ordinance.rules import rules_in_force

    found = rules_in_force(
        jurisdiction, ("horse_permit_renewal", "horse_permit_revocation"), on=on, blanks=True
    )
    lines = []
    try:
        fee = fee_amount(jurisdiction, FEE_CODE, on=on)
        lines.append(
            {"label": _("Fee"), "value": fee.display(), "citation": fee.authority, "set": True}
        )
    except RuleUnavailable as exc:
        lines.append(
            {
                "label": _("Fee"),
                "value": _("The city has not set it."),
                "citation": exc.citation,
                "set": False,
            }
        )
    for key, label in (
        ("horse_permit_renewal", _("Renewal")),
        ("horse_permit_revocation", _("Revocation")),
    ):
        rule = found.get(key)
        if rule is None:
            continue
        if isinstance(rule, RuleUnavailable):
            lines.append(
                {
                    "label": label,
                    "value": _("The city has not set it."),
                    "citation": rule.citation,
                    "set": False,
                }
            )
        else:
            lines.append(
                {"label": label, "value": rule.display(), "citation": rule.citation, "set": True}
            )
    return lines
