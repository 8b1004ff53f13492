from django.apps import AppConfig


class ComplaintsConfig(AppConfig):
    name = "complaints"
    verbose_name = "Complaints"

    def ready(self):
        from base import sections

        from . import (
            nav,  # noqa: F401  (registers the navigation entry)
            sweeps,  # noqa: F401  (registers the follow-up dates as upcoming)
        )
        from .sections import animal_case_file, owner_case_file, premises_case_file, report_links

        # The case file lists the animal's impound cases (number, hold, ground, status)
        # in time order with everything else, in the one query the page can afford, so it
        # replaces impound's table on the animal page (impound is installed before
        # complaints, so its section is registered by now).
        sections.unregister("licensing.animal_detail", "impound")
        sections.register("licensing.animal_detail", "complaints", animal_case_file, order=10)
        sections.register("licensing.owner_detail", "complaints", owner_case_file, order=30)
        sections.register("licensing.premises_detail", "complaints", premises_case_file, order=30)
        sections.register("licensing.reports_index", "complaints", report_links, order=10)
