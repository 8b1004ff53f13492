"""Permit pages for Glencoe's staff: the list, the two application forms, each permit's
page with its decision, the Council's approval and issue; the PDF is the archived
document (notices). North Branch's ordinance has no such permits: its staff see a plain
statement and no form.

Thin views: the role first (a wrong role always gets 403), the permit within the user's
cities (404 otherwise), one service call, render; a ``Refused`` goes next to its field.
"""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, CLERK, STAFF_ROLES
from ordinance.models import Event
from ordinance.refusals import Refused
from permits.forms import (
    CouncilDecisionForm,
    HorseChecksForm,
    HorsePermitForm,
    TemporaryDecisionForm,
    TemporaryPermitForm,
)
from permits.models import (
    Decision,
    HorsePermit,
    HorseStatus,
    PermitKind,
    TemporaryPermit,
    TemporaryStatus,
)
from permits.services import horses, temporary
from permits.services.common import permit_cities

ACT_ROLES = (CLERK, ADMINISTRATOR)  # the City Clerk's office; the officer may view
LIST_LIMIT = 200


def _context(request, **extra):
    user = request.user
    return {
        "show_city": len(user.jurisdiction_ids) > 1,
        "may_act": user.has_role(*ACT_ROLES),
        **extra,
    }


def _statement(request, kind=None):
    """The page a user sees whose cities' ordinances have no such permit."""
    names = ", ".join(c.name for c in request.user.served_list)
    return render(
        request,
        "permits/none.html",
        _context(request, cities=names, kind=PermitKind(kind).label if kind else ""),
    )


@role_required(*STAFF_ROLES)
def permit_list(request):
    today = timezone.localdate()
    if not permit_cities(request.user, on=today):
        return _statement(request)
    kind = request.GET.get("kind", "")
    status = request.GET.get("status", "")
    tables = []
    for this_kind, model, statuses in (
        (PermitKind.TEMPORARY, TemporaryPermit, TemporaryStatus),
        (PermitKind.HORSE, HorsePermit, HorseStatus),
    ):
        if kind and kind != this_kind:
            continue
        rows = model.objects.for_user(request.user).select_related("jurisdiction")
        if status in statuses.values:
            rows = rows.filter(status=status)
        tables.append({"kind": this_kind, "rows": list(rows[:LIST_LIMIT])})
    # One choice per value: both kinds' statuses, the horse permit's words where both have one.
    statuses = sorted({**dict(TemporaryStatus.choices), **dict(HorseStatus.choices)}.items())
    return render(
        request,
        "permits/list.html",
        _context(
            request,
            tables=tables,
            kind=kind,
            status=status,
            kinds=PermitKind.choices,
            statuses=statuses,
        ),
    )


