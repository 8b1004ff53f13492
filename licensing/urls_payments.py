"""Online payments: the clerk's list and the finish of a held payment, mounted
at online/payments/; the resident's pages are in urls_portal, the webhook in urls."""

from django.urls import path

from .views import payments as views

urlpatterns = [
    path("", views.payment_list, name="payment_list"),
    path("<int:pk>/finish/", views.payment_finish, name="payment_finish"),
]
