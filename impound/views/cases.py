"""Impound cases for staff: intake on a phone, the board, the case page, identifying the
owner (IMP-01, IMP-03, IMP-04, IMP-06, IMP-08; Appendix B2, C13).

Thin views: the role first (a wrong role always gets 403), the case within the user's
cities (404 otherwise), one service call, render; a ``Refused`` goes next to its field.
"""

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, CLERK, OFFICER, STAFF_ROLES
from base.uploads import upload_response
from impound.filters import CaseFilter
from impound.forms import IdentifyOwnerForm, IntakeForm
from impound.models import CaseGate, ImpoundCase
from impound.services.intake import case_identify_owner, case_intake
from licensing.selectors import MIN_QUERY_LENGTH, registry_search
from ordinance.models import Event
from ordinance.refusals import Refused

INTAKE_ROLES = (OFFICER, ADMINISTRATOR)
IDENTIFY_ROLES = (CLERK, OFFICER, ADMINISTRATOR)
BOARD_PAGE_SIZE = 25


def _multi_city(user) -> bool:
    return len(user.jurisdiction_ids) > 1


def _search(request, query, **kwargs):
    query = (query or "").strip()
    return query, registry_search(user=request.user, query=query, **kwargs)


@role_required(*INTAKE_ROLES)
def intake(request):
    """One screen on a phone. "Find the owner" re-renders the bound form with the
    registry's matches; "Record intake" calls ``case_intake``."""
    searching = request.method == "POST" and "find_owner" in request.POST
    query, hits = _search(request, request.POST.get("q") if searching else request.GET.get("q"))
    if request.method == "POST":
        form = IntakeForm(request.POST, request.FILES, user=request.user, hits=hits)
    else:
        form = IntakeForm(user=request.user, hits=hits)
    if not form.cities:
        raise Http404
    if request.method == "POST" and not searching and form.is_valid():
        city = form.cleaned_data["jurisdiction"]
        try:
            case = case_intake(jurisdiction=city, actor=request.user, **form.service_kwargs())
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(
                request,
                _("Case %(n)s recorded; the hold ends %(end)s (%(section)s).")
                % {
                    "n": case.number,
                    "end": date_format(case.hold_ends_on),
                    "section": case.hold_citation,
                },
            )
            return redirect(case)
    return render(
        request,
        "impound/intake.html",
        {
            "form": form,
            "q": query,
            "hits": hits,
            "searched": searching or bool(query),
            "min_length": MIN_QUERY_LENGTH,
        },
    )


def _board_queryset(user):
    open_gates = CaseGate.objects.filter(cleared_at__isnull=True).order_by("opened_at", "pk")
    return (
        ImpoundCase.objects.for_user(user)
        .select_related("jurisdiction", "animal__owner")
        .prefetch_related(Prefetch("gates", queryset=open_gates, to_attr="open_gates"))
        .order_by("hold_ends_on", "number", "pk")
    )


@role_required(*STAFF_ROLES)
def board(request):
    """Open cases of the user's cities: days held, hold end with its section, gates."""
    filterset = CaseFilter(request.GET, queryset=_board_queryset(request.user), user=request.user)
    page = Paginator(filterset.qs, BOARD_PAGE_SIZE).get_page(request.GET.get("page"))
    today = timezone.localdate()
    for case in page:
        case.days = case.days_held(today)
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "impound/board.html",
        {
            "filter": filterset,
            "page": page,
            "cases": page.object_list,
            "today": today,
            "show_city": _multi_city(request.user),
            "may_intake": request.user.has_role(*INTAKE_ROLES),
            "querystring": query.urlencode(),
        },
    )


def _case_for_detail(user, pk):
    gates = CaseGate.objects.select_related("opened_by", "cleared_by").order_by("opened_at", "pk")
    return get_in_jurisdiction(
        ImpoundCase.objects.select_related(
            "jurisdiction",
            "pound",
            "officer",
            "animal__owner",
            "sterilization",
            "redemption__receipt",
        ).prefetch_related(Prefetch("gates", queryset=gates)),
        user,
        pk=pk,
    )


@role_required(*STAFF_ROLES)
def case_detail(request, pk):
    case = _case_for_detail(request.user, pk)
    today = timezone.localdate()
    events = list(Event.objects.for_object(case).select_related("actor").order_by("at", "pk"))
    return render(
        request,
        "impound/case_detail.html",
        {
            "case": case,
            "gates": list(case.gates.all()),
            "events": events,
            "days_held": case.days_held(today),
            "today": today,
            "show_city": _multi_city(request.user),
            "may_identify": request.user.has_role(*IDENTIFY_ROLES) and case.is_open,
        },
    )


@role_required(*STAFF_ROLES)
def case_photo(request, pk):
    case = get_in_jurisdiction(ImpoundCase.objects, request.user, pk=pk)
    if not case.photo:
        raise Http404
    return upload_response(case.photo, download_name=f"impound-{case.pk}-photo")


@role_required(*IDENTIFY_ROLES)
def identify_owner(request, pk):
    """Search the registry (GET) and link the animal (POST) to the case."""
    case = get_in_jurisdiction(
        ImpoundCase.objects.select_related("jurisdiction", "animal__owner"), request.user, pk=pk
    )
    query, hits = _search(request, request.GET.get("q"), jurisdiction_ids=[case.jurisdiction_id])
    form = IdentifyOwnerForm(request.POST or None, case=case, hits=hits)
    if request.method == "POST":
        if form.is_valid():
            try:
                case_identify_owner(
                    case=case, animal=form.cleaned_data["animal"], actor=request.user
                )
            except Refused as exc:
                apply_service_errors(form, exc)
            else:
                messages.success(
                    request,
                    _("Owner identified: %(owner)s.")
                    % {"owner": form.cleaned_data["animal"].owner.name},
                )
                return redirect(case)
    return render(
        request,
        "impound/identify_owner.html",
        {
            "case": case,
            "form": form,
            "q": query,
            "hits": hits,
            "min_length": MIN_QUERY_LENGTH,
        },
    )


urlpatterns = [
    path("", board, name="board"),
    path("intake/", intake, name="intake"),
    path("<int:pk>/", case_detail, name="case_detail"),
    path("<int:pk>/photo/", case_photo, name="case_photo"),
    path("<int:pk>/owner/", identify_owner, name="case_identify_owner"),
]
SECTIONS: list = []
