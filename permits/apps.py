from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "permits"
    verbose_name = "Permits"

    def ready(self):
        # Importing these registers the navigation entry, the sweeps and upcoming deadlines.
        from . import nav, sweeps  # noqa: F401
