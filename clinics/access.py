"""Who sees which certificate (deny by default, style.md "Access").

A clinic's person sees their own clinic's submissions only (404 for another's); staff
see the submissions of the cities they serve (404 for another city's)."""

from django.http import Http404

from base.access import in_user_cities
from base.roles import STAFF_ROLES, VETERINARIAN
from ordinance.models import Jurisdiction

from .models import CertificateSubmission, Clinic, ClinicMember, ClinicSale, ConsignmentBlock


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
        return qs.for_user(user)
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


# --- Licenses sold at the clinic --------------------------------------


def clinic_member_acts_for(user, jurisdiction_id: int) -> bool:
    """``base.agents``: a clinic's person issues the city's receipt and license papers
    for a sale, in a city their active clinic serves (read from the database)."""
    if not user.has_role(VETERINARIAN):
        return False
    return ClinicMember.objects.filter(
        user=user,
        deactivated_at__isnull=True,
        clinic__is_active=True,
        clinic__jurisdictions=jurisdiction_id,
    ).exists()


def sales_for(request):
    """The sales this user may see: a clinic's own; staff, their cities'."""
    user = request.user
    if user.has_role(*STAFF_ROLES):
        return ClinicSale.objects.for_user(user)
    if user.has_role(VETERINARIAN):
        return ClinicSale.objects.filter(clinic=clinic_for(request))
    return ClinicSale.objects.none()


def get_sale(request, pk: int) -> ClinicSale:
    found = (
        sales_for(request)
        .select_related(
            "clinic", "jurisdiction", "license__animal", "license__owner", "receipt", "holding__tag"
        )
        .filter(pk=pk)
        .first()
    )
    if found is None:
        raise Http404
    return found


def staff_clinics(request):
    """The clinics serving a city this staff user serves (404s for any other)."""
    return in_user_cities(Clinic.objects.all(), request.user, "jurisdictions")


def get_block(request, pk: int) -> ConsignmentBlock:
    """A block of one of the staff user's cities (404 for another city's)."""
    found = (
        ConsignmentBlock.objects.for_user(request.user)
        .select_related("clinic", "jurisdiction", "issued_by")
        .filter(pk=pk)
        .first()
    )
    if found is None:
        raise Http404
    return found


def statement_scope(request, clinic_pk: int, city_pk: int):
    """(clinic, city) of a monthly statement this user may read: a clinic's person, their
    own clinic in a city it serves; staff, a clinic serving one of their cities. 404
    otherwise, whoever asks."""
    user = request.user
    if user.has_role(*STAFF_ROLES):
        if not user.serves(city_pk):
            raise Http404
        clinics = Clinic.objects.filter(pk=clinic_pk)
    else:
        own = clinic_for(request)
        if own.pk != clinic_pk:
            raise Http404
        clinics = Clinic.objects.filter(pk=own.pk)
    clinic = clinics.filter(jurisdictions=city_pk).first()
    city = Jurisdiction.objects.filter(pk=city_pk).first() if clinic else None
    if city is None:
        raise Http404
    return clinic, city
