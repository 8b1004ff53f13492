"""Sections impound fills on pages of the apps below it (base.sections; see apps.py)."""

from base.roles import STAFF_ROLES


def animal_impounds(request, *, animal):
    """The animal page's impound cases (number, dates, ground, status), staff only."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.has_role(*STAFF_ROLES):
        return None
    from impound.models import ImpoundCase

    cases = ImpoundCase.objects.for_user(user).filter(animal=animal).order_by("-placed_at", "-pk")
    return "impound/_animal_impounds.html", {"animal": animal, "cases": list(cases)}
