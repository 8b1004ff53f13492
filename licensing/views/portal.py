"""The resident's pages: their own animals, licenses, vaccinations and documents (read-only).

A resident has no jurisdictions; what they may see is what belongs to an ``Owner`` row
whose ``user`` is them (possibly in more than one city). Every lookup here filters on
that, so another resident's animal, certificate or document is a 404 (style.md, "Deny by
default"). The role check (``role_required(RESIDENT)``) comes before any lookup, so staff
get 403 whatever the URL names.

Every deadline shown carries its citation from the city's profile (architecture.md,
"Rules as data"): the license standing comes from the one standing service
(``licensing.services.standing``: LIC-01, LIC-02, LIC-07), and the vaccination
requirement the next-due date serves (RAB-01, RAB-03).
"""

from dataclasses import dataclass
from datetime import date

from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import render
from django.utils import timezone

from base.access import role_required
from base.roles import RESIDENT
from base.uploads import upload_response
from licensing.models import Animal, License, Owner, RabiesVaccination
from licensing.services.next_step import (
    NextSteps,
    city_checks,
    next_steps,
    open_applications,
    with_open_application,
)
from licensing.services.standing import (
    LicenseStanding,
    license_standing,
    standing_prefetch,
    standing_rules,
)
from licensing.services.vaccination import (
    VaccinationStatus,
    vaccination_rules,
    vaccination_status,
)
from licensing.templatetags.reported_changes import with_latest_report
from notices.models import IssuedDocument
from ordinance.models import Jurisdiction

DOCUMENTS_PER_PAGE = 20
# The profile values the portal shows besides the license standing, with their citations.
PORTAL_RULE_KEYS = ("vaccination_required_age",)


# --- Reads (all scoped to the resident's own Owner rows) ----------------------------


def _animals_for_portal(user):
    """The resident's animals with their licenses, exemptions and vaccinations: a fixed
    number of queries (the standing service's prefetch, vaccinations)."""
    return (
        standing_prefetch(with_open_application(Animal.objects.filter(owner__user=user)))
        .select_related("owner", "jurisdiction")
        .prefetch_related(
            Prefetch(
                "vaccinations", queryset=RabiesVaccination.objects.order_by("-vaccinated_on", "-pk")
            )
        )
        .order_by("status", "name", "pk")
    )


def _own_licenses(animal, user) -> list[License]:
    """Licenses the resident held themselves (not a previous owner's), newest first."""
    return [lic for lic in animal.licenses.all() if lic.owner.user_id == user.pk]


# --- What the resident sees per animal ------------------------------------------------


@dataclass
class AnimalRow:
    animal: Animal
    standing: LicenseStanding  # the one answer every page shows (services.standing)
    vaccination: RabiesVaccination | None
    vaccination_status: VaccinationStatus  # the one answer staff see too (RAB-01..06)
    vaccination_citation: str
    expiry_citation: str
    next: NextSteps  # what is due, by when, and whether to apply online (next_step)


def _animal_rows(animals, *, on: date) -> list[AnimalRow]:
    animals = list(animals)
    checks = city_checks(animals, on=on)
    open_apps = open_applications(animals)
    rules_by_city: dict[int, dict] = {}
    vaccination_rules_by_city: dict[int, dict] = {}
    rows = []
    for animal in animals:
        if animal.jurisdiction_id not in rules_by_city:
            rules_by_city[animal.jurisdiction_id] = standing_rules(
                animal.jurisdiction, on=on, extra=PORTAL_RULE_KEYS
            )
            vaccination_rules_by_city[animal.jurisdiction_id] = vaccination_rules(
                animal.jurisdiction, on=on
            )
        rules = rules_by_city[animal.jurisdiction_id]
        required, expiry = rules.get("vaccination_required_age"), rules.get("license_expiry")
        vaccinations = list(animal.vaccinations.all())
        standing = license_standing(animal, on=on, rules=rules)
        vaccination = vaccination_status(
            animal, on=on, rules=vaccination_rules_by_city[animal.jurisdiction_id]
        )
        rows.append(
            AnimalRow(
                animal=animal,
                standing=standing,
                vaccination=vaccinations[0] if vaccinations else None,
                vaccination_status=vaccination,
                vaccination_citation=required.citation if required else "",
                expiry_citation=expiry.citation if expiry else "",
                next=next_steps(
                    animal,
                    on=on,
                    standing=standing,
                    vaccination=vaccination,
                    rules=rules,
                    city_check=checks[(animal.jurisdiction_id, animal.species)],
                    open_application=open_apps.get(animal.pk),
                ),
            )
        )
    return rows


def _contact_cities(user, owners):
    """Where to go for help: the cities the resident is on file in, else every city."""
    cities = {o.jurisdiction_id: o.jurisdiction for o in owners}
    if cities:
        return sorted(cities.values(), key=lambda j: j.name)
    return list(Jurisdiction.objects.order_by("name"))


# --- Views ------------------------------------------------------------------------------


@role_required(RESIDENT)
def portal_home(request):
    today = timezone.localdate()
    owners = list(Owner.objects.filter(user=request.user).select_related("jurisdiction"))
    rows = _animal_rows(_animals_for_portal(request.user), on=today)
    documents = (
        IssuedDocument.objects.filter(owner_user=request.user)
        .select_related("jurisdiction", "voids", "void_record")
        .order_by("-issued_at", "-pk")
    )
    page = Paginator(documents, DOCUMENTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "licensing/portal/home.html",
        {
            "today": today,
            "owners": owners,
            "rows": rows,
            "documents": page,
            "contact_cities": _contact_cities(request.user, owners),
            "show_city": len({o.jurisdiction_id for o in owners}) > 1,
        },
    )


@role_required(RESIDENT)
def portal_animal(request, pk):
    today = timezone.localdate()
    animal = (
        with_latest_report(_animals_for_portal(request.user), request.user).filter(pk=pk).first()
    )
    if animal is None:
        raise Http404
    row = _animal_rows([animal], on=today)[0]
    return render(
        request,
        "licensing/portal/animal.html",
        {
            "today": today,
            "animal": animal,
            "row": row,
            "licenses": _own_licenses(animal, request.user),
            "vaccinations": list(animal.vaccinations.all()),
        },
    )


@role_required(RESIDENT)
def portal_certificate(request, pk):
    """The resident's own uploaded rabies certificate, streamed after the access check."""
    vaccination = RabiesVaccination.objects.filter(pk=pk, animal__owner__user=request.user).first()
    if vaccination is None or not vaccination.certificate:
        raise Http404
    return upload_response(
        vaccination.certificate, download_name=f"rabies-certificate-{vaccination.pk}"
    )
