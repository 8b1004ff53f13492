"""Dangerous-dog cases for staff: the board and the case page (Appendix B3).

Thin views: the role first (a wrong role always gets 403), the case within the user's
cities (404 otherwise), one service call, render; a ``Refused`` goes next to its field.
The case page is filled by the other parts' sections (``dangerous_dogs.case_detail``).
"""

from django.core.paginator import Paginator
from django.shortcuts import render
from django.urls import path
from django.utils import timezone

from base.access import get_in_jurisdiction, role_required
from base.roles import ADMINISTRATOR, OFFICER, STAFF_ROLES
from dangerous_dogs.models import OPEN_STATUSES, DesignationCase
from ordinance.models import Event

BOARD_PAGE_SIZE = 25
ACTING_ROLES = (OFFICER, ADMINISTRATOR)


def _multi_city(user) -> bool:
    return len(user.jurisdiction_ids) > 1


@role_required(*STAFF_ROLES)
def board(request):
    """Open cases of the user's cities, those needing a person first, then by deadline."""
    show_closed = request.GET.get("closed") == "1"
    cases = DesignationCase.objects.for_user(request.user).select_related(
        "jurisdiction", "animal", "owner"
    )
    if not show_closed:
        cases = cases.filter(status__in=OPEN_STATUSES)
    cases = cases.order_by("attention_since", "contest_deadline", "compliance_deadline", "-pk")
    page = Paginator(cases, BOARD_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "dangerous_dogs/board.html",
        {
            "page": page,
            "cases": page.object_list,
            "show_closed": show_closed,
            "show_city": _multi_city(request.user),
            "today": timezone.localdate(),
        },
    )


def case_for_detail(user, pk):
    return get_in_jurisdiction(
        DesignationCase.objects.select_related(
            "jurisdiction", "animal", "owner", "officer", "notice", "declaration", "impound_case"
        ),
        user,
        pk=pk,
    )


@role_required(*STAFF_ROLES)
def case_detail(request, pk):
    case = case_for_detail(request.user, pk)
    events = list(Event.objects.for_object(case).select_related("actor").order_by("at", "pk"))
    return render(
        request,
        "dangerous_dogs/case_detail.html",
        {
            "case": case,
            "events": events,
            "today": timezone.localdate(),
            "show_city": _multi_city(request.user),
            "may_act": request.user.has_role(*ACTING_ROLES),
        },
    )


urlpatterns = [
    path("", board, name="board"),
    path("cases/<int:pk>/", case_detail, name="case_detail"),
]
SECTIONS: list = []
