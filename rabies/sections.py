"""Sections rabies fills on pages of the apps below it (base.sections; see apps.py).

The animal page shows staff the animal's bite reports (as the biting animal), quarantines
and exposure cases, each linked, and its rabies vaccination status from licensing's one
answer (``vaccination_status``) with its section: three queries (the vaccinations are
prefetched by the page, the rules read once per request). Officers and administrators
get "Report a bite". Residents and anonymous visitors see nothing of it.
"""

from django.urls import reverse
from django.utils import timezone

from base.roles import ADMINISTRATOR, OFFICER
from licensing.services.vaccination import vaccination_status


def animal_bites(request, *, animal):
    user = request.user
    if not user.is_authenticated or not user.is_staff_member:
        return None
    today = timezone.localdate()
    context = {
        "animal": animal,
        "bites": list(animal.bite_reports.all()),
        "quarantines": list(animal.quarantines.all()),
        "exposures": list(animal.exposures.all()),
        "vaccination": vaccination_status(animal, on=today),
    }
    if user.has_role(OFFICER, ADMINISTRATOR):
        context["report_url"] = reverse("rabies:bite_report") + f"?animal={animal.pk}"
    return "rabies/_animal_bites.html", context
