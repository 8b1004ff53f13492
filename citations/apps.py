from django.apps import AppConfig


class CitationsConfig(AppConfig):
    name = "citations"
    verbose_name = "Citations"

    def ready(self):
        from base import sections

        # Importing these registers the navigation entry, the sweep and the deadline.
        from . import nav, sweeps  # noqa: F401
        from .sections import animal_citations

        sections.register("licensing.animal_detail", "citations", animal_citations, order=20)
