from django.utils.translation import gettext as _
from rest_framework import permissions

from .models import Integration


class IntegrationWithScope(permissions.BasePermission):
    """A token of an active integration holding the view's ``required_scope``; read only."""

    message = _("This integration's token does not have the scope this endpoint needs.")

    def has_permission(self, request, view):
        integration = request.auth
        if not isinstance(integration, Integration):
            return False
        if request.method not in permissions.SAFE_METHODS:
            return False
        return integration.has_scope(view.required_scope)
