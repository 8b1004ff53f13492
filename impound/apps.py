from django.apps import AppConfig


class ImpoundConfig(AppConfig):
    name = "impound"
    verbose_name = "Impoundment"

    def ready(self):
        from base import sections

        from .sections import animal_impounds

        sections.register("licensing.animal_detail", "impound", animal_impounds, order=10)
