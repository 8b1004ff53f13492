from django.apps import AppConfig


class OrdinanceConfig(AppConfig):
    name = "ordinance"
    verbose_name = "Ordinance rulebook"
