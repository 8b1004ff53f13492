from django.urls import path

from .views import admin, clerk, clinic, followup, reports

app_name = "clinics"

urlpatterns = [
    # The clinic's own pages (veterinarian role).
    path("", clinic.home, name="home"),
    path("certificates/new/", clinic.certificate_new, name="certificate_new"),
    path("certificates/batch/", clinic.batch_new, name="batch_new"),
    path("certificates/batch/template.csv", clinic.batch_template, name="batch_template"),
    path("certificates/<int:pk>/", clinic.submission_detail, name="submission_detail"),
    path("certificates/<int:pk>/file/", clinic.submission_file, name="submission_file"),
    # The clerk's queue.
    path("queue/", clerk.queue, name="queue"),
    path("queue/<int:pk>/", clerk.review, name="review"),
    path("queue/<int:pk>/confirm/", clerk.confirm, name="confirm"),
    path("queue/<int:pk>/reject/", clerk.reject, name="reject"),
    path("queue/<int:pk>/register/", clerk.register, name="register"),
    # The reports (issue 18, item 5).
    path("reports/certificates/", reports.report_certificates, name="report_certificates"),
    path("reports/match-rate/", reports.report_match_rate, name="report_match_rate"),
    # Vaccinated but unlicensed (issue 18 item 3): the report, the run, its letters, results.
    path("unlicensed/", followup.unlicensed, name="unlicensed"),
    path("unlicensed/run/", followup.unlicensed_run, name="unlicensed_run"),
    path(
        "unlicensed/batches/<int:pk>/letters.pdf",
        followup.unlicensed_batch_pdf,
        name="unlicensed_batch_pdf",
    ),
    path("unlicensed/results/", followup.unlicensed_results, name="unlicensed_results"),
    # The administrator's clinic accounts.
    path("clinics/", admin.clinic_list, name="clinic_list"),
    path("clinics/<int:pk>/", admin.clinic_detail, name="clinic_detail"),
    path("clinics/<int:pk>/invite/", admin.member_invite, name="member_invite"),
    path("members/<int:pk>/deactivate/", admin.member_deactivate, name="member_deactivate"),
]
