from django.apps import AppConfig


class ImpoundConfig(AppConfig):
    name = "impound"
    verbose_name = "Impoundment"
