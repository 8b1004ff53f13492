"""North Branch: record and end an officer's fierce, dangerous or vicious classification
(DD-29, Sec. 6-73, 6-75). Thin views: the role first (403), the record within the user's
cities (404), one service call; a refusal goes next to its field, nothing typed is lost.
The dog's page shows the classification (``dangerous_dogs.sections``)."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, OFFICER
from dangerous_dogs.forms_classification import ClassificationEndForm, ClassificationForm
from dangerous_dogs.models import Classification
from dangerous_dogs.services.classification import (
    ClassificationFacts,
    classification_end,
    classification_record,
    duty_or_refuse,
)
from licensing.models import Animal
from ordinance.refusals import Refused

ACTING_ROLES = (OFFICER, ADMINISTRATOR)


@role_required(*ACTING_ROLES)
@require_http_methods(["GET", "POST"])
def classification_create(request, animal_pk):
    animal = get_in_jurisdiction(
        Animal.objects.select_related("jurisdiction", "owner"), request.user, pk=animal_pk
    )
    today = timezone.localdate()
    try:
        duty, refusal = duty_or_refuse(animal, on=today), None
    except Refused as exc:
        duty, refusal = None, exc
    standing = animal.classifications.filter(ended_on__isnull=True).first()
    form = ClassificationForm(
        request.POST or None,
        request.FILES or None,
        initial={"classified_on": today, "classified_by_name": request.user.get_full_name()},
    )
    if request.method == "POST" and refusal is None and form.is_valid():
        try:
            classification_record(
                animal=animal,
                actor=request.user,
                facts=ClassificationFacts(**form.cleaned_data),
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Classification recorded."))
            return redirect("licensing:animal_detail", pk=animal.pk)
    return render(
        request,
        "dangerous_dogs/classification/form.html",
        {
            "animal": animal,
            "form": form,
            "duty": duty,
            "refusal": refusal,
            "standing": standing,
        },
    )


@role_required(*ACTING_ROLES)
@require_POST
def classification_end_view(request, pk):
    classification = get_in_jurisdiction(
        Classification.objects.select_related("animal", "jurisdiction"), request.user, pk=pk
    )
    form = ClassificationEndForm(request.POST)
    if form.is_valid():
        try:
            classification_end(
                classification=classification,
                actor=request.user,
                ended_on=form.cleaned_data["ended_on"],
                reason=form.cleaned_data["reason"],
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Classification ended."))
            return redirect("licensing:animal_detail", pk=classification.animal_id)
    return render(
        request,
        "dangerous_dogs/classification/end.html",
        {"classification": classification, "animal": classification.animal, "form": form},
    )


urlpatterns = [
    path("animals/<int:animal_pk>/classify/", classification_create, name="classification_create"),
    path("classifications/<int:pk>/end/", classification_end_view, name="classification_end"),
]
SECTIONS: list = []
