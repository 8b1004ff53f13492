from django.apps import AppConfig


class ComplaintsConfig(AppConfig):
    name = "complaints"
    verbose_name = "Complaints"

    def ready(self):
        from base import sections

        from . import nav  # noqa: F401  (registers the navigation entry)
        from .sections import animal_complaints, owner_complaints

        sections.register("licensing.animal_detail", "complaints", animal_complaints, order=30)
        sections.register("licensing.owner_detail", "complaints", owner_complaints, order=30)
