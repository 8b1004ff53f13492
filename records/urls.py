from django.urls import path

from . import views, views_imports

app_name = "records"

urlpatterns = [
    path("exports/", views.export_list, name="export_list"),
    path("exports/<int:pk>/", views.export_detail, name="export_detail"),
    path("exports/<int:pk>/write/", views.export_build_now, name="export_build_now"),
    path("exports/<int:pk>/download/", views.export_download, name="export_download"),
    path("imports/", views_imports.import_list, name="import_list"),
    path("imports/<int:pk>/", views_imports.import_detail, name="import_detail"),
    path("imports/<int:pk>/start/", views_imports.import_start, name="import_start"),
    path("imports/<int:pk>/run/", views_imports.import_run_now, name="import_run_now"),
    path("imports/<int:pk>/progress/", views_imports.import_progress, name="import_progress"),
    path("imports/<int:pk>/cancel/", views_imports.import_cancel_view, name="import_cancel"),
    path("imports/<int:pk>/undo/", views_imports.import_undo_view, name="import_undo"),
    path("imports/<int:pk>/issues.csv", views_imports.import_issues_csv, name="import_issues"),
]
