app_name = "licensing"

urlpatterns: list = []
