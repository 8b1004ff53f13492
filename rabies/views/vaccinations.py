"""Vaccination tracking (RAB-01..06): the staff list of animals whose rabies
vaccination is overdue (and, on request, due soon) in the user's cities.

The answer is licensing's (``licensing.services.vaccination``, RAB-01..06, LIC-02): the
list pages in SQL with ``animals_owing`` (the same rules as a database filter) and asks
``vaccination_status`` of the page's animals only, so it shows exactly what the animal
page shows, in a fixed number of queries whatever the number of animals.
"""

from dataclasses import dataclass

from django.core.paginator import Paginator
from django.db.models import F, Prefetch, prefetch_related_objects
from django.shortcuts import render
from django.urls import path
from django.utils import timezone

from base.access import in_user_cities, role_required
from base.roles import STAFF_ROLES
from licensing.models import Animal, RabiesVaccination
from licensing.services.vaccination import (
    VaccinationStatus,
    animals_owing,
    reminder_lead_days,
    statuses_for,
    vaccination_rules,
)
from rabies.views.pages import multi_city

PAGE_SIZE = 25


@dataclass
class OverdueRow:
    animal: Animal
    status: VaccinationStatus


@role_required(*STAFF_ROLES)
def vaccinations_overdue(request):
    today = timezone.localdate()
    due_soon = request.GET.get("due_soon") == "1"
    cities = request.user.served_list
    rules_by_city = {city.pk: vaccination_rules(city, on=today) for city in cities}
    animals = (
        animals_owing(
            in_user_cities(Animal.objects.all(), request.user),
            cities,
            on=today,
            due_soon=due_soon,
            rules_by_city=rules_by_city,
        )
        .select_related("jurisdiction", "owner")
        .order_by(F("latest_due").asc(nulls_first=True), "name", "pk")
    )
    page = Paginator(animals, PAGE_SIZE).get_page(request.GET.get("page"))
    shown = list(page.object_list)
    prefetch_related_objects(
        shown,
        Prefetch(
            "vaccinations", queryset=RabiesVaccination.objects.order_by("-vaccinated_on", "-pk")
        ),
        "license_exemptions",
    )
    statuses = statuses_for(shown, on=today, rules_by_city=rules_by_city)
    return render(
        request,
        "rabies/vaccinations/overdue.html",
        {
            "page": page,
            "rows": [OverdueRow(animal, statuses[animal.pk]) for animal in shown],
            "due_soon": due_soon,
            "lead_days": reminder_lead_days(),
            "today": today,
            "show_city": multi_city(request.user),
        },
    )


urlpatterns = [path("vaccinations/overdue/", vaccinations_overdue, name="vaccinations_overdue")]
SECTIONS: list = []