@role_required(*ACT_ROLES)
def temporary_apply(request):
    form = TemporaryPermitForm(request.POST or None, user=request.user)
    if not form.cities:
        return _statement(request, PermitKind.TEMPORARY)
    if request.method == "POST" and form.is_valid():
        try:
            permit = temporary.temporary_apply(
                jurisdiction=form.city(), actor=request.user, **form.service_kwargs()
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Application recorded; it waits for a decision."))
            return redirect(permit)
    return render(request, "permits/temporary_apply.html", _context(request, form=form))


def _temporary(request, pk):
    return get_in_jurisdiction(
        TemporaryPermit.objects.select_related(
            "jurisdiction", "entered_by", "decision_recorded_by", "document"
        ),
        request.user,
        pk=pk,
    )


def _events(permit):
    return list(Event.objects.for_object(permit).select_related("actor").order_by("at", "pk"))


def _temporary_page(request, permit, *, form=None, status=200):
    if form is None and permit.may("approve"):
        form = TemporaryDecisionForm(initial={"decided_on": timezone.localdate()})
    return render(
        request,
        "permits/temporary_detail.html",
        _context(request, permit=permit, form=form, events=_events(permit)),
        status=status,
    )


@role_required(*STAFF_ROLES)
def temporary_detail(request, pk):
    return _temporary_page(request, _temporary(request, pk))


@role_required(*ACT_ROLES)
@require_POST
def temporary_decide(request, pk):
    permit = _temporary(request, pk)
    form = TemporaryDecisionForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            permit = temporary.temporary_decide(
                permit=permit,
                decision=data["decision"],
                decided_by_name=data["decided_by_name"],
                decided_by_capacity=data["decided_by_capacity"],
                decided_on=data["decided_on"],
                reasons=data["decision_reasons"],
                actor=request.user,
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            if permit.decision == Decision.APPROVED:
                messages.success(request, _("Permit %(n)s issued.") % {"n": permit.number})
            else:
                messages.success(request, _("Denial recorded."))
            return redirect(permit)
    return _temporary_page(request, permit, form=form)


@role_required(*ACT_ROLES)
def horse_apply(request):
    form = HorsePermitForm(request.POST or None, user=request.user)
    if not form.cities:
        return _statement(request, PermitKind.HORSE)
    if request.method == "POST" and form.is_valid():
        try:
            permit = horses.horse_apply(
                jurisdiction=form.city(), actor=request.user, **form.service_kwargs()
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(
                request,
                _("Application recorded: the standards the system checks are met."),
            )
            return redirect(permit)
    return render(request, "permits/horse_apply.html", _context(request, form=form))


def _horse(request, pk):
    return get_in_jurisdiction(
        HorsePermit.objects.select_related(
            "jurisdiction", "entered_by", "checked_by", "issued_by", "document"
        ),
        request.user,
        pk=pk,
    )


def _horse_page(request, permit, *, checks_form=None, council_form=None, issue_errors=()):
    today = timezone.localdate()
    city = permit.jurisdiction
    if checks_form is None and permit.may("check"):
        checks_form = HorseChecksForm(
            initial={
                "shelter_ok": permit.shelter_ok,
                "grazing_ok": permit.grazing_ok,
                "sanitation_ok": permit.sanitation_ok,
                "checks_note": permit.checks_note,
            }
        )
    if council_form is None and permit.may("council"):
        council_form = CouncilDecisionForm()
    citations = horses.person_check_citations(city)
    term = None
    if permit.status == HorseStatus.ISSUED or permit.status == HorseStatus.EXPIRED:
        term = horses.Term(
            issued_on=permit.issued_on,
            expires_on=permit.expires_on,
            citation=permit.expiry_citation,
            remind_on=permit.remind_on,
            short=horses.horse_term(city, issued_on=permit.issued_on).short,
        )
    elif permit.may("issue"):
        term = horses.horse_term_preview(city, on=today)
    return render(
        request,
        "permits/horse_detail.html",
        _context(
            request,
            permit=permit,
            checks_form=checks_form,
            council_form=council_form,
            issue_errors=issue_errors,
            may_issue=permit.may("issue"),
            citations=citations,
            term=term,
            silences=horses.horse_silences(city, on=today),
            events=_events(permit),
        ),
    )


@role_required(*STAFF_ROLES)
def horse_detail(request, pk):
    return _horse_page(request, _horse(request, pk))


@role_required(*ACT_ROLES)
@require_POST
def horse_checks(request, pk):
    permit = _horse(request, pk)
    form = HorseChecksForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            permit = horses.horse_checks_record(
                permit=permit,
                shelter_ok=data["shelter_ok"],
                grazing_ok=data["grazing_ok"],
                sanitation_ok=data["sanitation_ok"],
                note=data["checks_note"],
                actor=request.user,
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Checks recorded."))
            return redirect(permit)
    return _horse_page(request, permit, checks_form=form)


@role_required(*ACT_ROLES)
@require_POST
def horse_council(request, pk):
    permit = _horse(request, pk)
    form = CouncilDecisionForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            permit = horses.horse_council_decide(
                permit=permit,
                decision=data["council_decision"],
                council_date=data["council_date"],
                resolution_number=data["resolution_number"],
                reasons=data["council_reasons"],
                actor=request.user,
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("The Council's decision is recorded."))
            return redirect(permit)
    return _horse_page(request, permit, council_form=form)


@role_required(*ACT_ROLES)
@require_POST
def horse_issue(request, pk):
    permit = _horse(request, pk)
    try:
        permit = horses.horse_issue(permit=permit, actor=request.user)
    except Refused as exc:
        return _horse_page(request, permit, issue_errors=exc.messages)
    term = horses.horse_term(permit.jurisdiction, issued_on=permit.issued_on)
    messages.success(request, _("Permit %(n)s issued.") % {"n": permit.number})
    if term.short:
        messages.warning(request, term.warning())
    return redirect(permit)


app_name = "permits"

urlpatterns = [
    path("", permit_list, name="list"),
    path("temporary/new/", temporary_apply, name="temporary_apply"),
    path("temporary/<int:pk>/", temporary_detail, name="temporary_detail"),
    path("temporary/<int:pk>/decide/", temporary_decide, name="temporary_decide"),
    path("horses/new/", horse_apply, name="horse_apply"),
    path("horses/<int:pk>/", horse_detail, name="horse_detail"),
    path("horses/<int:pk>/checks/", horse_checks, name="horse_checks"),
    path("horses/<int:pk>/council/", horse_council, name="horse_council"),
    path("horses/<int:pk>/issue/", horse_issue, name="horse_issue"),
]
