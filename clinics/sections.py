from base.roles import STAFF_ROLES

from .models import RECORDED_STATUSES


def animal_clinic_certificates(request, *, animal):
    """The animal page's certificates a clinic sent: "submitted by" the clinic, with the
    signed copy (issue 18, item 2). Staff only; one query."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.has_role(*STAFF_ROLES):
        return None
    from .models import CertificateSubmission

    found = list(
        CertificateSubmission.objects.filter(animal=animal, status__in=RECORDED_STATUSES)
        .select_related("clinic")
        .order_by("-vaccinated_on", "-pk")
    )
    if not found:
        return None
    return "clinics/_animal_certificates.html", {"submissions": found}
