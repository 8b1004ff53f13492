"""Notice of impounding on the case page (IMP-05, C11, C12).

The case page's "Notices" section lists the notices issued for the case (printed from
Documents), the contact and posting log, and the forms to issue the owner's letter or the
posted notice, to log an attempt to reach the owner, to record a letter mailed and a
notice posted, and to void a notice. Each form posts to its own URL; a refusal re-renders
the case's notices page with the bound form and the section, never a 500.
"""

from django import forms
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from base import dates
from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, CLERK, OFFICER
from impound.models import ImpoundCase
from impound.services import notices as svc
from notices.models import IssuedDocument, ServiceMethod
from ordinance.refusals import Refused

VIEWERS = (CLERK, OFFICER, ADMINISTRATOR)
ACTORS = (OFFICER, ADMINISTRATOR)


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


def _choices(methods):
    return [(m.value, m.label) for m in methods]


class AttemptForm(forms.Form):
    method = forms.ChoiceField(label=_lazy("How"), choices=_choices(svc.ATTEMPT_METHODS))
    attempted_at = dates.PastDateTimeField(label=_lazy("When"), widget=DateTimeInput)
    contacted = forms.CharField(
        label=_lazy("To whom (name, number or address)"), max_length=200, required=False
    )
    result = forms.CharField(label=_lazy("Result"), max_length=300)
    reached = forms.BooleanField(label=_lazy("Reached the owner"), required=False)


class ServedForm(forms.Form):
    method = forms.ChoiceField(label=_lazy("How"), choices=_choices(svc.LETTER_METHODS))
    served_at = dates.PastDateTimeField(label=_lazy("When"), widget=DateTimeInput)
    served_to = forms.CharField(
        label=_lazy("To (leave blank for the owner's address)"), max_length=200, required=False
    )


