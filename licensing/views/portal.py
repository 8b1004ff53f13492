"""The resident's pages: their own animals, licences, vaccinations and documents (read-only).

A resident has no jurisdictions; what they may see is what belongs to an ``Owner`` row
whose ``user`` is them (possibly in more than one city). Every lookup here filters on
that, so another resident's animal, certificate or document is a 404 (style.md, "Deny by
default"). The role check (``role_required(RESIDENT)``) comes before any lookup, so staff
get 403 whatever the URL names.

Every deadline shown carries its citation from the city's profile (architecture.md,
"Rules as data"): the licence expiry (LIC-07, NB Sec. 6-62) and the vaccination
requirement the next-due date serves (RAB-01, RAB-03).
"""

from dataclasses import dataclass
from datetime import date

from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import FileResponse, Http404
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from base.access import role_required
from base.roles import RESIDENT
from licensing.forms.registry import sniff_content_type
from licensing.models import Animal, Licence, LicenceStatus, Owner, RabiesVaccination, Tag
from notices.models import IssuedDocument
from ordinance.models import Jurisdiction
from ordinance.rules import Rule, RuleUnavailable, get_rule, get_rules, profile_for

DOCUMENTS_PER_PAGE = 20
# The profile values the portal shows with their citations.
PORTAL_RULE_KEYS = ("dog_license_enabled", "licensed_species", "license_expiry",
                    "vaccination_required_age")


# --- Reads (all scoped to the resident's own Owner rows) ----------------------------

def _own_animals(user):
    return Animal.objects.filter(owner__user=user)


def _own_licences(user):
    """Licences the resident held themselves (not a previous owner's), tags prefetched."""
    return (Licence.objects.filter(owner__user=user)
            .select_related("receipt")
            .prefetch_related(Prefetch("tags", queryset=Tag.objects.order_by("-year", "number")))
            .order_by("-term_start", "-issued_on", "-pk"))


def _animals_for_portal(user):
    """The resident's animals with their licences and vaccinations: three queries."""
    return (
        _own_animals(user)
        .select_related("jurisdiction", "owner")
        .prefetch_related(
            Prefetch("licences", queryset=_own_licences(user), to_attr="own_licences"),
            Prefetch("vaccinations", queryset=RabiesVaccination.objects.order_by(
                "-vaccinated_on", "-pk")),
        )
        .order_by("status", "name", "pk")
    )


def _city_rules(jurisdiction: Jurisdiction, *, on: date) -> dict[str, Rule]:
    """The portal's rules that this city's ordinance has and has filled in.

    One query normally; a blank (RuleNotSet) falls back to key by key, so one missing
    value hides only what depends on it rather than the whole page.
    """
    try:
        present = [k for k in PORTAL_RULE_KEYS if k in profile_for(jurisdiction).values]
    except RuleUnavailable:
        return {}
    try:
        return get_rules(jurisdiction, present, on=on)
    except RuleUnavailable:
        rules = {}
        for key in present:
            try:
                rules[key] = get_rule(jurisdiction, key, on=on)
            except RuleUnavailable:
                continue
        return rules


# --- What the resident sees per animal ------------------------------------------------

@dataclass
class LicenceSummary:
    """The licence line of one animal for the current term (LIC-01, LIC-07, LIC-08)."""

    state: str  # current, renewed, lapsed, missing, not_required, unknown, inactive
    licence: Licence | None = None
    next_licence: Licence | None = None
    message: str = ""
    citation: str = ""
    expiry_citation: str = ""

    @property
    def tag(self):
        return self.licence.current_tag if self.licence else None


def _licensed_here(animal: Animal, rules: dict) -> tuple[bool | None, str]:
    """(licensed?, citation): None when the city's rules are not loaded."""
    enabled, species = rules.get("dog_license_enabled"), rules.get("licensed_species")
    if enabled is None or species is None:
        return None, ""
    if not enabled.value:
        return False, enabled.citation
    return animal.species in species.value, species.citation


