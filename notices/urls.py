app_name = "notices"

urlpatterns: list = []
