from django.apps import AppConfig


class CitationsConfig(AppConfig):
    name = "citations"
    verbose_name = "Citations"

    def ready(self):
        # Importing these registers the navigation entry, the sweep and the deadline.
        # No section on the animal page yet: it is at its query budget, and the case
        # file lists citations with complaints in one query.
        from . import nav, sweeps  # noqa: F401
