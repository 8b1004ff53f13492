"""Bite reports: the report form (C39, C40), the requests for proof of
vaccination and insurance (RAB-09), and the decision other than confinement (NB Sec.
6-96(6); GL 701 Subd. 21(C)), with the laboratory's result.

Thin views: the role first (403), the record within the user's cities (404), the form,
the service; a refusal goes back next to its field with status 400, nothing lost.
"""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from base.access import get_in_jurisdiction, in_user_cities, role_required
from base.forms import apply_service_errors
from licensing.models import Animal
from licensing.selectors import registry_search
from ordinance.refusals import Refused
from rabies.forms.bites import (
    BiteDecisionForm,
    BiteReportForm,
    DocumentReceivedForm,
    DocumentRequestForm,
    HearingDecideForm,
    HearingWaiverForm,
    LabResultForm,
    LabSubmitForm,
)
from rabies.models import (
    BiteDecision,
    BiterKind,
    LabResult,
    ReporterKind,
    SalivaExposure,
    VictimKind,
)
from rabies.services import hearings
from rabies.services.bites import (
    bite_decide,
    bite_hearing_decide,
    bite_report_record,
    decisions_offered,
    document_request_log,
    document_request_received,
    hearing_awaits_submission,
    meets_suspect_definition,
)
from rabies.services.common import city_rule
from rabies.services.testing import default_laboratory, lab_result_record, lab_submit

from .pages import ACTING_ROLES, bite_for_detail, multi_city


def _url_or_none(name, *args):
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


# --- Sections of the bite page -----------------------------------------------------------


def report_section(request, *, record):
    bite = record
    day = timezone.localtime(bite.bitten_at).date()
    definition = city_rule(bite.jurisdiction, "rabies_suspect_definition", on=day)
    return "rabies/bites/_report.html", {
        "bite": bite,
        "definition": definition,
        "meets_definition": definition is not None and meets_suspect_definition(bite),
    }


def documents_section(request, *, record):
    may_act = request.user.has_role(*ACTING_ROLES)
    today = timezone.localdate()
    return "rabies/bites/_documents.html", {
        "bite": record,
        "requests": list(record.document_requests.all()),
        "may_act": may_act,
        "request_form": DocumentRequestForm(initial={"requested_on": today}) if may_act else None,
        "received_form": DocumentReceivedForm(initial={"received_on": today}) if may_act else None,
    }


def decision_section(request, *, record):
    bite = record
    may_act = request.user.has_role(*ACTING_ROLES)
    today = timezone.localdate()
    day = timezone.localtime(bite.bitten_at).date()
    # Read only what the decision can have made (the page's query budget).
    heard = bite.decision == BiteDecision.HEARING
    hearing_list = list(bite.hearings.select_related("notice", "decision")) if heard else []
    hearing = hearing_list[-1] if hearing_list else None
    tested = heard or bite.decision == BiteDecision.DESTROY_FOR_TESTING
    submissions = list(bite.lab_submissions.all()) if tested else []
    context = {
        "bite": bite,
        "may_act": may_act,
        "hearing": hearing,
        "submissions": submissions,
        "open": bite.awaits_decision,
    }
    lab, lab_citation = default_laboratory(bite.jurisdiction, on=day)
    context["laboratory"], context["laboratory_citation"] = lab, lab_citation
    if bite.awaits_decision:
        offers = decisions_offered(bite, on=day)
        context["offers"] = offers
        context["confine_url"] = _url_or_none("rabies:quarantine_order", bite.pk)
        if may_act and any(o.offered for o in offers):
            context["decision_form"] = BiteDecisionForm(
                offers=offers,
                initial={"destroyed_on": today, "submitted_on": today, "laboratory": lab},
            )
    if may_act and hearing is not None and bite.may("release"):
        if not hearing.decided:
            if not (hearing.waived_on or hearing.held_on) and hearing.owner_known:
                context["waiver_form"] = HearingWaiverForm(initial={"waived_on": today})
            context["hearing_form"] = HearingDecideForm(initial={"decided_on": today})
        elif hearing_awaits_submission(bite, hearing):
            context["submit_form"] = LabSubmitForm(
                initial={"destroyed_on": today, "submitted_on": today, "laboratory": lab}
            )
    pending = [s for s in submissions if s.result == LabResult.PENDING]
    if may_act and pending and bite.may("result"):
        context["pending"] = pending[-1]
        context["result_form"] = LabResultForm(initial={"result_on": today})
    return "rabies/bites/_decision.html", context


