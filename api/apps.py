from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "Read API for the city's other systems"

    def ready(self):
        from . import nav, schema  # noqa: F401
