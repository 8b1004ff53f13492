"""Fee amounts: the council's fee schedule, or the amount the ordinance itself fixes.

A fee code (``dog_license``, ``duplicate_tag``, ``release`` ...) maps, in the profile
data, to the profile value that sets it. When the ordinance fixes the amount (a $3.00
duplicate tag, NB Sec. 6-63) that value is the fee and its citation the authority; when
the ordinance leaves it to the council ("established by resolution", NB Sec. 6-62) the
fee is the ``FeeScheduleEntry`` in force, with its resolution (rules.md FEE-01..FEE-08).
"""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.utils.formats import date_format

from .models import FeeScheduleEntry, Jurisdiction
from .rules import RuleNotInOrdinance, RuleNotSet, RuleUnavailable, profile_for, rule_in_force


@dataclass(frozen=True)
class FeeAmount:
    code: str
    description: str
    amount: Decimal
    authority: str  # "Council Res. 2025-41" or "North Branch Sec. 6-63"
    effective_from: date

    def display(self) -> str:
        return f"${self.amount:,.2f}"


class FeeNotSet(RuleUnavailable):
    """No amount in force for this fee: the ordinance leaves it to a resolution not yet entered."""


def fee_amount(jurisdiction: Jurisdiction, code: str, *, on: date) -> FeeAmount:
    spec = profile_for(jurisdiction).fees.get(code)
    citation = ""
    if spec is not None:
        try:
            rule = rule_in_force(jurisdiction, spec.rule, on=on)
            return FeeAmount(code, spec.description, rule.value, rule.citation, rule.effective_from)
        except RuleNotSet as exc:
            citation = exc.citation  # the council sets it: look in the fee schedule
        except RuleNotInOrdinance:
            pass
    entry = scheduled_fee(jurisdiction, code, on=on)
    if entry is not None:
        return FeeAmount(
            code, entry.description, entry.amount, entry.resolution, entry.effective_from
        )
    what = spec.description if spec else code.replace("_", " ")
    where = f" ({citation})" if citation else ""
    raise FeeNotSet(
        f"The {what.lower()} fee for {jurisdiction.name} is not set{where}: no council "
        f"resolution is in force on {date_format(on)}. An administrator must "
        "add it to the fee schedule first.",
        jurisdiction=jurisdiction,
        key=code,
        citation=citation,
    )


def scheduled_fee(jurisdiction: Jurisdiction, code: str, *, on: date):
    """The fee schedule row in force on ``on`` (latest effective date on or before it)."""
    return (
        FeeScheduleEntry.objects.filter(
            jurisdiction=jurisdiction, code=code, effective_from__lte=on
        )
        .order_by("-effective_from", "-pk")
        .first()
    )
