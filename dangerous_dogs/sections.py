"""Sections dangerous_dogs fills on pages of the apps below it (base.sections; see apps.py).

The dog's page (``licensing.animal_detail``) shows staff the dog's standing from the one
service ``designation_status`` (at most two queries): Glencoe's Subd. 15 designation,
cases, registration and keeping requirements, or North Branch's Sec. 6-73 classification
(DD-29: no procedure there). Residents and anonymous visitors see nothing of it.
"""

from django.urls import reverse
from django.utils import timezone

from base.roles import ADMINISTRATOR, OFFICER
from dangerous_dogs.forms_classification import ClassificationEndForm
from dangerous_dogs.services.status import designation_status


def animal_designations(request, *, animal):
    user = request.user
    if not user.is_authenticated or not user.is_staff_member:
        return None
    today = timezone.localdate()
    status = designation_status(animal, on=today)
    may_act = user.has_role(OFFICER, ADMINISTRATOR)
    context = {"animal": animal, "status": status, "today": today, "may_act": may_act}
    if may_act and status.may_open_case:
        context["open_case_url"] = reverse("dangerous_dogs:case_open", args=[animal.pk])
        # Subd. 17: summary destruction, after a hearing opportunity, with or without a case.
        context["destruction_url"] = reverse(
            "dangerous_dogs:review_destruction_animal", args=[animal.pk]
        )
    if may_act and status.duty is not None and animal.is_alive():
        if status.classification is None:
            context["classify_url"] = reverse(
                "dangerous_dogs:classification_create", args=[animal.pk]
            )
        else:
            context["end_form"] = ClassificationEndForm(initial={"ended_on": today})
    return "dangerous_dogs/_animal_designations.html", context
