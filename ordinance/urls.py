app_name = "ordinance"

urlpatterns: list = []
