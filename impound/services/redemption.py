"""Redemption: the owner takes the animal back, pays, and gets a receipt (IMP-07, IMP-08).

One answer, ``redemption_quote``, for the counter page, the owner's letter and the
receipt: its fee lines come from the profile's lists of fee codes
(``redemption_fees_licensed`` / ``_unlicensed``, ``_resident``, ``_per_day``), never from
``if city``, each priced by ``ordinance.fees.fee_amount`` with its section. A blank fee
(the council has not set it) refuses the whole total, naming every blank fee with its
section. The conditions still unmet (open gates, North Branch's license first, Sec. 6-70;
Glencoe's immunization of a nonresident's animal, Subd. 24) are listed with theirs.

``case_redeem`` takes the payment with ``licensing.services.receipts.receipt_create``,
archives the receipt PDF as the licensing counter does, writes the ``Redemption`` row and
closes the case (Glencoe Subd. 13 item 5: to whom it went).
"""

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from impound.models import CaseStatus, ImpoundCase, Redemption
from kernel.checks import refuse_unless_serves
from licensing.models import License, Owner, PaymentMethod, RabiesVaccination
from licensing.services.documents import receipt_documents_issue
from licensing.services.receipts import FeeLine, receipt_create
from licensing.services.standing import Standing, license_standing
from ordinance.fees import FeeNotSet, fee_amount
from ordinance.money import money_sum, to_money
from ordinance.refusals import Check, Refused, refusing
from ordinance.rules import profile_for, rule_citation, rules_in_force

CURRENT = (Standing.LICENSED, Standing.RENEWAL_OPEN)
# The profile values a redemption reads (those the city's ordinance has), in one query.
REDEMPTION_KEYS = (
    "dog_license_enabled",
    "redemption_fees_licensed",
    "redemption_fees_unlicensed",
    "redemption_fees_resident",
    "redemption_fees_per_day",
    "redemption_license_first",
    "redemption_nonresident_immunization",
)


def redemption_rules(jurisdiction, *, on: date) -> dict:
    """{key: Rule} of the redemption values this city's ordinance has (one query)."""
    values = profile_for(jurisdiction).values
    return rules_in_force(jurisdiction, [k for k in REDEMPTION_KEYS if k in values], on=on)


@dataclass(frozen=True)
class QuoteLine:
    """One fee of the total, with its section; a per-day fee says how many days."""

    code: str
    description: str
    amount: object  # Decimal
    authority: str
    unit: object = None  # the daily amount, for a per-day fee
    days: int | None = None

    def fee_line(self) -> FeeLine:
        return FeeLine(self.code, self.description, self.amount, self.authority)


@dataclass(frozen=True)
class Condition:
    """Something that must happen before release, with its section and where to do it."""

    label: str
    message: str
    citation: str
    url: str = ""
    field: str = ""

    def __str__(self):
        return f"{self.message} ({self.citation})" if self.citation else self.message

    def check(self) -> Check:
        return Check(self.label, "fail", self.message, self.citation, self.field)


@dataclass
class Quote:
    case: ImpoundCase
    owner: Owner
    on: date
    licensed: bool
    resident: bool
    days: int
    lines: list[QuoteLine]
    conditions: list[Condition] = field(default_factory=list)
    license: License | None = None
    immunization: RabiesVaccination | None = None
    licensed_citation: str = ""

    @property
    def total(self):
        return money_sum(line.amount for line in self.lines)

    @property
    def can_redeem(self) -> bool:
        return not self.conditions


# --- Facts the quote reads ----------------------------------------------------------------


def licenses_dogs(jurisdiction, *, on: date, rules: dict | None = None) -> bool:
    """Whether the city has a license scheme (Glencoe deleted its own: Appendix D G1)."""
    rules = redemption_rules(jurisdiction, on=on) if rules is None else rules
    rule = rules.get("dog_license_enabled")
    return bool(rule and rule.value)


def _standing(case, on):
    return license_standing(case.animal, on=on) if case.animal_id else None


