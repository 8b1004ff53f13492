"""The clerk's queue of online applications: the city's applications by
status, each with the uploaded certificate beside the dates entered and the animal's
record, the counter's checks and fee lines; approve, return with a reason, record a
payment at the counter, and the tag mailing list.

Staff views scope to the user's cities (``for_user``: another city's application is a
404); the services in ``licensing.services.applications`` decide.
"""

from django.contrib import messages
from django.db.models import Case, IntegerField, Prefetch, Value, When
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.access import get_in_jurisdiction, role_required
from base.messages import success_with_receipt
from base.roles import ADMINISTRATOR, CLERK
from licensing.forms.online import CounterPaymentForm, ReturnForm
from licensing.models import OnlineApplication, RabiesVaccination
from licensing.models.online import ApplicationStatus
from licensing.services import applications as svc
from licensing.services.assessment import license_assess
from licensing.services.mailing import mailing_list_pdf, to_mail
from licensing.services.standing import license_standing, standing_prefetch
from licensing.views.online import amount_due_assessment, issued_documents
from ordinance.refusals import Refused

COUNTER = (CLERK, ADMINISTRATOR)
PER_PAGE = 50
# The queue's order: what waits for the clerk first.
STATUS_ORDER = [
    ApplicationStatus.SUBMITTED,
    ApplicationStatus.PAYMENT_HELD,
    ApplicationStatus.APPROVED,
    ApplicationStatus.RETURNED,
    ApplicationStatus.ISSUED,
    ApplicationStatus.WITHDRAWN,
]


def _queue(user):
    return OnlineApplication.objects.for_user(user)


@role_required(*COUNTER)
def review_list(request):
    status = request.GET.get("status", "")
    applications = _queue(request.user).select_related("animal", "owner", "jurisdiction")
    if status in ApplicationStatus.values:
        applications = applications.filter(status=status)
    rank = Case(
        *[When(status=s, then=Value(i)) for i, s in enumerate(STATUS_ORDER)],
        output_field=IntegerField(),
    )
    applications = applications.annotate(rank=rank).order_by("rank", "submitted_at", "pk")
    return render(
        request,
        "licensing/online/review_list.html",
        {
            "applications": applications[:PER_PAGE],
            "status": status,
            "statuses": ApplicationStatus.choices,
            "show_city": len(request.user.jurisdiction_ids) > 1,
            # The tags listed now: marking them mailed marks these, not later ones.
            "to_mail_ids": list(to_mail(request.user).values_list("pk", flat=True)),
        },
    )


def _application(user, pk):
    return get_in_jurisdiction(
        OnlineApplication.objects.select_related(
            "animal",
            "owner",
            "jurisdiction",
            "license",
            "license__receipt",
            "uses_vaccination",
            "vaccination",
            "reviewed_by",
        ),
        user,
        pk=pk,
    )


def _detail(request, application, *, return_form=None, pay_form=None, refused=None):
    today = timezone.localdate()
    animal = (
        standing_prefetch(type(application.animal).objects.filter(pk=application.animal_id))
        .select_related("owner", "premises")
        .prefetch_related(
            Prefetch(
                "vaccinations", queryset=RabiesVaccination.objects.order_by("-vaccinated_on", "-pk")
            )
        )
        .get()
    )
    assessment = None
    if application.may("approve"):
        assessment = license_assess(
            animal=animal,
            owner=application.owner,
            on=today,
            applied_on=application.applied_on,
            vaccination=application.uses_vaccination,
        )
    return render(
        request,
        "licensing/online/review_detail.html",
        {
            "application": application,
            "animal": animal,
            "standing": license_standing(animal, on=today),
            "vaccinations": list(animal.vaccinations.all()),
            "assessment": assessment,
            "may": {t.name: application.may(t.name) for t in OnlineApplication.TRANSITIONS},
            "due": amount_due_assessment(application, on=today, animal=animal),
            "documents": issued_documents(application),
            "return_form": return_form or ReturnForm(),
            "pay_form": pay_form or CounterPaymentForm(),
            "refused": refused,
        },
    )


@role_required(*COUNTER)
def review_detail(request, pk):
    return _detail(request, _application(request.user, pk))


@role_required(*COUNTER)
@require_POST
def review_approve(request, pk):
    application = _application(request.user, pk)
    try:
        approval = svc.application_approve(application, actor=request.user)
    except Refused as exc:
        return _detail(request, application, refused=exc.checks)
    messages.success(
        request,
        _("Approved: %(amount)s due. The resident is told.") % {"amount": approval.amount_due},
    )
    return redirect("online:review_detail", pk=application.pk)


@role_required(*COUNTER)
@require_POST
def review_return(request, pk):
    application = _application(request.user, pk)
    form = ReturnForm(request.POST)
    if form.is_valid():
        try:
            svc.application_return(
                application, actor=request.user, reason=form.cleaned_data["reason"]
            )
        except Refused as exc:
            return _detail(request, application, return_form=form, refused=exc.checks)
        messages.success(request, _("Returned to the resident with your reason."))
        return redirect("online:review_detail", pk=application.pk)
    return _detail(request, application, return_form=form)


@role_required(*COUNTER)
@require_POST
def review_pay(request, pk):
    """Payment at the counter or by mail, recorded as at the counter."""
    application = _application(request.user, pk)
    form = CounterPaymentForm(request.POST)
    if form.is_valid():
        try:
            result = svc.application_issue(
                application,
                actor=request.user,
                method=form.cleaned_data["method"],
                reference=form.cleaned_data["reference"],
                tendered=form.cleaned_data.get("amount_tendered"),
            )
        except Refused as exc:
            return _detail(request, application, pay_form=form, refused=exc.checks)
        success_with_receipt(
            request,
            _("License %(license)s issued, receipt %(receipt)s.")
            % {"license": result.license.number, "receipt": result.receipt.number},
            result.receipt,
        )
        return redirect("online:review_detail", pk=application.pk)
    return _detail(request, application, pay_form=form)


@role_required(*COUNTER)
@require_POST
def review_tag_mailed(request, pk):
    application = _application(request.user, pk)
    if svc.applications_mark_mailed([application], actor=request.user):
        messages.success(request, _("Tag marked mailed."))
    return redirect("online:review_detail", pk=application.pk)


@role_required(*COUNTER)
def mailing_list(request):
    """The PDF of tags to mail: issued online licenses whose tag is not yet mailed."""
    pdf = mailing_list_pdf(request.user, now=timezone.now())
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = 'inline; filename="tag-mailing-list.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response


@role_required(*COUNTER)
@require_POST
def mailing_list_mailed(request):
    """After printing: the tags listed (the ids the clerk saw) are marked mailed."""
    # Ids as the page listed them: digits of a sane length only (a 5,000-digit "id" is
    # refused by int() itself).
    ids = [int(i) for i in request.POST.getlist("application") if i.isdigit() and len(i) <= 18]
    applications = list(to_mail(request.user).filter(pk__in=ids))
    count = svc.applications_mark_mailed(applications, actor=request.user)
    messages.success(request, _("%(count)s tags marked mailed.") % {"count": count})
    return redirect("online:review_list")
