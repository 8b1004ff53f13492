"""Found animals, for anyone (IMP-05, REC-04; NB Sec. 6-68; GL Subd. 14).

One page per city and one for every city the installation serves: the animals in the
pound with photo, description, where (street level) and when found, and the claim-by date
and hour with its section. The photo of an animal on the page is public; once the animal
leaves the page (redeemed or disposed of) its photo answers 404 again.
"""

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import path

from base.access import public
from base.uploads import upload_response
from impound.models import ImpoundCase
from impound.services import found as svc
from ordinance.models import Jurisdiction


def _page(request, *, city, cities):
    answer = svc.found_animals(cities)
    return render(
        request,
        "impound/found/found.html",
        {
            "city": city,
            "animals": answer.animals,
            "pounds": answer.pounds,
            "several_cities": city is None,
        },
    )


@public
def found_all(request):
    """Every animal in the pound of every city this installation serves."""
    return _page(request, city=None, cities=list(Jurisdiction.objects.order_by("name")))


@public
def found_city(request, city):
    jurisdiction = get_object_or_404(Jurisdiction, slug=city)
    return _page(request, city=jurisdiction, cities=[jurisdiction])


@public
def found_photo(request, pk):
    """An animal's photo while it is on the found page; 404 otherwise (and for no photo)."""
    case = ImpoundCase.objects.filter(pk=pk).only("pk", "status", "photo").first()
    if case is None or not case.photo or not svc.is_found_public(case):
        raise Http404
    return upload_response(case.photo, download_name=f"found-{case.pk}")


urlpatterns = [
    path("found/", found_all, name="found_all"),
    path("found/<slug:city>/", found_city, name="found_city"),
    path("found/photo/<int:pk>/", found_photo, name="found_photo"),
]
SECTIONS: list = []
