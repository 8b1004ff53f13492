"""The resident's online application: apply (renewal or new license), see it, fix a
returned one without retyping, withdraw it; and the certificate file behind an access
check.

Every lookup filters on ``Owner.user == request.user`` (another resident's ids are a
404; staff get 403 from the role check). The checks and fee lines are the counter's own
(``license_assess`` with the application date today: NB Sec. 6-65(c), LIC-13); the
services in ``licensing.services.applications`` decide, the views only show.
"""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.access import role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, CLERK, RESIDENT
from base.uploads import upload_response
from licensing.forms.online import ApplicationForm
from licensing.models import Animal, OnlineApplication
from licensing.services import applications as svc
from licensing.services.assessment import license_assess
from licensing.services.documents import documents_for
from ordinance.refusals import Refused


def _own_animal(user, pk) -> Animal:
    animal = (
        Animal.objects.filter(pk=pk, owner__user=user)
        .select_related("owner", "jurisdiction", "premises")
        .first()
    )
    if animal is None:
        raise Http404
    return animal


def _own_application(user, pk) -> OnlineApplication:
    application = (
        OnlineApplication.objects.filter(pk=pk, owner__user=user)
        .select_related(
            "animal__jurisdiction",
            "animal__premises",
            "owner",
            "jurisdiction",
            "license",
            "license__receipt",
            "vaccination",
            "uses_vaccination",
        )
        .first()
    )
    if application is None:
        raise Http404
    return application


def _assessment(animal, *, on, applied_on=None, vaccination=None):
    return license_assess(
        animal=animal,
        owner=animal.owner,
        on=on,
        applied_on=applied_on or on,
        vaccination=vaccination,
    )


def _on_file(assessment):
    """The vaccination on file, offered only when the rabies check finds it covers the
    term (LIC-05); else None and the resident uploads a certificate."""
    return assessment.vaccination if assessment.enabled else None


@role_required(RESIDENT)
def application_start(request, pk):
    animal = _own_animal(request.user, pk)
    if existing := svc.open_application_for(animal):
        return redirect("licensing:application_detail", pk=existing.pk)
    today = timezone.localdate()
    assessment = _assessment(animal, on=today)
    form = ApplicationForm(
        request.POST or None, request.FILES or None, on_file=_on_file(assessment)
    )
    if request.method == "POST" and form.is_valid():
        try:
            application = svc.application_submit(
                animal=animal, actor=request.user, on=today, **form.service_kwargs()
            )
        except Refused as exc:
            if existing := svc.open_application_for(animal):  # a double submit
                return redirect("licensing:application_detail", pk=existing.pk)
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Your application is sent to the clerk."))
            return redirect("licensing:application_detail", pk=application.pk)
    return render(
        request,
        "licensing/online/apply.html",
        {"animal": animal, "assessment": assessment, "form": form, "application": None},
    )


@role_required(RESIDENT)
def application_edit(request, pk):
    application = _own_application(request.user, pk)
    if not application.may("resubmit"):
        return redirect("licensing:application_detail", pk=application.pk)
    animal = application.animal
    today = timezone.localdate()
    assessment = _assessment(animal, on=today, applied_on=application.applied_on)
    initial = {"source": "on_file" if application.uses_vaccination_id else "certificate"}
    form = ApplicationForm(
        request.POST or None,
        request.FILES or None,
        instance=application,
        initial=initial,
        on_file=_on_file(assessment),
    )
    if request.method == "POST" and form.is_valid():
        try:
            svc.application_resubmit(
                application, actor=request.user, on=today, **form.service_kwargs()
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Your application is sent back to the clerk."))
            return redirect("licensing:application_detail", pk=application.pk)
    return render(
        request,
        "licensing/online/apply.html",
        {"animal": animal, "assessment": assessment, "form": form, "application": application},
    )


def amount_due_assessment(application, *, on, animal=None):
    """The fee lines behind the amount due, with their sections (approved ones).
    ``animal``: the application's animal fetched with the standing prefetch, if the page
    has it (its licenses and vaccinations are then not read again)."""
    if not application.may("issue"):
        return None
    return license_assess(
        animal=animal or application.animal,
        owner=application.owner,
        on=on,
        applied_on=application.applied_on,
        vaccination=application.vaccination,
    )


def issued_documents(application) -> list:
    """The receipt and license certificate ``license_issue`` archived."""
    if application.license is None:
        return []
    docs = dict(documents_for(application.license))
    if application.license.receipt:
        docs.update(documents_for(application.license.receipt))
    return sorted(docs.values(), key=lambda d: (d.issued_at, d.pk))


@role_required(RESIDENT)
def application_detail(request, pk):
    application = _own_application(request.user, pk)
    today = timezone.localdate()
    return render(
        request,
        "licensing/online/detail.html",
        {
            "application": application,
            "animal": application.animal,
            "due": amount_due_assessment(application, on=today),
            "documents": issued_documents(application),
            "contact_cities": [application.jurisdiction],
            "can_withdraw": application.may("withdraw"),
            "can_fix": application.may("resubmit"),
        },
    )


@role_required(RESIDENT)
@require_POST
def application_withdraw(request, pk):
    application = _own_application(request.user, pk)
    try:
        svc.application_withdraw(application, actor=request.user)
    except Refused as exc:
        messages.error(request, " ".join(str(c) for c in exc.checks))
    else:
        messages.success(request, _("Your application is withdrawn."))
    return redirect("licensing:application_detail", pk=application.pk)


@role_required(RESIDENT, CLERK, ADMINISTRATOR)
def application_certificate(request, pk):
    """The uploaded certificate: to the resident who owns the animal, or to a clerk or
    administrator of the city; anyone else gets 404."""
    applications = OnlineApplication.objects.filter(pk=pk)
    if request.user.has_role(RESIDENT):
        applications = applications.filter(owner__user=request.user)
    else:
        applications = applications.for_user(request.user)
    application = applications.first()
    if application is None or not application.certificate:
        raise Http404
    return upload_response(
        application.certificate, download_name=f"application-{application.pk}-certificate"
    )
