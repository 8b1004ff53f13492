"""The premises' case file page and the officer's follow-up date.

The animal's and owner's case files are sections of their registry pages (sections.py);
the registry has no premises page, so the premises' case file is a page here. Role
first (403), then the record within the user's cities (404).
"""

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.access import get_in_jurisdiction, role_required
from base.forms import DateInput, apply_service_errors
from base.roles import ADMINISTRATOR, OFFICER, STAFF_ROLES
from licensing.models import Premises
from ordinance.refusals import Refused

from .casefile import Scope, case_file
from .followups import complaint_follow_up_set
from .models import Complaint

FOLLOW_UP_ROLES = (OFFICER, ADMINISTRATOR)


@role_required(*STAFF_ROLES)
def premises_casefile(request, pk):
    premises = get_in_jurisdiction(
        Premises.objects.select_related("jurisdiction"), request.user, pk=pk
    )
    scope = Scope(jurisdiction_ids=tuple(request.user.jurisdiction_ids), premises=premises)
    return render(
        request,
        "complaints/premises_casefile.html",
        {
            "premises": premises,
            "rows": case_file(scope),
            "whose": premises.address,
            "show_city": len(request.user.jurisdiction_ids) > 1,
        },
    )


class FollowUpForm(forms.Form):
    follow_up_on = forms.DateField(
        label=gettext_lazy("Follow up on"),
        required=False,
        widget=DateInput(),
        help_text=gettext_lazy("Leave empty to clear the follow-up date."),
    )


@role_required(*FOLLOW_UP_ROLES)
def follow_up(request, pk):
    """Set, change or clear the complaint's follow-up date (history kept)."""
    complaint = get_in_jurisdiction(
        Complaint.objects.select_related("jurisdiction"), request.user, pk=pk
    )
    form = FollowUpForm(request.POST or None, initial={"follow_up_on": complaint.follow_up_on})
    if request.method == "POST" and form.is_valid():
        try:
            complaint_follow_up_set(
                complaint=complaint,
                actor=request.user,
                follow_up_on=form.cleaned_data["follow_up_on"],
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Follow-up date saved."))
            return redirect(complaint)
    return render(
        request,
        "complaints/follow_up.html",
        {"complaint": complaint, "form": form},
        status=400 if request.method == "POST" else 200,
    )


urlpatterns = [
    path("premises/<int:pk>/case-file/", premises_casefile, name="premises_casefile"),
    path("<int:pk>/follow-up/", follow_up, name="follow_up"),
]
