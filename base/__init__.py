"""The bottom of the dependency graph (architecture.md): what every app needs to decorate a
view or add to a page, with no models and no import of any app of ours.

- ``roles``: the four roles and the permissions each role's group holds;
- ``access``: ``role_required``, ``RoleRequiredMixin``, ``public``, ``get_in_jurisdiction``;
- ``nav``: the menu, filled by each app in ``AppConfig.ready()``;
- ``sections``: page sections, so an app above can fill a section of a page of an app below.
"""
