from django.urls import path

from .views import admin, clerk, clinic, consignment, followup, reports, sales, statements

app_name = "clinics"

urlpatterns = [
    # The clinic's own pages (veterinarian role).
    path("", clinic.home, name="home"),
    path("certificates/new/", clinic.certificate_new, name="certificate_new"),
    path("certificates/batch/", clinic.batch_new, name="batch_new"),
    path("certificates/batch/template.csv", clinic.batch_template, name="batch_template"),
    path("certificates/<int:pk>/", clinic.submission_detail, name="submission_detail"),
    path("certificates/<int:pk>/file/", clinic.submission_file, name="submission_file"),
    # Licenses sold at the clinic: the clinic's side.
    path("sales/", sales.sale_list, name="sale_list"),
    path("sales/new/<int:certificate_pk>/", sales.sale_new, name="sale_new"),
    path("sales/<int:pk>/", sales.sale_detail, name="sale_detail"),
    path("sales/<int:pk>/receipt.pdf", sales.sale_receipt, name="sale_receipt"),
    # The city's tags at clinics (clerk, administrator) and the monthly statements.
    path("tags/", consignment.consignment_list, name="consignment_list"),
    path("tags/<int:pk>/", consignment.block_detail, name="block_detail"),
    path("tags/<int:pk>/reconcile/", consignment.block_reconcile, name="block_reconcile"),
    path("tags/balances/", consignment.balances, name="balances"),
    path(
        "statements/<int:clinic_pk>/<int:city_pk>/<int:year>/<int:month>/",
        statements.statement,
        name="statement",
    ),
    path(
        "statements/<int:clinic_pk>/<int:city_pk>/<int:year>/<int:month>/statement.pdf",
        statements.statement_pdf,
        name="statement_pdf",
    ),
    path(
        "statements/<int:clinic_pk>/<int:city_pk>/<int:year>/<int:month>/statement.csv",
        statements.statement_csv,
        name="statement_csv",
    ),
    # The clerk's queue.
    path("queue/", clerk.queue, name="queue"),
    path("queue/<int:pk>/", clerk.review, name="review"),
    path("queue/<int:pk>/confirm/", clerk.confirm, name="confirm"),
    path("queue/<int:pk>/reject/", clerk.reject, name="reject"),
    path("queue/<int:pk>/register/", clerk.register, name="register"),
    # The reports.
    path("reports/certificates/", reports.report_certificates, name="report_certificates"),
    path("reports/match-rate/", reports.report_match_rate, name="report_match_rate"),
    # Vaccinated but unlicensed: the report, the run, its letters, results.
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
