from permits import views, views_register

app_name = views.app_name
urlpatterns = views.urlpatterns + views_register.urlpatterns
