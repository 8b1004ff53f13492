"""What both permit kinds share: whether the city's ordinance has them at all, permit
numbers, and the refusal a city without such a permit gives."""

from datetime import date

from django.utils.translation import gettext as _

from kernel.numbers import allocate
from ordinance.models import Jurisdiction
from ordinance.refusals import Refused
from ordinance.rules import rule_in_force
from permits.models import PermitKind

# The profile value whose presence says the city's ordinance has the permit at all
# (North Branch has none: rules.md sections 7 and 8, "not in ordinance").
PRESENCE_KEYS = {
    PermitKind.TEMPORARY: "wild_temp_cup_max_days",  # Glencoe 701 Subd. 32(A)
    PermitKind.HORSE: "horse_permit_expiry",  # Glencoe 702
}
NUMBER_PREFIX = {PermitKind.TEMPORARY: "T", PermitKind.HORSE: "H"}


def has_permit(jurisdiction: Jurisdiction, kind: str, *, on: date) -> bool:
    """Whether the city's ordinance has this kind of permit (from the cache: menus and
    pages ask it on every request)."""
    return rule_in_force(jurisdiction, PRESENCE_KEYS[kind], on=on, cached=True) is not None


def permit_cities(user, kind: str | None = None, *, on: date) -> list[Jurisdiction]:
    """The cities the user serves whose ordinance has this permit (any permit if None)."""
    kinds = [kind] if kind else list(PRESENCE_KEYS)
    return [c for c in user.served_list if any(has_permit(c, k, on=on) for k in kinds)]


def serves_a_permit_city(user) -> bool:
    from django.utils import timezone

    return bool(permit_cities(user, on=timezone.localdate()))


def permit_or_refuse(jurisdiction: Jurisdiction, kind: str, *, on: date) -> None:
    if not has_permit(jurisdiction, kind, on=on):
        raise Refused.because(
            PermitKind(kind).label,
            _("%(city)s's ordinance has no such permit.") % {"city": jurisdiction.name},
        )


def number_allocate(jurisdiction: Jurisdiction, kind: str, *, year: int) -> str:
    """The next number of the city's series of the kind and year (``T2026-001``), from
    the kernel's one allocator: call it in the transaction that saves the number."""
    number = allocate(jurisdiction, f"permit-{kind}", year)
    return f"{NUMBER_PREFIX[kind]}{year}-{number:03d}"
