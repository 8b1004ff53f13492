from django.urls import include, path

from .views.payments import stripe_webhook

app_name = "licensing"

# Each area of the app keeps its own routes (registry, counter, kennels, reports).
urlpatterns = [
    path("", include("licensing.urls_registry")),
    path("", include("licensing.urls_counter")),
    path("", include("licensing.urls_kennels")),
    path("", include("licensing.urls_reports")),
    path("", include("licensing.urls_closeouts")),  # the clerk's close-out
    path("", include("licensing.urls_portal")),
    # Online payments: the clerk's list, and the provider's signed webhook.
    path("online/payments/", include("licensing.urls_payments")),
    path("payments/stripe/webhook/", stripe_webhook, name="stripe_webhook"),
]
