from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "permits"
    verbose_name = "Permits"

    def ready(self):
        # Importing these registers the navigation entry, the sweeps and upcoming deadlines.
        from . import nav, sweeps  # noqa: F401
        from .views_register import register_sections

        # The register on the premises page, the species class on the animal page, the
        # link from a wild animal's impound (Subd. 34), and the exemption lookup that
        # licensing's registration check asks (Subd. 32(B), (C)).
        register_sections()
