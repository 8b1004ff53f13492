"""Exposure to a rabid animal (Glencoe 701 Subd. 1(L), 22; rules.md RAB-25..30, RAB-33, B5).

Thin views: the role first (a wrong role gets 403), the record within the user's cities
(404 otherwise), the form, the service, and on a refusal the form again with each reason
next to its field (status 400). The exposure page's section shows the rabid animal, the
path, the Board report, the period and the next step's form.
"""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l
from django.views.decorators.http import require_http_methods, require_POST

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.roles import STAFF_ROLES
from licensing.models import Animal
from licensing.services.vaccination import vaccination_status
from ordinance.refusals import Refused
from ordinance.rules import rule_citation
from rabies.forms import exposures as f
from rabies.models import (
    BiteReport,
    ExposurePath,
    RabidBasis,
    VictimKind,
)
from rabies.services import exposures as svc
from rabies.services.common import has_exposure_rules

from .pages import ACTING_ROLES, exposure_for_detail


def _exposure(request, pk):
    return exposure_for_detail(request.user, pk)


# --- Opening ----------------------------------------------------------------------------


def _bite_for(request, animal):
    pk = request.GET.get("bite") or request.POST.get("bite")
    if not pk or not str(pk).isdigit():
        return None
    bite = get_in_jurisdiction(BiteReport.objects.all(), request.user, pk=int(pk))
    if bite.victim_kind != VictimKind.ANIMAL or bite.victim_animal_id != animal.pk:
        raise Http404
    return bite


@role_required(*ACTING_ROLES)
@require_http_methods(["GET", "POST"])
def exposure_open(request, animal_pk):
    animal = get_in_jurisdiction(
        Animal.objects.select_related("owner", "jurisdiction"), request.user, pk=animal_pk
    )
    jurisdiction = animal.jurisdiction
    today = timezone.localdate()
    if not has_exposure_rules(jurisdiction, on=today):
        message, citation = svc.no_rule_sentence(jurisdiction)
        return render(
            request,
            "rabies/exposures/open.html",
            {"animal": animal, "no_rule": message, "no_rule_citation": citation},
        )
    bite = _bite_for(request, animal)
    deemed = svc.deemed_species(jurisdiction, on=today)
    initial = {"exposed_on": today}
    if bite is not None:
        initial["exposed_on"] = timezone.localtime(bite.bitten_at).date()
        initial["how_exposed"] = bite.injuries or bite.bitten_where
        species = (bite.biter_species or "").strip().lower()
        if species:
            initial["rabid_species"] = species
        if species in deemed.value and animal.species in svc.DOG_CAT:
            initial["rabid_basis"] = RabidBasis.DEEMED
    form = f.ExposureOpenForm(request.POST or None, initial=initial, deemed=deemed.value)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                exposure = svc.exposure_open(
                    animal=animal, actor=request.user, bite_report=bite, **form.cleaned_data
                )
            except Refused as exc:
                apply_service_errors(form, exc)
            else:
                messages.success(
                    request, _("Exposure case opened; the report to the Board is issued.")
                )
                return redirect(exposure)
    return render(
        request,
        "rabies/exposures/open.html",
        {
            "animal": animal,
            "form": form,
            "bite": bite,
            "deemed": deemed,
            "vaccination": vaccination_status(animal, on=today),
        },
        status=status,
    )


# --- One step of the case ---------------------------------------------------------------

# name → (form, service, title, success message)
STEPS = {
    "board_sent": (
        f.BoardSentForm,
        svc.board_report_sent,
        _l("Record the sending of the Board report"),
        _l("The sending of the Board report is recorded."),
    ),
    "revaccinate": (
        f.RevaccinateForm,
        svc.exposure_revaccinate,
        _l("Record the revaccination"),
        _l("Revaccination recorded; the period is counted."),
    ),
    "consent": (
        f.ConsentForm,
        svc.exposure_consent,
        _l("Record the owner's consent or refusal"),
        _l("The owner's answer is recorded."),
    ),
    "determine": (
        f.DetermineForm,
        svc.exposure_determine,
        _l("Record the veterinarian's determination of exposure"),
        _l("The determination is recorded."),
    ),
    "dispose": (
        f.DisposeForm,
        svc.exposure_dispose,
        _l("Record the disposition"),
        _l("The disposition is recorded."),
    ),
    "prerelease": (
        f.PrereleaseVaccinationForm,
        svc.exposure_prerelease_vaccination,
        _l("Record the vaccination before release"),
        _l("The vaccination is recorded; the earliest release is counted again."),
    ),
    "release_report": (
        f.ReleaseReportForm,
        svc.exposure_release_report,
        _l("Record the veterinarian's release report"),
        _l("The release report is recorded."),
    ),
    "release": (
        f.ReleaseForm,
        svc.exposure_release,
        _l("Release or close"),
        _l("Released."),
    ),
    "noncompliance": (
        f.NoncomplianceForm,
        svc.exposure_noncompliance,
        _l("Record non-compliance and open the Hearing Examiner proceeding"),
        _l("Non-compliance recorded; the Hearing Examiner proceeding is open."),
    ),
    "hearing_waive": (
        f.WaiverForm,
        svc.exposure_hearing_waived,
        _l("Record the owner's waiver of the hearing"),
        _l("The waiver is recorded."),
    ),
    "hearing_decide": (
        f.DecisionForm,
        svc.exposure_hearing_decide,
        _l("Record the Hearing Examiner's decision"),
        _l("The decision is recorded."),
    ),
}


