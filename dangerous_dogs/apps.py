from django.apps import AppConfig


class DangerousDogsConfig(AppConfig):
    name = "dangerous_dogs"
    verbose_name = "Dangerous dogs"

    def ready(self):
        from base import sections

        from .sections import animal_designations

        sections.register(
            "licensing.animal_detail", "dangerous_dogs", animal_designations, order=30
        )
