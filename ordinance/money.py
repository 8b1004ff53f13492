"""Money is Decimal with two places (architecture.md, "Money and numbers").

The one place that spells a cent and a zero amount; amounts themselves come from the
profile or the fee schedule.
"""

from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def to_money(value) -> Decimal:
    """Two places, half up, whatever came in (a database SUM, None, an int)."""
    return Decimal(value or 0).quantize(CENT, rounding=ROUND_HALF_UP)


def money_sum(amounts: Iterable[Decimal]) -> Decimal:
    return sum(amounts, ZERO)