def _licensed(case, *, on, licensed, rules):
    """(licensed, license, standing): the registry answers where the city licenses dogs;
    elsewhere the clerk records it (G1) and passes it in."""
    jurisdiction = case.jurisdiction
    if licenses_dogs(jurisdiction, on=on, rules=rules):
        standing = _standing(case, on)
        current = standing is not None and standing.state in CURRENT
        return current, (standing.license if current else None), standing
    if licensed is None:
        rule = rules.get("dog_license_enabled")
        raise Refused.because(
            _("Licensed"),
            _(
                "%(city)s issues no dog licenses of its own: record whether the animal is "
                "licensed to see the total."
            )
            % {"city": jurisdiction.short_name},
            rule.citation if rule else "",
            field="licensed",
        )
    return bool(licensed), None, None


def _codes(rules, key) -> list[str]:
    rule = rules.get(key)
    return list(rule.value) if rule else []


def _price(jurisdiction, codes, *, on, days, per_day) -> list[QuoteLine]:
    """Each code priced, in order; all blank fees refused at once, each with its section."""
    lines, missing = [], []
    for code in codes:
        try:
            fee = fee_amount(jurisdiction, code, on=on)
        except FeeNotSet as exc:
            missing.append(Check(_("Fee"), "fail", str(exc), exc.citation or ""))
            continue
        if code in per_day:
            unit = to_money(fee.amount)
            description = ngettext(
                "%(fee)s: %(n)s day × $%(unit)s",
                "%(fee)s: %(n)s days × $%(unit)s",
                days,
            ) % {"fee": fee.description, "n": days, "unit": f"{unit:,.2f}"}
            lines.append(
                QuoteLine(code, description, to_money(unit * days), fee.authority, unit, days)
            )
        else:
            lines.append(QuoteLine(code, fee.description, to_money(fee.amount), fee.authority))
    if missing:
        raise Refused(missing)
    return lines


def _immunization(case) -> RabiesVaccination | None:
    """A rabies vaccination recorded on the animal on or after the placement."""
    if not case.animal_id:
        return None
    placed = timezone.localtime(case.placed_at).date()
    found = [v for v in case.animal.vaccinations.all() if v.vaccinated_on >= placed]
    return max(found, key=lambda v: (v.vaccinated_on, v.pk)) if found else None


def redemption_conditions(
    *, case: ImpoundCase, on: date, resident: bool, standing=None, rules: dict | None = None
) -> list[Condition]:
    """What must still happen before release, each with its section (IMP-07, IMP-08)."""
    jurisdiction = case.jurisdiction
    rules = redemption_rules(jurisdiction, on=on) if rules is None else rules
    conditions = [
        Condition(
            _("Gate"),
            gate.label
            if gate.clearable
            else _("%(label)s: the dog may not be redeemed.") % {"label": gate.label},
            gate.citation,
        )
        for gate in case.gates.all()
        if gate.is_open
    ]
    if case.animal_id is None:
        conditions.append(
            Condition(
                _("Owner"),
                _("Identify the owner first: link the registry's animal to the case."),
                rule_citation(jurisdiction, "IMP-07"),
                field="owner",
            )
        )
        return conditions
    first = rules.get("redemption_license_first")
    if first is not None and first.value:
        standing = standing if standing is not None else _standing(case, on)
        if standing is None or not standing.is_covered:
            conditions.append(
                Condition(
                    _("License"),
                    _("License the dog at the counter first: %(standing)s")
                    % {"standing": standing.reason if standing else ""},
                    first.citation,
                    url=reverse("licensing:counter_animal", args=[case.animal.owner_id])
                    + f"?animal={case.animal_id}",
                    field="license",
                )
            )
    shots = rules.get("redemption_nonresident_immunization")
    if shots is not None and shots.value and not resident and _immunization(case) is None:
        conditions.append(
            Condition(
                _("Immunization"),
                _(
                    "The owner is not a resident: record the animal's rabies vaccination, "
                    "given on or after %(d)s, before release."
                )
                % {"d": timezone.localtime(case.placed_at).date()},
                shots.citation,
                url=reverse("licensing:vaccination_create", args=[case.animal_id]),
                field="immunization",
            )
        )
    return conditions


