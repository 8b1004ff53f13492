"""Complaint pages for staff: intake (one phone screen), the list, the complaint page with
the facts and the system's reading, entries onto premises, the outcome.

Thin views: the role first (a wrong role always gets 403; residents never reach these
pages), the complaint within the user's cities (404 otherwise), one service call,
render; a ``Refused`` goes next to its field with its section.
"""

from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, CLERK, OFFICER, STAFF_ROLES
from citations.models import Citation
from citations.views import ISSUE_ROLES
from ordinance.models import Event
from ordinance.refusals import Refused

from . import services
from .forms import EntryForm, IntakeForm, ListFilter, OutcomeForm, facts_form_class
from .models import AT_LARGE_KINDS, Complaint, Outcome
from .readings import READERS, rulebook
from .seizure_views import seizure_section

INTAKE_ROLES = (CLERK, OFFICER, ADMINISTRATOR)
OFFICER_ROLES = (OFFICER, ADMINISTRATOR)
PAGE_SIZE = 25
TOPICS = services.TOPICS


def _multi_city(user) -> bool:
    return len(user.jurisdiction_ids) > 1


@role_required(*INTAKE_ROLES)
def intake(request):
    """One screen on a phone. "Check the address" shows earlier complaints there and the
    registry's animals; "Record the complaint" calls ``complaint_intake``."""
    checking = request.method == "POST" and "check_address" in request.POST
    channel = services.channel_for(request.user)
    if request.method == "POST":
        form = IntakeForm(request.POST, user=request.user, channel=channel)
    else:
        form = IntakeForm(user=request.user, channel=channel)
    if not form.cities:
        raise Http404
    if request.method == "POST" and not checking and form.is_valid():
        try:
            complaint = services.complaint_intake(
                jurisdiction=form.cleaned_data["jurisdiction"],
                actor=request.user,
                **form.service_kwargs(),
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Complaint %(pk)s recorded.") % {"pk": complaint.pk})
            return redirect(complaint)
    repeats = []
    if request.method == "POST":
        repeats = list(
            services.repeat_addresses(
                request.user, request.POST.get("address_line", ""), request.POST.get("unit", "")
            )[:PAGE_SIZE]
        )
    return render(
        request,
        "complaints/intake.html",
        {
            "form": form,
            "repeats": repeats,
            "checked": request.method == "POST",
            "show_city": _multi_city(request.user),
        },
    )


@role_required(*STAFF_ROLES)
def complaint_list(request):
    """The user's cities' complaints, filtered by kind and status."""
    filters = ListFilter(request.GET or None)
    found = Complaint.objects.for_user(request.user).select_related("jurisdiction")
    if filters.is_valid():
        if filters.cleaned_data["kind"]:
            found = found.filter(kind=filters.cleaned_data["kind"])
        if filters.cleaned_data["status"]:
            found = found.filter(status=filters.cleaned_data["status"])
        if filters.cleaned_data["animal"]:
            found = found.filter(animal_id=filters.cleaned_data["animal"])
    page = Paginator(found.order_by("-received_at", "-pk"), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "complaints/list.html",
        {
            "filters": filters,
            "page": page,
            "complaints": page.object_list,
            "show_city": _multi_city(request.user),
            "may_intake": request.user.has_role(*INTAKE_ROLES),
            "querystring": query.urlencode(),
        },
    )


def _complaint(user, pk):
    return get_in_jurisdiction(
        Complaint.objects.select_related(
            "jurisdiction",
            "premises",
            "animal",
            "owner",
            "taken_by",
            "outcome_by",
            "impound_case",
            "restraint_facts",
            "barking_facts",
            "litter_facts",
        ),
        user,
        pk=pk,
    )


def _facts(complaint, topic):
    try:
        return getattr(complaint, topic)
    except Complaint._meta.get_field(topic).related_model.DoesNotExist:
        return None


def _reading(complaint, topic, facts):
    if facts is None:
        return None
    # The ordinance in force when it happened, not when the facts were typed in.
    book = rulebook(complaint.jurisdiction, on=timezone.localdate(complaint.occurred_at))
    return READERS[topic](facts, book)


@role_required(*STAFF_ROLES)
def complaint_detail(request, pk):
    complaint = _complaint(request.user, pk)
    topic = TOPICS.get(complaint.kind)
    facts = _facts(complaint, topic) if topic else None
    events = Event.objects.for_object(complaint).select_related("actor").order_by("at", "pk")
    earlier = services.earlier_at_address(complaint)
    citations = Citation.objects.filter(
        source_type=ContentType.objects.get_for_model(Complaint), source_id=complaint.pk
    ).order_by("issued_at", "pk")
    return render(
        request,
        "complaints/detail.html",
        {
            "complaint": complaint,
            "topic": topic,
            "facts": facts,
            "fact_rows": _fact_rows(facts),
            "reading": _reading(complaint, topic, facts),
            "entries": list(complaint.entries.select_related("officer")),
            "earlier": list(earlier[:PAGE_SIZE]),
            "events": list(events),
            "show_city": _multi_city(request.user),
            "may_act": request.user.has_role(*OFFICER_ROLES) and complaint.is_open,
            "may_follow_up": request.user.has_role(*OFFICER_ROLES),
            "at_large": complaint.kind in AT_LARGE_KINDS,
            # Citations written from this complaint, and the link that
            # writes one once the officer's outcome is a citation.
            "citations": list(citations),
            "may_cite": complaint.outcome == Outcome.CITATION
            and request.user.has_role(*ISSUE_ROLES),
            "source_param": f"complaints.complaint:{complaint.pk}",
            # The barking-dog seizure (Glencoe 701 Subd. 5), or the city's lack of one.
            **seizure_section(complaint, request.user),
        },
    )


def _fact_rows(facts):
    if facts is None:
        return []
    skip = {"id", "complaint", "recorded_by", "recorded_at"}
    rows = []
    for field in facts._meta.fields:
        if field.name in skip:
            continue
        display = getattr(facts, f"get_{field.name}_display", None)
        value = display() if display else getattr(facts, field.name)
        if value is True:
            value = _("yes")
        elif value is False:
            value = _("no")
        elif value is None:
            value = "—"
        rows.append((field.verbose_name, value))
    return rows


@role_required(*OFFICER_ROLES)
def facts_record(request, pk):
    complaint = _complaint(request.user, pk)
    topic = TOPICS.get(complaint.kind)
    if topic is None:
        raise Http404
    form_class = facts_form_class(topic)
    instance = _facts(complaint, topic)
    form = form_class(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in form.Meta.fields}
        try:
            services.facts_record(complaint=complaint, actor=request.user, topic=topic, **fields)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Facts recorded."))
            return redirect(complaint)
    return render(
        request, "complaints/form.html", {"complaint": complaint, "form": form, "title": _("Facts")}
    )


@role_required(*OFFICER_ROLES)
def entry_record(request, pk):
    complaint = _complaint(request.user, pk)
    form = EntryForm(request.POST or None, complaint=complaint)
    if request.method == "POST" and form.is_valid():
        try:
            services.entry_record(complaint=complaint, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Entry recorded."))
            return redirect(complaint)
    return render(
        request,
        "complaints/form.html",
        {"complaint": complaint, "form": form, "title": _("Entry or inspection")},
    )


@role_required(*OFFICER_ROLES)
def outcome_record(request, pk):
    complaint = _complaint(request.user, pk)
    rule = services.outcome_rule(complaint, on=timezone.localdate())
    form = OutcomeForm(request.POST or None, complaint=complaint, rule=rule)
    if request.method == "POST" and form.is_valid():
        try:
            services.record_outcome(complaint=complaint, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Outcome recorded."))
            return redirect(complaint)
    return render(
        request,
        "complaints/form.html",
        {"complaint": complaint, "form": form, "title": _("Outcome"), "rule": rule},
    )


app_name = "complaints"

urlpatterns = [
    path("", complaint_list, name="list"),
    path("new/", intake, name="intake"),
    path("<int:pk>/", complaint_detail, name="detail"),
    path("<int:pk>/facts/", facts_record, name="facts"),
    path("<int:pk>/entry/", entry_record, name="entry"),
    path("<int:pk>/outcome/", outcome_record, name="outcome"),
]
