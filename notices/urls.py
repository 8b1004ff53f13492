from django.urls import path

from . import views

app_name = "notices"

urlpatterns = [
    path("", views.document_list, name="document_list"),
    path("<int:pk>/", views.document_detail, name="document_detail"),
    path("<int:pk>/pdf/", views.document_pdf, name="document_pdf"),
]
