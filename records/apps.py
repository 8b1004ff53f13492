from django.apps import AppConfig


class RecordsConfig(AppConfig):
    name = "records"
    verbose_name = "Records in and out"

    def ready(self):
        from base import sections

        from . import nav, sweeps  # noqa: F401
        from .sections import kennel_imported, license_imported

        sections.register("licensing.license_detail", "records.imported", license_imported)
        sections.register("licensing.kennel_detail", "records.imported", kennel_imported)
