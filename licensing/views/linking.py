"""Linking online accounts to owner records: the resident's form, the clerk's decisions.

The resident's page (``portal_link``) is theirs alone (``role_required(RESIDENT)``:
staff get 403). The clerk's actions are POSTs on the owner page of their own city
(``get_in_jurisdiction``: another city's owner is a 404; officers get 403).
"""

from axes.helpers import get_client_ip_address
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.access import get_in_jurisdiction, role_required
from base.roles import ADMINISTRATOR, CLERK, RESIDENT
from licensing.forms.linking import LinkForm
from licensing.models import LinkAttempt, Owner
from licensing.services import linking
from ordinance.models import Jurisdiction
from ordinance.refusals import Refused

Outcome = LinkAttempt.Outcome


@role_required(RESIDENT)
def portal_link(request):
    form = LinkForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        attempt = linking.link_attempt(
            user=request.user,
            entry=linking.LinkEntry(**form.cleaned_data),
            ip_address=get_client_ip_address(request),
        )
        if attempt.outcome == Outcome.LINKED:
            messages.success(
                request,
                _("Your account is linked to the records of %(name)s.") % {"name": attempt.owner},
            )
            return redirect("licensing:portal_home")
        if attempt.outcome == Outcome.TAKEN:
            return render(request, "licensing/portal/link_taken.html", _contact(request))
        form.add_error(None, _message(attempt.outcome))
    return render(
        request,
        "licensing/portal/link.html",
        {"form": form, **_contact(request)},
        status=400 if form.errors else 200,
    )


def _message(outcome) -> str:
    if outcome == Outcome.LIMITED:
        return _(
            "Too many tries in the last hour. Try again in an hour, or ask the clerk at "
            "City Hall to link your records."
        )
    return _(
        "No license or tag matches that last name and ZIP code. Check the number on your "
        "license certificate or your dog's tag, and the name and ZIP code it was issued to."
    )


def _contact(request) -> dict:
    return {"contact_cities": list(Jurisdiction.objects.order_by("name"))}


@role_required(CLERK, ADMINISTRATOR)
@require_POST
def owner_account(request, pk):
    """Link a waiting account, dismiss its request, or unlink the current account."""
    owner = get_in_jurisdiction(Owner.objects.select_related("user"), request.user, pk=pk)
    action = request.POST.get("action")
    try:
        if action == "unlink":
            linking.owner_account_unlink(owner=owner, actor=request.user)
            messages.success(request, _("The online account was unlinked."))
        elif action in ("link", "dismiss"):
            attempt_id = request.POST.get("attempt", "")
            attempt = (
                attempt_id.isdigit()
                and linking.pending_attempts(owner).filter(pk=attempt_id).first()
            )
            if not attempt:
                raise Http404
            if action == "link":
                linking.owner_account_link(owner=owner, attempt=attempt, actor=request.user)
                messages.success(
                    request, _("Linked the account %(user)s.") % {"user": attempt.user.username}
                )
            else:
                linking.owner_account_dismiss(owner=owner, attempt=attempt, actor=request.user)
                messages.success(request, _("The request was dismissed."))
        else:
            raise Http404
    except Refused as refused:
        messages.error(request, " ".join(str(c) for c in refused.checks))
    return redirect(owner)
