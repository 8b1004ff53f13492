from django.apps import AppConfig


class RabiesConfig(AppConfig):
    name = "rabies"
    verbose_name = "Bites and rabies quarantine"

    def ready(self):
        from base import sections

        from .sections import animal_bites

        sections.register("licensing.animal_detail", "rabies", animal_bites, order=20)
