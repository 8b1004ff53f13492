"""Sections citations fills on pages of the apps below it (base.sections; see apps.py)."""

from base.roles import STAFF_ROLES


def animal_citations(request, *, animal):
    """The animal page's citations in time order (issue 16 item 6), staff only."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.has_role(*STAFF_ROLES):
        return None
    from citations.models import Citation

    citations = Citation.objects.for_user(user).filter(animal=animal).order_by("violated_at", "pk")
    return "citations/_animal_citations.html", {"animal": animal, "citations": list(citations)}