class PostingForm(forms.Form):
    location = forms.ChoiceField(label=_lazy("Posted at"))
    posted_at = dates.PastDateTimeField(label=_lazy("When"), widget=DateTimeInput)

    def __init__(self, *args, locations=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["location"].choices = [(p, p) for p in locations]


class PostedIssueForm(forms.Form):
    signed_as = forms.ChoiceField(
        label=_lazy("Signed as"), choices=[(k, v) for k, v in svc.SIGNERS.items()]
    )


class VoidForm(forms.Form):
    reason = forms.CharField(label=_lazy("Why is it void?"), max_length=300)


# --- The section ------------------------------------------------------------------------


def _now_local():
    return timezone.localtime().replace(second=0, microsecond=0)


def section_context(request, case, *, bound=None, errors=()) -> dict:
    """What the Notices section shows; ``bound`` is (form name, doc pk or None, form)."""
    today = timezone.localdate()
    rule = svc.posting_rule(case.jurisdiction, on=today)
    documents = list(svc.case_documents(case))
    records = list(svc.case_records(case))
    can_act = request.user.has_role(*ACTORS) and case.is_open
    now = _now_local()
    rows = []
    for doc in documents:
        if doc.is_void_record:
            continue
        row = {"document": doc, "voided": doc.is_voided, "forms": {}}
        if can_act and not row["voided"]:
            if doc.kind == svc.OWNER_NOTICE:
                row["forms"]["served"] = ServedForm(
                    initial={"method": ServiceMethod.MAIL, "served_at": now}
                )
            elif rule is not None:
                posted = {r.posted_where for r in records if r.document_id == doc.pk}
                left = [p for p in rule.locations if p not in posted] or list(rule.locations)
                row["forms"]["posting"] = PostingForm(
                    locations=rule.locations, initial={"location": left[0], "posted_at": now}
                )
            row["forms"]["void"] = VoidForm()
        if bound and bound[1] == doc.pk:
            row["forms"][bound[0]] = bound[2]
        rows.append(row)
    attempt = (
        bound[2]
        if bound and bound[0] == "attempt"
        else AttemptForm(initial={"attempted_at": now, "method": ServiceMethod.PHONE})
    )
    issue_posted = (
        bound[2]
        if bound and bound[0] == "posted"
        else PostedIssueForm(initial={"signed_as": svc.default_signer(request.user)})
    )
    owner = case.owner
    return {
        "case": case,
        "owner": owner,
        "notice_rows": rows,
        "records": records,
        "posting": rule,
        "notice_citation": svc.notice_citation(case.jurisdiction),
        "claim_by": svc.claim_by(case),
        "can_act": can_act,
        "attempt_form": attempt,
        "posted_form": issue_posted,
        "errors": list(errors),
    }


def case_notices_section(request, *, case):
    """Provider for the case page (base.sections): staff only."""
    if not request.user.has_role(*VIEWERS):
        return None
    return "impound/notices/_section.html", section_context(request, case)


SECTIONS = [("notices", case_notices_section, 20)]


# --- Pages and actions ------------------------------------------------------------------


def _case(request, pk) -> ImpoundCase:
    return get_in_jurisdiction(
        ImpoundCase.objects.select_related("jurisdiction", "pound", "animal__owner"),
        request.user,
        pk=pk,
    )


def _document(case, doc_pk) -> IssuedDocument:
    document = svc.case_documents(case).filter(pk=doc_pk).first()
    if document is None:
        raise Http404
    return document


def _page(request, case, *, bound=None, errors=(), status=200):
    return render(
        request,
        "impound/notices/case_notices.html",
        section_context(request, case, bound=bound, errors=errors),
        status=status,
    )


def _refused_page(request, case, exc: Refused):
    """A refusal without a form of its own (issuing a notice): shown above the section."""
    return _page(request, case, errors=[str(c) for c in exc.checks], status=400)


@role_required(*VIEWERS)
def case_notices(request, pk):
    return _page(request, _case(request, pk))


@role_required(*ACTORS)
@require_POST
def case_notice_letter(request, pk):
    case = _case(request, pk)
    try:
        document = svc.case_owner_notify(case=case, actor=request.user)
    except Refused as exc:
        return _refused_page(request, case, exc)
    messages.success(
        request,
        _("Notice %(n)s issued; print it from Documents.") % {"n": document.number}
        + (" " + _("It is e-mailed to the owner.") if case.owner.email else ""),
    )
    return redirect("impound:case_notices", case.pk)


@role_required(*ACTORS)
@require_POST
def case_notice_posted(request, pk):
    case = _case(request, pk)
    form = PostedIssueForm(request.POST)
    if not form.is_valid():
        return _page(request, case, bound=("posted", None, form), status=400)
    try:
        svc.case_posted_notice_issue(
            case=case, actor=request.user, signed_as=form.cleaned_data["signed_as"]
        )
    except Refused as exc:  # the city's rule, not a field: shown above the section
        return _refused_page(request, case, exc)
    messages.success(request, _("Notice of impounding issued; print it and post it."))
    return redirect("impound:case_notices", case.pk)


@role_required(*ACTORS)
@require_POST
def case_notice_attempt(request, pk):
    case = _case(request, pk)
    form = AttemptForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            svc.case_contact_attempt(
                case=case,
                actor=request.user,
                method=data["method"],
                attempted_at=data["attempted_at"],
                contacted=data["contacted"],
                result=data["result"],
                reached=data["reached"],
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Attempt recorded."))
            return redirect("impound:case_notices", case.pk)
    return _page(request, case, bound=("attempt", None, form), status=400)


@role_required(*ACTORS)
@require_POST
def case_notice_served(request, pk, doc):
    case = _case(request, pk)
    document = _document(case, doc)
    form = ServedForm(request.POST)
    if form.is_valid():
        try:
            svc.case_letter_served(document=document, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Service recorded."))
            return redirect("impound:case_notices", case.pk)
    return _page(request, case, bound=("served", document.pk, form), status=400)


@role_required(*ACTORS)
@require_POST
def case_notice_posting(request, pk, doc):
    case = _case(request, pk)
    document = _document(case, doc)
    rule = svc.posting_rule(case.jurisdiction, on=timezone.localdate())
    form = PostingForm(request.POST, locations=rule.locations if rule else ())
    if form.is_valid():
        try:
            svc.case_notice_posted(document=document, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Posting recorded."))
            return redirect("impound:case_notices", case.pk)
    return _page(request, case, bound=("posting", document.pk, form), status=400)


@role_required(*ACTORS)
@require_POST
def case_notice_void(request, pk, doc):
    case = _case(request, pk)
    document = _document(case, doc)
    form = VoidForm(request.POST)
    if form.is_valid():
        try:
            svc.case_notice_void(
                document=document, actor=request.user, reason=form.cleaned_data["reason"]
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Notice voided; issue a corrected one."))
            return redirect("impound:case_notices", case.pk)
    return _page(request, case, bound=("void", document.pk, form), status=400)


urlpatterns = [
    path("cases/<int:pk>/notices/", case_notices, name="case_notices"),
    path("cases/<int:pk>/notices/letter/", case_notice_letter, name="case_notice_letter"),
    path("cases/<int:pk>/notices/posted/", case_notice_posted, name="case_notice_posted"),
    path("cases/<int:pk>/notices/attempt/", case_notice_attempt, name="case_notice_attempt"),
    path(
        "cases/<int:pk>/notices/<int:doc>/served/",
        case_notice_served,
        name="case_notice_served",
    ),
    path(
        "cases/<int:pk>/notices/<int:doc>/posting/",
        case_notice_posting,
        name="case_notice_posting",
    ),
    path("cases/<int:pk>/notices/<int:doc>/void/", case_notice_void, name="case_notice_void"),
]
