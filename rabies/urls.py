app_name = "rabies"

urlpatterns: list = []
