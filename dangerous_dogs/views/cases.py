"""Dangerous-dog cases for staff: the board and the case page (Appendix B3).

Thin views: the role first (a wrong role always gets 403), the case within the user's
cities (404 otherwise), one service call, render; a ``Refused`` goes next to its field.
The case page is filled by the other parts' sections (``dangerous_dogs.case_detail``).
"""

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, OFFICER, STAFF_ROLES
from dangerous_dogs.forms_notice import CaseOpenForm
from dangerous_dogs.models import OPEN_STATUSES, CaseStatus, DesignationCase
from dangerous_dogs.services import cases as case_services
from dangerous_dogs.services.common import procedure_or_refuse
from dangerous_dogs.services.investigation import Investigation, check_dog, prior_pdd_notice
from licensing.models import Animal
from ordinance.models import Event
from ordinance.refusals import Refused
from ordinance.rules import RuleUnavailable, rule_citation

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


@role_required(*ACTING_ROLES)
def case_open(request, animal_pk):
    """Record the investigation of an incident and open a case (DD-02, DD-03, DD-26)."""
    animal = get_in_jurisdiction(
        Animal.objects.select_related("jurisdiction", "owner"), request.user, pk=animal_pk
    )
    today = timezone.localdate()
    refusal = None
    try:
        procedure_or_refuse(animal.jurisdiction, on=today)
        check_dog(animal, animal.jurisdiction)
    except (Refused, RuleUnavailable) as exc:
        refusal = exc if isinstance(exc, Refused) else Refused.from_rule(exc)
    prior = None if refusal else prior_pdd_notice(animal)
    if request.method == "POST" and refusal is None:
        form = CaseOpenForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                case = case_services.case_open(
                    animal=animal,
                    actor=request.user,
                    investigation=Investigation(**form.cleaned_data),
                )
            except Refused as exc:
                apply_service_errors(form, exc)
            else:
                if case.status == CaseStatus.EXEMPT:
                    messages.warning(
                        request,
                        _("Case %(n)s closed: %(why)s")
                        % {"n": case.number, "why": case.closing_note},
                    )
                else:
                    messages.success(
                        request,
                        _("Case %(n)s opened; issue the notice of intent.") % {"n": case.number},
                    )
                return redirect(case)
        status = 400
    else:
        form = CaseOpenForm(
            initial={"investigated_on": today, "investigated_by_name": request.user.get_full_name()}
        )
        status = 200 if refusal is None else 400 if request.method == "POST" else 200
    return render(
        request,
        "dangerous_dogs/cases/open.html",
        {
            "animal": animal,
            "form": form,
            "refusal": refusal,
            "prior_notice_on": prior,
            "definition_section": rule_citation(animal.jurisdiction, "DD-02"),
            "exemption_section": rule_citation(animal.jurisdiction, "DD-26"),
        },
        status=status,
    )


urlpatterns = [
    path("", board, name="board"),
    path("cases/<int:pk>/", case_detail, name="case_detail"),
    path("animals/<int:animal_pk>/open/", case_open, name="case_open"),
]
SECTIONS: list = []
