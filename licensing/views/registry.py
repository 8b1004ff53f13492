"""Registry pages for staff: search, owners, animals, rabies vaccinations, uploads.

Thin views: check the role (before any lookup, so a wrong role always gets 403), fetch
the record within the user's cities (404 otherwise), call one service, render.
"""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.access import get_in_jurisdiction, in_user_cities, role_required
from base.forms import apply_service_errors
from base.links import record_url
from base.roles import ADMINISTRATOR, CLERK, STAFF_ROLES
from base.uploads import upload_response
from licensing.forms.registry import AnimalForm, DeceasedForm, OwnerForm, VaccinationForm
from licensing.models import Animal, Owner, RabiesVaccination, Species
from licensing.selectors import animal_for_detail, owner_with_animals, registry_search
from licensing.services import linking
from licensing.services import registry as services
from licensing.services.limits import premises_limit_status
from licensing.services.owner_merge import owner_duplicates
from licensing.services.standing import license_standing, license_standings
from licensing.services.vaccination import vaccination_status
from ordinance.models import Event
from ordinance.refusals import Refused


def _multi_city(user) -> bool:
    return len(user.jurisdiction_ids) > 1


def _results_rows(hits):
    """What the results list shows of each hit, worked out once per page: the links and
    the species' label (a reverse() and a choices lookup per row cost a third of the
    list's rendering)."""
    species = {value: str(label) for value, label in Species.choices}
    for hit in hits:
        hit.owner_url = record_url("licensing:owner_detail", hit.owner.pk)
        for animal in hit.animals:
            animal.detail_url = record_url("licensing:animal_detail", animal.pk)
            animal.species_label = species.get(animal.species, animal.species)
            animal.matched = animal.pk in hit.matched_animal_ids
    return hits


@role_required(*STAFF_ROLES)
def search(request):
    query = request.GET.get("q", "").strip()
    context = {
        "q": query,
        "hits": _results_rows(registry_search(user=request.user, query=query)),
        "min_length": 2,
        "show_city": _multi_city(request.user),
    }
    partial = request.htmx and not request.htmx.history_restore_request
    template = "licensing/registry/_results.html" if partial else "licensing/registry/search.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


@role_required(*STAFF_ROLES)
def owner_detail(request, pk):
    owner = get_in_jurisdiction(owner_with_animals(Owner.objects), request.user, pk=pk)
    events = Event.objects.for_object(owner).select_related("actor")[:20]
    today = timezone.localdate()
    animals = owner.animals.all()
    premises = {a.premises_id: a.premises for a in animals if a.premises_id and a.is_alive()}
    for place in premises.values():
        if place.jurisdiction_id == owner.jurisdiction_id:
            place.jurisdiction = owner.jurisdiction  # already fetched with the owner
    standings = license_standings(animals, on=today)  # LIC-01, LIC-02, LIC-07
    for animal in animals:
        animal.standing = standings[animal.pk]
    return render(
        request,
        "licensing/registry/owner_detail.html",
        {
            "owner": owner,
            "animals": animals,
            "events": events,
            "today": today,
            "show_city": _multi_city(request.user),
            "limits": _limits(premises.values(), today),
            # Online account requests waiting for the clerk (services/linking.py).
            "link_requests": list(linking.pending_attempts(owner)),
            "can_link": request.user.has_role(CLERK, ADMINISTRATOR),
        },
    )


@role_required(*STAFF_ROLES)
def owner_create(request):
    cities = list(request.user.served_jurisdictions())
    form = OwnerForm(request.POST or None, jurisdictions=cities, initial=_city_initial(cities))
    duplicates, back = [], _safe_next(request)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        jurisdiction = data.pop("jurisdiction", None) or cities[0]
        # The same person at the same address in this city: offer that record first;
        # the clerk may still confirm a new one.
        if not request.POST.get("confirm_new"):
            duplicates = owner_duplicates(jurisdiction=jurisdiction, **data)
        if not duplicates:
            owner = services.owner_create(jurisdiction=jurisdiction, actor=request.user, **data)
            messages.success(request, _("Owner %(name)s registered.") % {"name": owner.name})
            if back:
                # Back to the page that asked for a new owner (a transfer), with them picked.
                return redirect(f"{back}?{urlencode({'pick': owner.pk})}")
            return redirect(owner)
    return render(
        request,
        "licensing/registry/owner_form.html",
        {"form": form, "owner": None, "duplicates": duplicates, "back": back},
    )


def _city_initial(cities) -> dict:
    if len(cities) == 1:
        return {"city": cities[0].short_name, "state": cities[0].state}
    return {"state": "MN"}


@role_required(*STAFF_ROLES)
def owner_edit(request, pk):
    owner = get_in_jurisdiction(Owner.objects.select_related("jurisdiction"), request.user, pk=pk)
    form = OwnerForm(request.POST or None, instance=Owner.objects.get(pk=owner.pk))
    if request.method == "POST" and form.is_valid():
        services.owner_update(owner=owner, actor=request.user, **form.cleaned_data)
        messages.success(request, _("Owner details saved."))
        return redirect(owner)
    return render(request, "licensing/registry/owner_form.html", {"form": form, "owner": owner})


