"""The administrator's clinic pages: the clinics serving their cities,
and on each clinic's page its veterinarians, its people, the invitation and the
deactivation. A clinic serving none of the administrator's cities is a 404."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.access import in_user_cities, role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR
from ordinance.refusals import Refused

from ..forms import DeactivateForm, InviteForm
from ..models import Clinic, ClinicMember
from ..services import accounts


def _clinics(request):
    qs = Clinic.objects.all()
    if not request.user.is_superuser:
        qs = in_user_cities(qs, request.user, "jurisdictions")
    return qs


def _clinic(request, pk) -> Clinic:
    clinic = _clinics(request).filter(pk=pk).prefetch_related("jurisdictions").first()
    if clinic is None:
        raise Http404
    return clinic


@role_required(ADMINISTRATOR)
def clinic_list(request):
    clinics = _clinics(request).prefetch_related("jurisdictions").order_by("name", "pk")
    return render(request, "clinics/clinic_list.html", {"clinics": clinics})


@role_required(ADMINISTRATOR)
def clinic_detail(request, pk, invite_form=None, deactivate_form=None, deactivating=None):
    clinic = _clinic(request, pk)
    members = clinic.members.select_related("user").order_by("user__email")
    return render(
        request,
        "clinics/clinic_detail.html",
        {
            "clinic": clinic,
            "veterinarians": clinic.veterinarians.all(),
            "members": members,
            "invite_form": invite_form or InviteForm(),
            # The one row whose deactivation was refused shows its reason's error.
            "deactivate_form": deactivate_form,
            "deactivating": deactivating,
        },
        status=400 if deactivate_form is not None else 200,
    )


@role_required(ADMINISTRATOR)
@require_POST
def member_invite(request, pk):
    clinic = _clinic(request, pk)
    form = InviteForm(request.POST)
    if form.is_valid():
        try:
            accounts.clinic_member_invite(clinic=clinic, actor=request.user, **form.cleaned_data)
        except Refused as refused:
            apply_service_errors(form, refused)
        else:
            messages.success(request, _("Invitation sent to %(email)s.") % form.cleaned_data)
            return redirect("clinics:clinic_detail", clinic.pk)
    return clinic_detail(request, pk, invite_form=form)


@role_required(ADMINISTRATOR)
@require_POST
def member_deactivate(request, pk):
    member = (
        ClinicMember.objects.select_related("clinic", "user")
        .filter(pk=pk, clinic__in=_clinics(request))
        .first()
    )
    if member is None:
        raise Http404
    form = DeactivateForm(request.POST)
    if not form.is_valid():
        return clinic_detail(
            request, member.clinic_id, deactivate_form=form, deactivating=member.pk
        )
    accounts.clinic_member_deactivate(
        member=member, actor=request.user, reason=form.cleaned_data["reason"]
    )
    messages.success(request, _("%(email)s can no longer log in.") % {"email": member.user.email})
    return redirect("clinics:clinic_detail", member.clinic_id)
