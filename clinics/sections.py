from django.core.exceptions import ObjectDoesNotExist

from base.roles import ADMINISTRATOR, CLERK, STAFF_ROLES


def _sent_by_clinic(vaccination):
    try:
        return vaccination.clinic_submission
    except ObjectDoesNotExist:
        return None


def animal_clinic_certificates(request, *, animal):
    """The animal page's certificates a clinic sent: "submitted by" the clinic, with the
    signed copy. Staff only. Read from the page's own vaccinations,
    which carry their clinic submission (``sections.register_related``): no query."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.has_role(*STAFF_ROLES):
        return None
    found = [s for s in map(_sent_by_clinic, animal.vaccinations.all()) if s is not None]
    if not found:
        return None
    return "clinics/_animal_certificates.html", {"submissions": found}


def report_links(request):
    """The clinic reports on the reports page: clerk and administrator."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.has_role(CLERK, ADMINISTRATOR):
        return None
    from django.urls import reverse
    from django.utils.translation import gettext as _

    from clinics.views.reports import report_list

    follow_up = [
        (reverse("clinics:unlicensed"), _("Vaccinated but unlicensed")),
        (reverse("clinics:unlicensed_results"), _("Unlicensed follow-up results")),
        (reverse("clinics:balances"), _("Clinic sales and balances")),
    ]
    return "clinics/_report_links.html", {"reports": report_list() + follow_up}