@refusing(_("Fee"))
def redemption_quote(
    *,
    case: ImpoundCase,
    owner: Owner,
    on: date,
    resident: bool | None = None,
    licensed: bool | None = None,
) -> Quote:
    """The fees to redeem ``case`` on ``on``, each with its section, and what is still
    unmet; ``Refused`` naming every blank fee (or the unrecorded "licensed?", G1)."""
    jurisdiction = case.jurisdiction
    resident = owner.is_resident if resident is None else bool(resident)
    rules = redemption_rules(jurisdiction, on=on)
    is_licensed, license, standing = _licensed(case, on=on, licensed=licensed, rules=rules)
    key = "redemption_fees_licensed" if is_licensed else "redemption_fees_unlicensed"
    codes = _codes(rules, key)
    if resident:
        codes += [c for c in _codes(rules, "redemption_fees_resident") if c not in codes]
    days = case.days_held(on)
    per_day = set(_codes(rules, "redemption_fees_per_day"))
    lines = _price(jurisdiction, codes, on=on, days=days, per_day=per_day)
    return Quote(
        case=case,
        owner=owner,
        on=on,
        licensed=is_licensed,
        resident=resident,
        days=days,
        lines=lines,
        conditions=redemption_conditions(
            case=case, on=on, resident=resident, standing=standing, rules=rules
        ),
        license=license,
        immunization=_immunization(case),
    )


@refusing()
@transaction.atomic
def case_redeem(
    *,
    case: ImpoundCase,
    owner: Owner,
    actor,
    method: str,
    reference: str = "",
    tendered: Decimal | None = None,
    now: datetime | None = None,
    resident: bool | None = None,
    licensed: bool | None = None,
) -> Redemption:
    """The owner redeems: every condition met, the fees paid, a receipt; the case closes
    as redeemed to the owner (IMP-07, IMP-08; Glencoe Subd. 13 item 5)."""
    now = now or timezone.now()
    on = timezone.localdate(now)
    refuse_unless_serves(actor, case.jurisdiction)
    case = ImpoundCase.objects.select_for_update(of=("self",)).get(pk=case.pk)
    _check_redeemable(case, owner, method)
    quote = redemption_quote(case=case, owner=owner, on=on, resident=resident, licensed=licensed)
    if quote.conditions:
        raise Refused([c.check() for c in quote.conditions])
    receipt = receipt_create(
        jurisdiction=case.jurisdiction,
        payer=owner,
        lines=[line.fee_line() for line in quote.lines],
        method=method,
        reference=reference,
        tendered=tendered,
        actor=actor,
        now=now,
    )
    receipt_documents_issue(receipt=receipt, actor=actor, license=quote.license, now=now)
    redemption = Redemption.objects.create(
        case=case,
        owner=owner,
        redeemed_at=now,
        receipt=receipt,
        licensed=quote.licensed,
        resident=quote.resident,
        days_charged=quote.days,
        license=quote.license,
        immunization=quote.immunization,
        recorded_by=actor,
    )
    _close_redeemed(case, quote, receipt, actor=actor, now=now)
    return redemption


def _check_redeemable(case: ImpoundCase, owner: Owner, method: str) -> None:
    """The case is open (IMP-07), the owner is the registry's, the payment is one we take."""
    citation = rule_citation(case.jurisdiction, "IMP-07")
    if not case.may("redeem"):
        raise Refused.because(
            _("Impound case"),
            _("Case %(n)s is %(status)s: it cannot be redeemed.")
            % {"n": case.number, "status": case.get_status_display().lower()},
            citation,
        )
    if case.animal_id is not None and owner.pk != case.animal.owner_id:
        raise Refused.because(
            _("Owner"),
            _("%(name)s is not the animal's owner in the registry.") % {"name": owner.name},
            citation,
            field="owner",
        )
    if method not in PaymentMethod.values:
        raise Refused.because(_("Payment"), _("Choose a payment method."), field="method")


def _close_redeemed(case: ImpoundCase, quote: Quote, receipt, *, actor, now) -> None:
    """The case closes as redeemed to the owner (Glencoe Subd. 13 item 5: to whom)."""
    owner = quote.owner
    case.licensed = quote.licensed
    case.save(update_fields=["licensed"])
    case.close(
        CaseStatus.REDEEMED,
        on=timezone.localdate(now),
        at=now,
        actor=actor,
        note=_("Redeemed by %(owner)s, receipt %(r)s, $%(t)s")
        % {"owner": owner.name, "r": receipt.number, "t": receipt.total},
        to_name=owner.name,
        to_address=owner.address,
        data={
            "receipt": receipt.number,
            "total": str(receipt.total),
            "days_charged": quote.days,
            "licensed": quote.licensed,
            "resident": quote.resident,
        },
    )
