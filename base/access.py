"""Deny by default: every view declares the roles that may use it.

``role_required`` marks a function view (and ``RoleRequiredMixin`` a class view) with
``allowed_roles``; a test walks every URL pattern and fails on a view without one.
Anonymous users are sent to the login page; a logged-in user of another role gets 403.
"""

from functools import wraps
from urllib.parse import urlsplit

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404


def role_required(*roles):
    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not request.user.has_role(*roles):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        wrapped.allowed_roles = frozenset(roles)
        return wrapped

    return decorator


def public(view):
    """Mark a view that anyone may use (the login page)."""
    view.allowed_roles = None
    view.is_public = True
    return view


class RoleRequiredMixin:
    allowed_roles: tuple[str, ...] = ()

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.has_role(*self.allowed_roles):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


def may_open(user, url: str) -> bool:
    """Whether the user's roles may open this address of ours: a link is offered only
    where it would not answer 403. Unknown addresses: no."""
    from django.urls import Resolver404, resolve

    try:
        match = resolve(urlsplit(url).path)
    except Resolver404:
        return False
    for view in (match.func, getattr(match.func, "view_class", None)):
        if getattr(view, "is_public", False):
            return True
        roles = getattr(view, "allowed_roles", None)
        if roles:
            return user.has_role(*roles)
    return False


def in_user_cities(queryset, user, field: str = "jurisdiction"):
    """The one scoping of a queryset to the cities a staff user serves (none for anyone
    else). ``field`` is the path to the city when it is not the row's own
    (``"case__jurisdiction"``), or a record's several cities (``"jurisdictions"``: then
    a row serving two of them comes once)."""
    scoped = queryset.filter(**{f"{field}__in": user.jurisdiction_ids})
    many = queryset.model._meta.get_field(field.split("__")[0]).many_to_many
    return scoped.distinct() if many else scoped


def get_in_jurisdiction(queryset, user, **lookup):
    """Fetch a jurisdiction-scoped object for staff: 404 when it is not theirs to see."""
    found = in_user_cities(queryset, user).filter(**lookup)
    if lookup.keys() == {"pk"}:  # one row or none: no ORDER BY to build
        obj = next(iter(found.order_by()[:1]), None)
    else:
        obj = found.first()
    if obj is None:
        raise Http404
    return obj
