from django.apps import AppConfig


class DangerousDogsConfig(AppConfig):
    name = "dangerous_dogs"
    verbose_name = "Dangerous dogs"
