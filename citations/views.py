"""Citation pages for staff: the list, issuing one, its page with status changes.

Thin views: the role first (a resident always gets 403), the citation within the user's
cities (404 otherwise), one service call, render; a ``Refused`` goes next to its field.
The PDF is the archived document (notices:document_pdf), never rendered again.
"""

from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, CLERK, OFFICER, STAFF_ROLES
from citations.filters import CitationFilter
from citations.forms import IssueForm, StatusForm
from citations.models import Citation
from citations.services.issuance import citation_document, issue_citation
from citations.services.status import citation_status_change
from citations.services.violations import propose_for
from licensing.selectors import MIN_QUERY_LENGTH, registry_search
from ordinance.refusals import Refused

# Officers cite in the field; the clerk enters a citation written on paper.
ISSUE_ROLES = (OFFICER, CLERK, ADMINISTRATOR)
# Records a citation may be written from ("app_label.model"), named here as strings: the
# apps above this one link to it, and this app never imports them (pyproject layers).
SOURCE_MODELS = ("complaints.complaint",)
STATUS_ROLES = STAFF_ROLES
PAGE_SIZE = 25


def _multi_city(user) -> bool:
    return len(user.jurisdiction_ids) > 1


@role_required(*STAFF_ROLES)
def citation_list(request):
    """The user's cities' citations, filterable by status and charge class."""
    queryset = Citation.objects.for_user(request.user).select_related("jurisdiction")
    filterset = CitationFilter(request.GET or None, queryset=queryset, user=request.user)
    page = Paginator(filterset.qs, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "citations/list.html",
        {
            "filter": filterset,
            "page": page,
            "citations": page.object_list,
            "querystring": query.urlencode(),
            "show_city": _multi_city(request.user),
            "may_issue": request.user.has_role(*ISSUE_ROLES),
            "today": timezone.localdate(),
        },
    )


# What the proposal is computed from; the rest of the form may still be blank.
PROPOSAL_FIELDS = ("jurisdiction", "violation_code", "animal", "violated_at")


def _proposal(form):
    """The class the software would propose for the form's input, or None (RES-06)."""
    form.is_valid()
    data = form.cleaned_data
    if any(data.get(name) is None or name in form.errors for name in PROPOSAL_FIELDS):
        return None
    try:
        code, proposal = propose_for(
            jurisdiction=data["jurisdiction"],
            violation=data["violation_code"],
            violated_at=data["violated_at"],
            animal=data["animal"],
        )
    except Refused as exc:
        apply_service_errors(form, exc)
        return None
    return {"code": code, "proposal": proposal}


def _source(request):
    """The record the citation is written from (``?source=complaints.complaint:12``), in
    one of the user's cities, or None; anything else named is a 404."""
    raw = request.GET.get("source") or request.POST.get("source") or ""
    if not raw:
        return None
    label, _sep, pk = raw.partition(":")
    if label not in SOURCE_MODELS or not pk.isdigit() or len(pk) > 18:
        raise Http404
    app_label, model = label.split(".")
    try:
        kind = ContentType.objects.get_by_natural_key(app_label, model)
    except ContentType.DoesNotExist as exc:
        raise Http404 from exc
    return get_in_jurisdiction(kind.model_class().objects.all(), request.user, pk=int(pk))


def _from_source(source) -> dict:
    """What the citation form starts from when written from a record: its animal, when
    and where it happened."""
    initial = {"jurisdiction": source.jurisdiction_id}  # the record's city
    if getattr(source, "animal_id", None):
        initial["animal"] = source.animal_id
    if getattr(source, "occurred_at", None):
        initial["violated_at"] = timezone.localtime(source.occurred_at).replace(
            second=0, microsecond=0
        )
    if getattr(source, "address_line", ""):
        initial["location"] = source.address_line
    return initial


@role_required(*ISSUE_ROLES)
def citation_issue(request):
    """One screen: find the animal (GET ``q``), "Show the proposal" re-renders with the
    prior violations counted and the class proposed, "Issue" calls ``issue_citation``."""
    query = (request.GET.get("q") or request.POST.get("q") or "").strip()
    source = _source(request)
    hits = registry_search(user=request.user, query=query)
    proposing = request.method == "POST" and "propose" in request.POST
    if request.method == "POST":
        data = request.POST.copy()
        form = IssueForm(data, user=request.user, hits=hits)
    else:
        initial = {"animal": request.GET.get("animal")}
        if source is not None:
            initial.update(_from_source(source))
        form = IssueForm(user=request.user, hits=hits, initial=initial)
    if not form.cities:
        raise Http404
    found = None
    if request.method == "POST":
        found = _proposal(form)
        if proposing and found is not None and not data.get("charge_class"):
            data["charge_class"] = found["proposal"].charge_class
            form = IssueForm(data, user=request.user, hits=hits)
            form.is_valid()
        if proposing:  # only what the proposal needs is checked yet
            for name in [n for n in form.errors if n not in PROPOSAL_FIELDS]:
                del form.errors[name]
    if request.method == "POST" and not proposing and form.is_valid():
        try:
            citation = issue_citation(
                actor=request.user,
                source=source,
                source_label=str(source) if source is not None else "",
                **form.service_kwargs(),
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(
                request,
                _("Citation %(n)s issued: %(cls)s (%(section)s); appearance %(d)s.")
                % {
                    "n": citation.number,
                    "cls": citation.get_charge_class_display(),
                    "section": citation.charge_class_citation,
                    "d": date_format(citation.appearance_on),
                },
            )
            return redirect(citation)
    return render(
        request,
        "citations/issue.html",
        {
            "form": form,
            "q": query,
            "hits": hits,
            "searched": bool(query),
            "min_length": MIN_QUERY_LENGTH,
            "found": found,
            "source": source,
            "source_param": request.GET.get("source") or request.POST.get("source") or "",
        },
    )


def _citation_for(user, pk):
    return get_in_jurisdiction(
        Citation.objects.select_related(
            "jurisdiction", "owner", "animal", "officer", "status_changed_by"
        ),
        user,
        pk=pk,
    )


def _detail(request, citation, form=None, status=200):
    history = list(
        citation.history.select_related("history_user", "status_changed_by").order_by(
            "history_date", "history_id"
        )
    )
    may_change = request.user.has_role(*STATUS_ROLES) and bool(citation.next_statuses())
    if form is None and may_change:
        form = StatusForm(citation=citation)
    return render(
        request,
        "citations/detail.html",
        {
            "citation": citation,
            "document": citation_document(citation),
            "history": history,
            "form": form,
            "show_city": _multi_city(request.user),
        },
        status=status,
    )


@role_required(*STAFF_ROLES)
def citation_detail(request, pk):
    return _detail(request, _citation_for(request.user, pk))


@role_required(*STATUS_ROLES)
@require_POST
def citation_status(request, pk):
    """POST: record a status change (paid, contested, dismissed, adjudicated)."""
    citation = _citation_for(request.user, pk)
    form = StatusForm(request.POST, citation=citation)
    if form.is_valid():
        try:
            citation_status_change(
                citation=citation,
                status=form.cleaned_data["status"],
                on=form.cleaned_data["on"],
                note=form.cleaned_data["note"],
                actor=request.user,
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Status recorded."))
            return redirect(citation)
    return _detail(request, citation, form=form, status=200)


urlpatterns = [
    path("", citation_list, name="list"),
    path("issue/", citation_issue, name="issue"),
    path("<int:pk>/", citation_detail, name="detail"),
    path("<int:pk>/status/", citation_status, name="status"),
]
