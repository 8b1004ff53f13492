from django.apps import AppConfig


class RecordsConfig(AppConfig):
    name = "records"
    verbose_name = "Records in and out"

    def ready(self):
        from . import nav, sweeps  # noqa: F401
