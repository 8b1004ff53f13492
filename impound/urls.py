app_name = "impound"

urlpatterns: list = []
