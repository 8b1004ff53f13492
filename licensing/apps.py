from django.apps import AppConfig


class LicensingConfig(AppConfig):
    name = "licensing"
    verbose_name = "Licensing and registry"

    def ready(self):
        from . import (
            nav,  # noqa: F401  (registers the navigation entries)
            wiring,  # noqa: F401  (registers sweeps and upcoming deadlines)
        )
