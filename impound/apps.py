from django.apps import AppConfig


class ImpoundConfig(AppConfig):
    name = "impound"
    verbose_name = "Impoundment"

    def ready(self):
        from base import sections

        # Importing these registers the navigation entry, the sweeps and upcoming deadlines.
        from . import nav, sweeps  # noqa: F401
        from .sections import animal_impounds
        from .services import lost  # noqa: F401  (matches each new intake with lost reports)
        from .views import cases, dispositions, notices, records, redemption
        from .views import lost as lost_views

        sections.register("licensing.animal_detail", "impound", animal_impounds, order=10)
        for module in (cases, notices, redemption, dispositions, records):
            for name, provider, order in module.SECTIONS:
                sections.register("impound.case_detail", name, provider, order=order)
        # Lost reports the animal may answer.
        for name, provider, order in lost_views.SECTIONS:
            sections.register("impound.case_detail", name, provider, order=order)
        self._connect_found_page()

    def _connect_found_page(self):
        """Any change to a case, a pound, its hours or a city: the public found-animals
        page reads afresh (impound.services.found)."""
        from django.db.models.signals import post_delete, post_save

        from ordinance.models import Jurisdiction

        from .models import ImpoundCase, Pound, PoundHours
        from .services.found import forget_found

        for model in (ImpoundCase, Pound, PoundHours, Jurisdiction):
            post_save.connect(forget_found, sender=model, dispatch_uid=f"found-{model.__name__}")
        post_delete.connect(forget_found, sender=PoundHours, dispatch_uid="found-hours-delete")