def _step(request, pk, name):
    exposure = _exposure(request, pk)
    form_class, service, title, done = STEPS[name]
    form = form_class(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                service(exposure=exposure, actor=request.user, **form.cleaned_data)
            except Refused as exc:
                apply_service_errors(form, exc)
            else:
                messages.success(request, str(done))
                return redirect(exposure)
    return render(
        request,
        "rabies/exposures/step.html",
        {
            "record": exposure,
            "form": form,
            "title": title,
            "today": timezone.localdate(),
            "blockers": svc.release_blockers(exposure, on=timezone.localdate())
            if name == "release"
            else (),
        },
        status=status,
    )


def _step_view(name):
    @role_required(*ACTING_ROLES)
    @require_http_methods(["GET", "POST"])
    def view(request, pk):
        return _step(request, pk, name)

    view.__name__ = f"exposure_{name}"
    return view


@role_required(*STAFF_ROLES)
def exposure_board_report(request, pk):
    """The Board report (RAB-30, C46): its PDF, and whether and how it was sent."""
    exposure = _exposure(request, pk)
    return render(
        request,
        "rabies/exposures/board_report.html",
        {
            "record": exposure,
            "citation": rule_citation(exposure.jurisdiction, "RAB-30"),
            "form": f.BoardSentForm(initial={"sent_on": timezone.localdate()}),
            "may_act": request.user.has_role(*ACTING_ROLES),
        },
    )


@role_required(*ACTING_ROLES)
@require_POST
def exposure_consent_form(request, pk):
    """Issue the consent or refusal form (C48) for the owner to sign; opens its PDF."""
    exposure = _exposure(request, pk)
    try:
        document = svc.consent_form_issue(exposure=exposure, actor=request.user)
    except Refused as exc:
        messages.error(request, str(exc))
        return redirect(exposure)
    return redirect("notices:document_pdf", pk=document.pk)


# --- The section of the exposure page ---------------------------------------------------


# The transition each path's first step leads to (the others quarantine or euthanize).
FIRST_TRANSITION = {
    ExposurePath.VACCINATED_DOG_CAT: "observe",
    ExposurePath.VACCINATED_OTHER: "enclose",
}


def _next_steps(exposure) -> list[str]:
    """The steps the case's path and its transitions allow now."""
    p = exposure.path
    steps = []
    if exposure.may(FIRST_TRANSITION.get(p, "quarantine")):
        if p in svc.VACCINATED:
            steps.append("revaccinate")
        elif p == ExposurePath.UNVACCINATED_DOG_CAT:
            steps.append("consent")
        elif not exposure.determined_on:
            steps.append("determine")
        else:
            steps.append("dispose")
    if exposure.may("release"):
        if p == ExposurePath.UNVACCINATED_DOG_CAT and not exposure.prerelease_vaccinated_on:
            steps.append("prerelease")
        steps.append("release_report")
        steps.append("release")
        if p in svc.UNVACCINATED and exposure.may("noncompliance"):
            steps.append("noncompliance")
    if exposure.may("continue"):
        steps += ["hearing_waive", "hearing_decide"]
    return steps


def exposure_section(request, *, record):
    today = timezone.localdate()
    may_act = request.user.has_role(*ACTING_ROLES) and record.is_open
    steps = _next_steps(record) if may_act else []
    hearings = list(record.hearings.select_related("notice", "decision").order_by("pk"))
    report_needed, report_citation = (
        svc.release_report_required(record, on=today) if record.may("release") else (False, "")
    )
    forms = [
        (
            name,
            STEPS[name][2],
            reverse(f"rabies:exposure_{name}", args=[record.pk]),
            STEPS[name][0](),
        )
        for name in steps
    ]
    return "rabies/exposures/_case.html", {
        "record": record,
        "today": today,
        "may_act": may_act,
        "forms": forms,
        "hearings": hearings,
        "report_needed": report_needed,
        "report_citation": report_citation,
        "vaccinate_by": svc.vaccinate_by(record),
        "may_issue_consent_form": may_act and "consent" in steps,
    }


urlpatterns = [
    path("animals/<int:animal_pk>/exposure/", exposure_open, name="exposure_open"),
    path("exposures/<int:pk>/board-report/", exposure_board_report, name="exposure_board_report"),
    path("exposures/<int:pk>/consent-form/", exposure_consent_form, name="exposure_consent_form"),
    *[
        path(
            f"exposures/<int:pk>/{name.replace('_', '-')}/",
            _step_view(name),
            name=f"exposure_{name}",
        )
        for name in STEPS
    ],
]
SECTIONS = [("rabies.exposure_detail", "exposure", exposure_section, 70)]
