from django.apps import AppConfig


class BaseConfig(AppConfig):
    """Installed only so Django finds the ``page_sections`` template tags; no models."""

    name = "base"
    verbose_name = "Base (roles, access, navigation, page sections)"
