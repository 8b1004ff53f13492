"""What both permit kinds share: whether the city's ordinance has them at all, who may
act, permit numbers, and the refusal a city without such a permit gives."""

from datetime import date

from django.db import transaction
from django.utils.translation import gettext as _

from ordinance.models import Jurisdiction
from ordinance.refusals import Refused
from ordinance.rules import rule_value_cached
from permits.models import PermitKind, PermitSeries

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
    return rule_value_cached(jurisdiction, PRESENCE_KEYS[kind], on=on) is not None


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


def check_serves(actor, jurisdiction: Jurisdiction) -> None:
    if actor is not None and not actor.serves(jurisdiction.pk):
        raise Refused.because(_("City"), _("You do not serve %(city)s.") % {"city": jurisdiction})


def check_status(permit, allowed, what) -> None:
    if permit.status not in allowed:
        raise Refused.because(
            _("Status"),
            _("%(what)s is not possible while the permit is “%(status)s”.")
            % {"what": what, "status": permit.get_status_display()},
        )


def number_allocate(jurisdiction: Jurisdiction, kind: str, *, year: int) -> str:
    """The next number of the city's series (``T2026-001``); a row lock and a unique
    constraint keep two clerks from getting the same one."""
    with transaction.atomic():
        series, _created = PermitSeries.objects.select_for_update().get_or_create(
            jurisdiction=jurisdiction, kind=kind, year=year
        )
        number = series.next_number
        series.next_number += 1
        series.save(update_fields=["next_number"])
    return f"{NUMBER_PREFIX[kind]}{year}-{number:03d}"
