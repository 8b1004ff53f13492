"""Dangerous-dog pages, one module per part of the work; each module has ``urlpatterns``
and may list ``SECTIONS``, (name, provider, order) for the case page
(``dangerous_dogs.case_detail``, base.sections), which ``apps.py`` registers."""