# --- The report form ---------------------------------------------------------------------


def _preset_animal(request):
    pk = request.GET.get("animal", "")
    if not pk.isdigit():
        return None
    return get_in_jurisdiction(
        Animal.objects.select_related("owner", "jurisdiction"), request.user, pk=int(pk)
    )


@role_required(*ACTING_ROLES)
@require_http_methods(["GET", "POST"])
def bite_report(request):
    user = request.user
    cities = list(user.served_list)
    preset = _preset_animal(request)
    now = timezone.localtime()
    initial = {
        "reporter_kind": ReporterKind.OWNER if preset else ReporterKind.VICTIM,
        "reported_at": now.replace(second=0, microsecond=0),
        "victim_kind": VictimKind.PERSON,
        "saliva_exposure": SalivaExposure.UNKNOWN,
        "biter_kind": BiterKind.REGISTERED if preset else BiterKind.STRAY,
    }
    if preset:
        initial["animal"] = preset.pk
    form = BiteReportForm(
        request.POST or None, initial=initial, jurisdictions=None if preset else cities
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = dict(form.cleaned_data)
            jurisdiction = data.pop("jurisdiction", None)
            try:
                jurisdiction = _city_of(user, data, jurisdiction, preset, cities)
                bite = bite_report_record(jurisdiction=jurisdiction, actor=user, **data)
            except Refused as exc:
                apply_service_errors(form, exc)
            else:
                messages.success(request, _("Bite report %(n)s recorded.") % {"n": bite.number})
                return redirect(bite)
        status = 400
    query = request.GET.get("q", "").strip()
    hits = registry_search(user=user, query=query, limit=10) if query else []
    return render(
        request,
        "rabies/bites/report.html",
        {
            "form": form,
            "preset": preset,
            "query": query,
            "hits": hits,
            "show_city": multi_city(user),
        },
        status=status,
    )


def _city_of(user, data, chosen, preset, cities):
    """The city of the report: the registered animal's, else the one chosen, else the
    user's only city."""
    if preset is not None:
        return preset.jurisdiction
    if data.get("biter_kind") == BiterKind.REGISTERED and data.get("animal"):
        animal = (
            in_user_cities(Animal.objects.select_related("jurisdiction"), user)
            .filter(pk=data["animal"])
            .first()
        )
        if animal is None:
            raise Refused.because(
                _("Biting animal"),
                _("No animal with this ID is registered in your cities."),
                field="animal",
            )
        return animal.jurisdiction
    if chosen is not None:
        return chosen
    if len(cities) == 1:
        return cities[0]
    raise Refused.because(_("City"), _("Choose the city."), field="jurisdiction")


# --- Acting on a bite --------------------------------------------------------------------


def _action_page(request, bite, form, title, action_url, status=400):
    return render(
        request,
        "rabies/bites/action.html",
        {"bite": bite, "form": form, "title": title, "action_url": action_url},
        status=status,
    )


def _act(request, bite, form, title, call, success):
    """Validate, call the service, redirect to the bite; else the form with its errors."""
    if form.is_valid():
        try:
            call(form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, success)
            return redirect("rabies:bite_detail", pk=bite.pk)
    return _action_page(request, bite, form, title, request.path)


@role_required(*ACTING_ROLES)
@require_POST
def bite_document_request(request, pk):
    bite = bite_for_detail(request.user, pk)
    form = DocumentRequestForm(request.POST)
    return _act(
        request,
        bite,
        form,
        _("Request written proof"),
        lambda d: document_request_log(bite, actor=request.user, **d),
        _("The request is logged."),
    )


@role_required(*ACTING_ROLES)
@require_POST
def bite_document_received(request, pk, doc):
    bite = bite_for_detail(request.user, pk)
    document = get_object_or_404(bite.document_requests, pk=doc)
    form = DocumentReceivedForm(request.POST, request.FILES)
    return _act(
        request,
        bite,
        form,
        _("Document received"),
        lambda d: document_request_received(document, actor=request.user, **d),
        _("The document is recorded as received."),
    )


@role_required(*ACTING_ROLES)
@require_POST
def bite_decide_view(request, pk):
    bite = bite_for_detail(request.user, pk)
    offers = decisions_offered(bite) if bite.awaits_decision else []
    form = BiteDecisionForm(request.POST, offers=offers)

    def call(d):
        bite_decide(
            bite,
            d.pop("decision"),
            d.pop("reasons"),
            request.user,
            **d,
        )

    return _act(request, bite, form, _("The decision"), call, _("The decision is recorded."))


@role_required(*ACTING_ROLES)
@require_POST
def bite_hearing_waived(request, pk):
    bite = bite_for_detail(request.user, pk)
    form = HearingWaiverForm(request.POST, request.FILES)

    def call(d):
        hearing = bite.hearings.order_by("-pk").first()
        if hearing is None:
            raise Refused.because(_("Hearing"), _("No Hearing Examiner proceeding is open."))
        hearings.hearing_waived(hearing=hearing, actor=request.user, **d)

    return _act(request, bite, form, _("The owner's waiver"), call, _("The waiver is recorded."))


@role_required(*ACTING_ROLES)
@require_POST
def bite_hearing_decide_view(request, pk):
    bite = bite_for_detail(request.user, pk)
    form = HearingDecideForm(request.POST)
    return _act(
        request,
        bite,
        form,
        _("The Hearing Examiner's decision"),
        lambda d: bite_hearing_decide(bite, actor=request.user, **d),
        _("The Hearing Examiner's decision is recorded."),
    )


@role_required(*ACTING_ROLES)
@require_POST
def bite_lab_submit(request, pk):
    bite = bite_for_detail(request.user, pk)
    form = LabSubmitForm(request.POST)
    return _act(
        request,
        bite,
        form,
        _("Laboratory submission"),
        lambda d: lab_submit(bite, actor=request.user, **d),
        _("The laboratory submission is recorded."),
    )


@role_required(*ACTING_ROLES)
@require_POST
def bite_lab_result(request, pk):
    bite = bite_for_detail(request.user, pk)
    submission = get_object_or_404(
        bite.lab_submissions.filter(result=LabResult.PENDING).order_by("-pk")[:1]
    )
    form = LabResultForm(request.POST, request.FILES)
    return _act(
        request,
        bite,
        form,
        _("Laboratory result"),
        lambda d: lab_result_record(submission, actor=request.user, **d),
        _("The laboratory result is recorded; the report is closed."),
    )


urlpatterns = [
    path("bites/new/", bite_report, name="bite_report"),
    path("bites/<int:pk>/documents/", bite_document_request, name="bite_document_request"),
    path(
        "bites/<int:pk>/documents/<int:doc>/received/",
        bite_document_received,
        name="bite_document_received",
    ),
    path("bites/<int:pk>/decide/", bite_decide_view, name="bite_decide"),
    path("bites/<int:pk>/hearing/waived/", bite_hearing_waived, name="bite_hearing_waived"),
    path("bites/<int:pk>/hearing/decide/", bite_hearing_decide_view, name="bite_hearing_decide"),
    path("bites/<int:pk>/laboratory/", bite_lab_submit, name="bite_lab_submit"),
    path("bites/<int:pk>/laboratory/result/", bite_lab_result, name="bite_lab_result"),
]
SECTIONS = [
    ("rabies.bite_detail", "report", report_section, 10),
    ("rabies.bite_detail", "documents", documents_section, 20),
    ("rabies.bite_detail", "decision", decision_section, 30),
]
