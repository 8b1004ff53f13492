from django.apps import AppConfig


class RabiesConfig(AppConfig):
    name = "rabies"
    verbose_name = "Bites and rabies quarantine"
