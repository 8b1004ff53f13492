from django.urls import path

from licensing.views import kennels

urlpatterns = [
    path("kennels/", kennels.kennel_list, name="kennel_list"),
    path("kennels/apply/", kennels.kennel_apply, name="kennel_apply"),
    path("kennels/<int:pk>/", kennels.kennel_detail, name="kennel_detail"),
    path("kennels/<int:pk>/license.pdf", kennels.kennel_document, name="kennel_document"),
    path("kennels/<int:pk>/transfer/", kennels.kennel_transfer, name="kennel_transfer"),
    path("kennels/<int:pk>/<slug:action>/", kennels.kennel_action, name="kennel_action"),
]
