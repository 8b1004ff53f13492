from django.apps import AppConfig


class ClinicsConfig(AppConfig):
    name = "clinics"
    verbose_name = "Veterinary clinics"

    def ready(self):
        from base import agents, sections

        from . import nav  # noqa: F401
        from .access import clinic_member_acts_for
        from .sections import animal_clinic_certificates, report_links

        # A clinic's person issues the city's receipt for a license sold at the clinic.
        agents.register("clinics", clinic_member_acts_for)

        # The animal page's vaccinations come with the certificate a clinic sent (no query).
        sections.register_related(
            "licensing.animal_detail.vaccinations", "clinic_submission__clinic"
        )
        sections.register(
            "licensing.animal_detail", "clinics", animal_clinic_certificates, order=40
        )
        sections.register("licensing.reports_index", "clinics", report_links, order=20)
