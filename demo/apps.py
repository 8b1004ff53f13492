from django.apps import AppConfig


class DemoConfig(AppConfig):
    """An app only so that Django finds the ``demo_data`` management command."""

    name = "demo"
    verbose_name = "Demo data"
