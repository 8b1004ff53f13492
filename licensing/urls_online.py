"""The clerk's queue of online applications, mounted at online/."""

from django.urls import path

from .views import review as views

app_name = "online"

urlpatterns = [
    path("", views.review_list, name="review_list"),
    path("<int:pk>/", views.review_detail, name="review_detail"),
    path("<int:pk>/approve/", views.review_approve, name="review_approve"),
    path("<int:pk>/return/", views.review_return, name="review_return"),
    path("<int:pk>/pay/", views.review_pay, name="review_pay"),
    path("<int:pk>/tag-mailed/", views.review_tag_mailed, name="review_tag_mailed"),
    path("tags-to-mail.pdf", views.mailing_list, name="mailing_list"),
    path("tags-to-mail/mailed/", views.mailing_list_mailed, name="mailing_list_mailed"),
]
