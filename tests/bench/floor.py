"""The floor under the clerk's pages, for `make bench-web`.

Two pages that do what every staff page of this project does before its own work, and
nothing more: the request passes the whole middleware (the session and the user from
the cache, the second factor, privacy headers, the ordinance's rules read once, CSP,
history, allauth, axes), the view checks the role and the city and reads one license in
one query. ``layout`` renders it in the site's layout (``base.html``: header,
navigation for the user's roles, footer); ``plain`` in a page the size of the bare
site's. Measured side by side with the bare page like the real ones, they say how much
of the goal a page can reach before it shows anything of its own.

Served only by bench-web's gunicorn (``tests.bench.floor_settings``), never by the app.
"""

from django.shortcuts import render
from django.urls import path

from base.access import get_in_jurisdiction, role_required
from base.roles import STAFF_ROLES
from config.urls import urlpatterns as app_urlpatterns
from licensing.models import License


@role_required(*STAFF_ROLES)
def layout(request, pk):
    license = get_in_jurisdiction(License.objects, request.user, pk=pk)
    return render(request, "bench/floor_layout.html", {"license": license})


@role_required(*STAFF_ROLES)
def plain(request, pk):
    license = get_in_jurisdiction(License.objects, request.user, pk=pk)
    return render(request, "bench/floor_plain.html", {"license": license})


urlpatterns = [
    path("bench-floor/layout/<int:pk>/", layout, name="bench_floor_layout"),
    path("bench-floor/plain/<int:pk>/", plain, name="bench_floor_plain"),
    *app_urlpatterns,
]
