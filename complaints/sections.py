"""Sections complaints fills on pages of the apps below it (base.sections; see apps.py)."""

from base.roles import STAFF_ROLES


def _staff(request) -> bool:
    user = getattr(request, "user", None)
    return bool(user and user.is_authenticated and user.has_role(*STAFF_ROLES))


def _listed(request, **lookup):
    from complaints.models import Complaint

    return list(
        Complaint.objects.for_user(request.user).filter(**lookup).order_by("-occurred_at", "-pk")
    )


def animal_complaints(request, *, animal):
    """The animal page links to its complaints, staff only. A link, not the rows: the
    animal page is at the page query budget (tests/test_every_page.py), and this section
    costs no query."""
    if not _staff(request):
        return None
    return "complaints/_animal_complaints.html", {"animal": animal}


def owner_complaints(request, *, owner):
    """The owner page's complaints, staff only."""
    if not _staff(request):
        return None
    return "complaints/_complaints_section.html", {"complaints": _listed(request, owner=owner)}
