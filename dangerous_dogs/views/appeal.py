"""The appeal to the City Council on the page (DD-20, C31; Glencoe 701 Subd. 15(H)).

The appeal is filed with the City Clerk: clerks and administrators record it, the
Council's decision and a further appeal to the Court of Appeals; officers see it on the
case page. Only a Review Panel's ruling is appealable (not a declaration by default).
"""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from dangerous_dogs import forms_hearing as f
from dangerous_dogs.models import DeclaredBy, DesignationCase
from dangerous_dogs.services import appeal as svc
from dangerous_dogs.views.hearing import part_b
from ordinance.refusals import Refused
from ordinance.rules import RuleUnavailable

CLERKS = svc.CLERK_ROLES
FORMS = {"file": f.AppealFileForm, "decide": f.AppealDecideForm, "court": f.CourtForm}


def _appeal_context(request, case) -> dict:
    appeals = part_b(case)["appeals"]
    appeal = appeals[-1] if appeals else None
    pending = appeal is not None and appeal.pending
    return {
        "case": case,
        "appeal": appeal,
        "pending": pending,
        "stay": svc.stay_statement(case.jurisdiction, on=timezone.localdate()) if pending else None,
        "citation": case.appeal_citation or svc.appeal_citation(case.jurisdiction),
        "can_act": request.user.has_role(*CLERKS),
        "step": _step(case, appeal),
    }


def _step(case, appeal) -> str:
    if case.declared_by != DeclaredBy.PANEL:
        return ""
    if appeal is None:
        return "file" if case.in_force else ""
    if appeal.pending:
        return "decide"
    if appeal.court_of_appeals_on is None:
        return "court"
    return ""


def appeal_section(request, *, case):
    """Section 45: the appeal, its deadline with its section, and whether it stays
    compliance while pending (a blank of the ordinance: a person decides)."""
    if case.declared_by != DeclaredBy.PANEL:
        return None
    return "dangerous_dogs/appeal/_section.html", _appeal_context(request, case)


SECTIONS = [("appeal", appeal_section, 45)]


def _run(action, case, appeal, data, user):
    if action == "file":
        svc.appeal_file(case=case, actor=user, **data)
    elif appeal is None:
        raise Refused.because(_("Appeal"), _("No appeal is recorded."))
    elif action == "decide":
        svc.appeal_decide(appeal=appeal, actor=user, **data)
    else:
        svc.court_of_appeals(appeal=appeal, actor=user, **data)


@role_required(*CLERKS)
def appeal_page(request, pk):
    case = get_in_jurisdiction(
        DesignationCase.objects.select_related("jurisdiction", "animal", "owner"),
        request.user,
        pk=pk,
    )
    context = _appeal_context(request, case)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    forms = {name: cls(prefix=name) for name, cls in FORMS.items()}
    if action in FORMS:
        form = FORMS[action](request.POST, prefix=action)
        forms[action] = form
        if form.is_valid():
            try:
                _run(action, case, context["appeal"], form.cleaned_data, request.user)
            except Refused as refused:
                apply_service_errors(form, refused)
            except RuleUnavailable as exc:
                apply_service_errors(form, Refused.from_rule(exc))
            else:
                messages.success(request, _("Recorded."))
                return redirect(case.get_absolute_url())
    elif request.method == "POST":
        messages.error(request, _("That step is not possible now."))
        return redirect("dangerous_dogs:appeal", pk=case.pk)
    context.update({"forms": forms, "step": action or context["step"]})
    return render(request, "dangerous_dogs/appeal/page.html", context)


urlpatterns = [path("cases/<int:pk>/appeal/", appeal_page, name="appeal")]
