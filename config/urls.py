from django.contrib import admin
from django.urls import include, path

from accounts.admin_site import restrict_admin_to_administrators

restrict_admin_to_administrators(admin.site)

urlpatterns = [
    path("", include("accounts.urls")),
    path("rules/", include("ordinance.urls")),
    path("documents/", include("notices.urls")),
    path("", include("licensing.urls")),
    path("impound/", include("impound.urls")),
    path("rabies/", include("rabies.urls")),
    path("dangerous-dogs/", include("dangerous_dogs.urls")),
    path("admin/", admin.site.urls),
]
# Uploaded files (certificates, photos, evidence) are never served from MEDIA_URL: each
# is streamed by a view that checks the user may see the record it belongs to.
