"""Sections dangerous_dogs fills on pages of the apps below it (base.sections; see apps.py)."""

from base.roles import ADMINISTRATOR, OFFICER, STAFF_ROLES


def animal_designations(request, *, animal):
    """The animal page's dangerous-dog cases, and for an officer the way to open one."""
    if not request.user.has_role(*STAFF_ROLES):
        return None
    from .models import DesignationCase

    cases = list(DesignationCase.objects.filter(animal=animal).order_by("-created_at", "-pk"))
    return "dangerous_dogs/_animal_designations.html", {
        "animal": animal,
        "cases": cases,
        "may_open": request.user.has_role(OFFICER, ADMINISTRATOR),
    }
