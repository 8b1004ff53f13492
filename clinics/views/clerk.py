"""The clerk's queue of certificates the software could not match with enough certainty:
confirm the animal, reject with a reason, or register the owner and
animal the certificate names. A clinic's person gets 403; another city's clerk 404."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.access import role_required
from base.roles import ADMINISTRATOR, CLERK
from licensing.models import Animal
from ordinance.refusals import Refused

from ..access import get_submission, submissions_for
from ..forms import ConfirmForm, RejectForm
from ..models import SubmissionStatus
from ..services import certificates, matching

ROLES = (CLERK, ADMINISTRATOR)
LIST_LIMIT = 200


@role_required(*ROLES)
def queue(request):
    waiting = (
        submissions_for(request)
        .filter(status=SubmissionStatus.QUEUED)
        .select_related("clinic", "jurisdiction")
        .order_by("submitted_at", "pk")
    )
    return render(
        request,
        "clinics/queue.html",
        {
            "submissions": waiting[:LIST_LIMIT],
            "limit": LIST_LIMIT,
            "show_city": len(request.user.jurisdiction_ids) > 1,
            "threshold": matching.MATCH_THRESHOLD,
        },
    )


@role_required(*ROLES)
def review(request, pk, reject_form=None):
    submission = get_submission(request, pk)
    may = {name: submission.may(name) for name in ("confirm", "register", "reject")}
    found = matching.candidates(submission) if may["confirm"] else []
    return render(
        request,
        "clinics/review.html",
        {
            "submission": submission,
            "may": may,
            "candidates": found,
            "threshold": matching.MATCH_THRESHOLD,
            "reject_form": reject_form or RejectForm(),
        },
    )


def _done(request, call, pk, message):
    try:
        call()
    except Refused as refused:
        for text in refused.messages:
            messages.error(request, text)
        return redirect("clinics:review", pk)
    messages.success(request, message)
    return redirect("clinics:queue")


@role_required(*ROLES)
@require_POST
def confirm(request, pk):
    submission = get_submission(request, pk)
    form = ConfirmForm(request.POST)
    if not form.is_valid():
        return redirect("clinics:review", pk)
    animal = get_object_or_404(
        Animal, pk=form.cleaned_data["animal"], jurisdiction_id=submission.jurisdiction_id
    )
    return _done(
        request,
        lambda: certificates.certificate_confirm(
            submission=submission, animal=animal, actor=request.user
        ),
        pk,
        _("The certificate is recorded for %(animal)s.") % {"animal": animal.name},
    )


@role_required(*ROLES)
@require_POST
def reject(request, pk):
    submission = get_submission(request, pk)
    form = RejectForm(request.POST)
    if not form.is_valid():
        return review(request, pk, reject_form=form)
    return _done(
        request,
        lambda: certificates.certificate_reject(
            submission=submission, actor=request.user, reason=form.cleaned_data["reason"]
        ),
        pk,
        _("The certificate is rejected."),
    )


@role_required(*ROLES)
@require_POST
def register(request, pk):
    submission = get_submission(request, pk)
    return _done(
        request,
        lambda: certificates.certificate_register(submission=submission, actor=request.user),
        pk,
        _("The owner and the animal are registered, and the certificate recorded."),
    )
