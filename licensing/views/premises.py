"""The premises page: who keeps what at one address, the dog and cat limit (KEN-01) and,
where the city's species table caps a species per lot, its count against the cap
(Glencoe 701 Subd. 1(R)(3); WLD-02). Apps above add their sections (the permits
register) through ``base.sections``: a city without such rules shows none."""

from django.shortcuts import render
from django.utils import timezone

from base.access import get_in_jurisdiction, role_required
from base.roles import STAFF_ROLES
from licensing.models import AnimalStatus, Premises
from licensing.services.species import premises_caps
from licensing.views.registry import _limits, _multi_city


@role_required(*STAFF_ROLES)
def premises_detail(request, pk):
    premises = get_in_jurisdiction(
        Premises.objects.select_related("jurisdiction"), request.user, pk=pk
    )
    today = timezone.localdate()
    animals = list(
        premises.animals.filter(status=AnimalStatus.ALIVE)
        .select_related("owner")
        .order_by("species", "name", "pk")
    )
    return render(
        request,
        "licensing/registry/premises_detail.html",
        {
            "premises": premises,
            "animals": animals,
            "limits": _limits([premises], today),
            "caps": premises_caps(premises=premises, on=today),  # WLD-02
            "show_city": _multi_city(request.user),
        },
    )