def licence_summary(animal: Animal, rules: dict, *, on: date) -> LicenceSummary:
    licences = [lic for lic in animal.own_licences if lic.status != LicenceStatus.VOID]
    current = next((lic for lic in licences if lic.is_current(on)), None)
    upcoming = next((lic for lic in licences if lic.status == LicenceStatus.ACTIVE
                     and lic.term_start > on), None)
    expiry = rules.get("license_expiry")
    summary = LicenceSummary(state="current", licence=current, next_licence=upcoming,
                             expiry_citation=expiry.citation if expiry else "")
    if current is not None:
        return summary
    if not animal.is_alive():
        summary.state = "inactive"
        summary.licence = licences[0] if licences else None
        return summary
    if upcoming is not None:
        summary.state, summary.licence = "renewed", upcoming
        return summary
    licensed, citation = _licensed_here(animal, rules)
    summary.citation = citation
    summary.licence = licences[0] if licences else None
    if licensed is None:
        summary.state = "unknown"
    elif not licensed:
        summary.state = "not_required"
        summary.message = _("%(city)s does not require a licence for this animal.") % {
            "city": animal.jurisdiction.short_name}
    else:
        summary.state = "lapsed" if summary.licence else "missing"
    return summary


@dataclass
class AnimalRow:
    animal: Animal
    licence: LicenceSummary
    vaccination: RabiesVaccination | None
    vaccination_citation: str

    def vaccination_overdue(self, on: date) -> bool:
        v = self.vaccination
        return v is not None and v.next_due_on is not None and v.next_due_on < on


def _animal_rows(animals, *, on: date) -> list[AnimalRow]:
    rules_by_city: dict[int, dict] = {}
    rows = []
    for animal in animals:
        if animal.jurisdiction_id not in rules_by_city:
            rules_by_city[animal.jurisdiction_id] = _city_rules(animal.jurisdiction, on=on)
        rules = rules_by_city[animal.jurisdiction_id]
        required = rules.get("vaccination_required_age")
        vaccinations = list(animal.vaccinations.all())
        rows.append(AnimalRow(
            animal=animal, licence=licence_summary(animal, rules, on=on),
            vaccination=vaccinations[0] if vaccinations else None,
            vaccination_citation=required.citation if required else "",
        ))
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
    documents = (IssuedDocument.objects.filter(owner_user=request.user)
                 .select_related("jurisdiction", "voids", "void_record")
                 .order_by("-issued_at", "-pk"))
    page = Paginator(documents, DOCUMENTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "licensing/portal/home.html", {
        "today": today, "owners": owners, "rows": rows, "documents": page,
        "contact_cities": _contact_cities(request.user, owners),
        "show_city": len({o.jurisdiction_id for o in owners}) > 1,
    })


@role_required(RESIDENT)
def portal_animal(request, pk):
    today = timezone.localdate()
    animal = _animals_for_portal(request.user).filter(pk=pk).first()
    if animal is None:
        raise Http404
    row = _animal_rows([animal], on=today)[0]
    return render(request, "licensing/portal/animal.html", {
        "today": today, "animal": animal, "row": row,
        "licences": animal.own_licences, "vaccinations": list(animal.vaccinations.all()),
    })


@role_required(RESIDENT)
def portal_certificate(request, pk):
    """The resident's own uploaded rabies certificate, streamed after the access check."""
    vaccination = RabiesVaccination.objects.filter(pk=pk, animal__owner__user=request.user).first()
    if vaccination is None or not vaccination.certificate:
        raise Http404
    try:
        handle = vaccination.certificate.open("rb")
    except FileNotFoundError as missing:
        raise Http404 from missing
    # The type the file's bytes show, never what the uploader's browser claimed.
    content_type = sniff_content_type(handle) or "application/octet-stream"
    response = FileResponse(handle, as_attachment=True, content_type=content_type,
                            filename=vaccination.certificate.name.rsplit("/", 1)[-1])
    response["Cache-Control"] = "private, no-store"
    return response
