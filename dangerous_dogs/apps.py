from django.apps import AppConfig


class DangerousDogsConfig(AppConfig):
    name = "dangerous_dogs"
    verbose_name = "Dangerous dogs"

    def ready(self):
        from base import sections

        # Importing these registers the sweeps, the upcoming deadlines and the nav entry.
        from . import compliance_sweeps, later_sweeps, nav, sweeps, upcoming  # noqa: F401
        from .sections import animal_designations
        from .views import (
            appeal,
            cases,
            classification,
            compliance,
            hearing,
            notices,
            owner,
            review,
            seizure,
        )

        sections.register(
            "licensing.animal_detail", "dangerous_dogs", animal_designations, order=30
        )
        modules = (
            cases,
            notices,
            hearing,
            appeal,
            compliance,
            seizure,
            owner,
            review,
            classification,
        )
        for module in modules:
            for name, provider, order in module.SECTIONS:
                sections.register("dangerous_dogs.case_detail", name, provider, order=order)
