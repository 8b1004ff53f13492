from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import RedirectView

from accounts.admin_site import restrict_admin_to_administrators
from base.access import public

restrict_admin_to_administrators(admin.site)


class OldSpellingRedirect(RedirectView):
    permanent = True

    def get_redirect_url(self, *args, **kwargs):
        url = self.request.path.replace("licence", "license")
        query = self.request.META.get("QUERY_STRING", "")
        return f"{url}?{query}" if query else url


urlpatterns = [
    path("", include("accounts.urls")),
    # Residents' sign-up, e-mail confirmation and password reset (django-allauth).
    path("account/", include("accounts.urls_allauth")),
    path("rules/", include("ordinance.urls")),
    path("documents/", include("notices.urls")),
    path("", include("licensing.urls")),
    path("online/", include("licensing.urls_online")),
    path("online/changes/", include("licensing.urls_changes")),
    path("impound/", include("impound.urls")),
    path("permits/", include("permits.urls")),
    path("vets/", include("clinics.urls")),
    path("rabies/", include("rabies.urls")),
    path("dangerous-dogs/", include("dangerous_dogs.urls")),
    path("complaints/", include("complaints.urls")),
    path("citations/", include("citations.urls")),
    path("records/", include("records.urls")),
    path("api/v1/", include("api.urls")),  # the read API (token only)
    path("integrations/", include("api.urls_admin")),  # the administrator's tokens
    path("admin/", admin.site.urls),
]
# Uploaded files (certificates, photos, evidence) are never served from MEDIA_URL: each
# is streamed by a view that checks the user may see the record it belongs to.

# Addresses from before the rename to the ordinance's own word "license": the
# same address in the British spelling answers with a permanent redirect, query kept.
# Public: it only redirects, and the page it names checks the user as always.
urlpatterns.append(
    re_path(
        r"^(?P<old>(?!admin/).*licence.*)$",
        public(OldSpellingRedirect.as_view()),
        name="old_spelling",
    )
)
