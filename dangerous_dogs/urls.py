app_name = "dangerous_dogs"

urlpatterns: list = []
