from django.apps import AppConfig


class ImpoundConfig(AppConfig):
    name = "impound"
    verbose_name = "Impoundment"

    def ready(self):
        from base import sections

        from . import nav  # noqa: F401  (registers the navigation entry)
        from .sections import animal_impounds
        from .views import cases, dispositions, notices, records, redemption

        sections.register("licensing.animal_detail", "impound", animal_impounds, order=10)
        for module in (cases, notices, redemption, dispositions, records):
            for name, provider, order in module.SECTIONS:
                sections.register("impound.case_detail", name, provider, order=order)
