"""Sections complaints fills on pages of the apps below it (base.sections; see apps.py).

The animal's, owner's and premises' pages show the case file: one query
(``complaints.casefile``). On the animal page the case file lists the impound cases too,
so it takes the place of impound's own table there (apps.py): the page stays within its
query budget (tests/test_every_page.py).
"""

from django.urls import reverse

from base.roles import STAFF_ROLES


def _staff(request) -> bool:
    user = getattr(request, "user", None)
    return bool(user and user.is_authenticated and user.has_role(*STAFF_ROLES))


def _case_file(request, **whose):
    from complaints.casefile import Scope, case_file

    scope = Scope(jurisdiction_ids=tuple(request.user.jurisdiction_ids), **whose)
    return case_file(scope)


def animal_case_file(request, *, animal):
    """The animal's complaints, entries, warnings, citations and impoundments, staff only."""
    if not _staff(request):
        return None
    return "complaints/_casefile.html", {
        "rows": _case_file(request, animal=animal),
        "whose": animal.name,
        "premises_id": animal.premises_id,
        "complaints_url": f"{reverse('complaints:list')}?animal={animal.pk}",
    }


def owner_case_file(request, *, owner):
    """The owner's case file, staff only."""
    if not _staff(request):
        return None
    return "complaints/_casefile.html", {
        "rows": _case_file(request, owner=owner),
        "whose": owner.name,
    }


def premises_case_file(request, *, premises):
    """The premises' case file on the registry's premises page, staff only."""
    if not _staff(request):
        return None
    return "complaints/_casefile.html", {
        "rows": _case_file(request, premises=premises),
        "whose": premises.address,
    }


def report_links(request):
    """The complaint and citation reports on the reports page."""
    if not _staff(request):
        return None
    from complaints.reports_views import report_list

    return "complaints/_report_links.html", {"reports": report_list()}
