"""Who sees which certificate (deny by default, style.md "Access").

A clinic's person sees their own clinic's submissions only (404 for another's); staff
see the submissions of the cities they serve (404 for another city's)."""

from django.http import Http404

from base.roles import STAFF_ROLES, VETERINARIAN

from .models import CertificateSubmission, ClinicMember


def clinic_for(request):
    """The active clinic of the logged-in veterinarian (404 when none)."""
    if not hasattr(request, "_clinic"):
        member = (
            ClinicMember.objects.select_related("clinic")
            .filter(user=request.user, deactivated_at__isnull=True, clinic__is_active=True)
            .first()
        )
        if member is None:
            raise Http404
        request._clinic = member.clinic
    return request._clinic


def submissions_for(request):
    """The certificates this user may see, whatever their role."""
    user = request.user
    qs = CertificateSubmission.objects.all()
    if user.has_role(*STAFF_ROLES):
        return qs.filter(jurisdiction_id__in=user.jurisdiction_ids)
    if user.has_role(VETERINARIAN):
        return qs.filter(clinic=clinic_for(request))
    return qs.none()


def get_submission(request, pk: int, **lookup) -> CertificateSubmission:
    found = (
        submissions_for(request)
        .select_related("clinic", "jurisdiction", "animal__owner", "batch")
        .filter(pk=pk, **lookup)
        .first()
    )
    if found is None:
        raise Http404
    return found
