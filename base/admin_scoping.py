"""Django admin follows the city rules (architecture.md "no trace of
other cities").

An administrator serves some cities (``user.jurisdiction_ids``); in admin they see and
change only those cities' rows: lists, change pages, search, filters, autocomplete and
history. ``CityScopedAdminMixin`` does it for a model with a jurisdiction;
``lock_unscoped_admins`` makes every other registered admin (Celery beat's schedules,
Axes' attempts, auth's groups: rows of the whole installation) superuser-only, so a
model registered later without a scope is closed by default, not open.
"""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Q


def served(request) -> frozenset[int]:
    return request.user.jurisdiction_ids


class ServedCityFilter(admin.SimpleListFilter):
    """The jurisdiction filter, offering only the cities the administrator serves."""

    title = "city"
    parameter_name = "city"

    def lookups(self, request, model_admin):
        field = model_admin.model._meta.get_field(model_admin.jurisdiction_field)
        cities = field.related_model.objects.order_by("name")
        if not request.user.is_superuser:
            cities = cities.filter(pk__in=served(request))
        return [(str(city.pk), str(city)) for city in cities]

    def queryset(self, request, queryset):
        if self.value():
            return queryset.filter(**{f"{self.model_admin_field}_id": self.value()})
        return queryset

    def __init__(self, request, params, model, model_admin):
        self.model_admin_field = model_admin.jurisdiction_field
        super().__init__(request, params, model, model_admin)


class CityScopedAdminMixin:
    """Rows of the administrator's cities only; a superuser sees every city.

    ``jurisdiction_field`` names the foreign key (or many-to-many) to the city.
    ``shared_rows`` is a Q of rows that belong to no city but may be read (a state's
    layer of rules): read-only unless the user is a superuser.
    """

    city_scoped = True
    jurisdiction_field = "jurisdiction"

    def shared_rows(self, request):
        return None

    def scope(self, request) -> Q:
        q = Q(**{f"{self.jurisdiction_field}__in": served(request)})
        shared = self.shared_rows(request)
        return q | shared if shared is not None else q

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(self.scope(request)).distinct()

    def get_list_filter(self, request):
        return [
            ServedCityFilter if name == self.jurisdiction_field else name
            for name in super().get_list_filter(request)
        ]

    def _serves(self, request, obj) -> bool:
        if obj is None or request.user.is_superuser:
            return True
        field = self.model._meta.get_field(self.jurisdiction_field)
        if field.many_to_many:
            return getattr(obj, self.jurisdiction_field).filter(pk__in=served(request)).exists()
        return getattr(obj, f"{self.jurisdiction_field}_id") in served(request)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self._serves(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self._serves(request, obj)

    def has_view_permission(self, request, obj=None):
        if obj is not None and not request.user.is_superuser:
            if not self.get_queryset(request).filter(pk=obj.pk).exists():
                return False
        return super().has_view_permission(request, obj)

    # django-simple-history's history pages look rows up around ``get_queryset``.
    def has_view_history_or_change_history_permission(self, request, obj):
        if not self.has_view_permission(request, obj):
            raise PermissionDenied
        return super().has_view_history_or_change_history_permission(request, obj)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == self.jurisdiction_field and not request.user.is_superuser:
            kwargs["queryset"] = db_field.related_model.objects.filter(pk__in=served(request))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == self.jurisdiction_field and not request.user.is_superuser:
            kwargs["queryset"] = db_field.related_model.objects.filter(pk__in=served(request))
        return super().formfield_for_manytomany(db_field, request, **kwargs)


def _superuser_only(request, *args, **kwargs):
    return request.user.is_active and request.user.is_superuser


def lock_unscoped_admins(site) -> list[str]:
    """Every registered admin that is not city-scoped becomes superuser-only. Returns the
    models locked (for the README and the test)."""
    locked = []
    for model, model_admin in site._registry.items():
        if getattr(model_admin, "city_scoped", False):
            continue
        for name in (
            "has_module_permission",
            "has_view_permission",
            "has_add_permission",
            "has_change_permission",
            "has_delete_permission",
        ):
            setattr(model_admin, name, _superuser_only)
        locked.append(model._meta.label)
    return sorted(locked)
