from django.urls import path

from licensing.views import reports

urlpatterns = [
    path("tags/lookup/", reports.tag_lookup, name="tag_lookup"),
    path("reports/", reports.report_index, name="reports"),
    path("reports/licenses-issued/", reports.report_issued, name="report_issued"),
    path("reports/revenue/", reports.report_revenue, name="report_revenue"),
    path("reports/tags/", reports.report_tags, name="report_tags"),
    path("reports/expiring/", reports.report_expiring, name="report_expiring"),
    path(
        "reports/expiring/notices.pdf",
        reports.report_expiring_notices,
        name="report_expiring_notices",
    ),
    path(
        "reports/expiring/labels.pdf", reports.report_expiring_labels, name="report_expiring_labels"
    ),
]
