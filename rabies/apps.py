from django.apps import AppConfig

# The record pages the parts fill with sections (base.sections), and the modules that do.
PAGES = ("rabies.bite_detail", "rabies.quarantine_detail", "rabies.exposure_detail")


class RabiesConfig(AppConfig):
    name = "rabies"
    verbose_name = "Bites and rabies quarantine"

    def ready(self):
        from base import sections

        # Importing these registers the sweeps, the upcoming deadlines and the nav entry.
        from . import nav, sweeps  # noqa: F401
        from .sections import animal_bites
        from .views import bites, exposures, quarantines, vaccinations

        sections.register("licensing.animal_detail", "rabies", animal_bites, order=20)
        for module in (bites, quarantines, exposures, vaccinations):
            for page, name, provider, order in module.SECTIONS:
                assert page in PAGES or page.startswith("licensing."), page
                sections.register(page, name, provider, order=order)