@role_required(*STAFF_ROLES)
def animal_create(request, owner_pk):
    owner = get_in_jurisdiction(
        Owner.objects.select_related("jurisdiction"), request.user, pk=owner_pk
    )
    form = AnimalForm(
        request.POST or None,
        request.FILES or None,
        jurisdiction=owner.jurisdiction,
        on=timezone.localdate(),
    )
    if request.method == "POST" and form.is_valid():
        try:
            animal = services.animal_register(
                owner=owner, actor=request.user, on=timezone.localdate(), **form.cleaned_data
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("%(animal)s registered.") % {"animal": animal.name})
            return redirect(animal)
    return render(
        request,
        "licensing/registry/animal_form.html",
        {"form": form, "owner": owner, "animal": None},
    )


def _safe_next(request) -> str:
    """The page to return to after saving (the counter's checks screen), only when it is
    a path on this site: anything else is ignored (an open redirect otherwise)."""
    back = request.POST.get("next") or request.GET.get("next", "")
    safe = back.startswith("/") and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return back if safe else ""


@role_required(*STAFF_ROLES)
def animal_edit(request, pk):
    animal = get_in_jurisdiction(
        Animal.objects.select_related("owner", "jurisdiction"), request.user, pk=pk
    )
    form = AnimalForm(
        request.POST or None,
        request.FILES or None,
        instance=Animal.objects.get(pk=animal.pk),
        jurisdiction=animal.jurisdiction,
        on=timezone.localdate(),
    )
    back = _safe_next(request)
    if request.method == "POST" and form.is_valid():
        try:
            services.animal_update(
                animal=animal, actor=request.user, on=timezone.localdate(), **form.cleaned_data
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Animal details saved."))
            return redirect(back or animal.get_absolute_url())
    return render(
        request,
        "licensing/registry/animal_form.html",
        {"form": form, "owner": animal.owner, "animal": animal, "next": back},
    )


def _limits(premises_list, on) -> list[dict]:
    """The animal-limit status of each premises, in its own city's numbers (KEN-01)."""
    found = []
    for premises in premises_list:
        try:
            check, lines = premises_limit_status(premises=premises, on=on)
        except Refused as exc:
            found.append({"premises": premises, "error": str(exc)})
        else:
            found.append({"premises": premises, "check": check, "lines": lines})
    return found


@role_required(*STAFF_ROLES)
def animal_detail(request, pk):
    animal = get_in_jurisdiction(animal_for_detail(Animal.objects), request.user, pk=pk)
    today = timezone.localdate()
    if animal.premises_id and animal.premises.jurisdiction_id == animal.jurisdiction_id:
        animal.premises.jurisdiction = animal.jurisdiction  # same city, already read
    return render(
        request,
        "licensing/registry/animal_detail.html",
        {
            "animal": animal,
            # The counter's own role check, not a permission lookup (two queries).
            "may_issue": request.user.has_role(CLERK, ADMINISTRATOR),
            "owner": animal.owner,
            "ownerships": animal.ownerships.all(),
            "vaccinations": animal.vaccinations.all(),
            "today": today,
            "deceased_form": DeceasedForm(initial={"died_on": today}),
            "may_die": animal.may("die"),
            "show_city": _multi_city(request.user),
            "standing": license_standing(animal, on=today),  # LIC-01, LIC-02, LIC-07
            "vaccination_status": vaccination_status(animal, on=today),  # RAB-01..06
            "limits": _limits([animal.premises] if animal.premises_id else [], today),
        },
    )


@role_required(*STAFF_ROLES)
@require_POST
def animal_mark_deceased(request, pk):
    """Posted from the animal page; asks again before recording the death, and shows a
    mistake next to its field with what was typed kept."""
    animal = get_in_jurisdiction(Animal.objects, request.user, pk=pk)
    form = DeceasedForm(request.POST)
    if form.confirmed_now():
        try:
            services.animal_mark_deceased(
                animal=animal, actor=request.user, on=timezone.localdate(), **form.action_data
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(
                request, _("%(animal)s recorded as deceased.") % {"animal": animal.name}
            )
            return redirect(animal)
    return render(
        request,
        "licensing/registry/deceased_confirm.html",
        {"animal": animal, "form": form, "awaiting": form.awaiting_confirmation()},
        status=200 if form.is_valid() else 400,
    )


@role_required(*STAFF_ROLES)
def animal_photo(request, pk):
    animal = get_in_jurisdiction(Animal.objects, request.user, pk=pk)
    if not animal.photo:
        raise Http404
    return upload_response(animal.photo, download_name=f"animal-{animal.pk}-photo")


@role_required(*STAFF_ROLES)
def vaccination_create(request, animal_pk):
    animal = get_in_jurisdiction(Animal.objects.select_related("owner"), request.user, pk=animal_pk)
    form = VaccinationForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.vaccination_record(
                animal=animal, actor=request.user, on=timezone.localdate(), **form.cleaned_data
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Rabies vaccination recorded."))
            return redirect(animal)
    return render(
        request, "licensing/registry/vaccination_form.html", {"form": form, "animal": animal}
    )


@role_required(*STAFF_ROLES)
def vaccination_certificate(request, pk):
    vaccination = (
        in_user_cities(RabiesVaccination.objects, request.user, field="animal__jurisdiction")
        .filter(pk=pk)
        .first()
    )
    if vaccination is None or not vaccination.certificate:
        raise Http404
    return upload_response(
        vaccination.certificate, download_name=f"rabies-certificate-{vaccination.pk}"
    )
