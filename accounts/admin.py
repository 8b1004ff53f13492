"""Staff accounts in Django admin, scoped to the administrator's cities.

An administrator sees the staff of the cities they serve, the residents linked to an
owner record there, and accounts not yet given a role or a city (one they just created).
They cannot change their own roles, cities, permissions or superuser flag, grant a city
they do not serve, or make anyone a superuser: only a superuser does that.
"""

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.admin_scoping import served

from . import services
from .models import User

SELF_LOCKED = (
    "groups",
    "jurisdictions",
    "user_permissions",
    "is_superuser",
    "is_staff",
    "is_active",
)
ALWAYS_LOCKED = ("is_superuser", "user_permissions")


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    city_scoped = True
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("Service", {"fields": ("title", "jurisdictions")}),
        ("Two-step verification", {"fields": ("second_factor",)}),
    )
    actions = ["reset_second_factor"]
    filter_horizontal = ("groups", "user_permissions", "jurisdictions")
    list_display = ("username", "first_name", "last_name", "email", "is_active")
    list_filter = ("groups", "is_active")

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        cities = served(request)
        unassigned = Q(jurisdictions__isnull=True, groups__isnull=True, is_superuser=False)
        return qs.filter(
            Q(jurisdictions__in=cities) | Q(owner_records__jurisdiction__in=cities) | unassigned
        ).distinct()

    def get_readonly_fields(self, request, obj=None):
        fields = [*super().get_readonly_fields(request, obj), "second_factor"]
        if request.user.is_superuser:
            return fields
        locked = SELF_LOCKED if obj is not None and obj.pk == request.user.pk else ALWAYS_LOCKED
        return fields + [name for name in locked if name not in fields]

    def has_change_permission(self, request, obj=None):
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False  # a superuser's account is a superuser's to change
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and (obj.is_superuser or obj.pk == request.user.pk):
            return request.user.is_superuser and obj.pk != request.user.pk
        return super().has_delete_permission(request, obj)

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "jurisdictions" and not request.user.is_superuser:
            kwargs["queryset"] = db_field.related_model.objects.filter(pk__in=served(request))
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def save_related(self, request, form, formsets, change):
        # The cities the administrator does not serve stay as they were (the form offers
        # none of them, so saving it would otherwise drop them).
        kept = []
        if change and not request.user.is_superuser and "jurisdictions" in form.cleaned_data:
            kept = list(
                form.instance.jurisdictions.exclude(pk__in=served(request)).values_list(
                    "pk", flat=True
                )
            )
        super().save_related(request, form, formsets, change)
        if kept:
            form.instance.jurisdictions.add(*kept)

    @admin.display(description=gettext_lazy("two-step verification"))
    def second_factor(self, obj):
        device = services.app_device(obj) if obj.pk else None
        if device is None:
            return _("Off")
        left = services.recovery_codes_left(obj)
        return _("On since %(date)s; %(n)d recovery codes left") % {
            "date": date_format(timezone.localtime(device.created_at)),
            "n": left,
        }

    @admin.action(
        description=gettext_lazy("Reset two-step verification (lost phone)"),
        permissions=["change"],
    )
    def reset_second_factor(self, request, queryset):
        """A staff member lost their phone and their recovery codes: their app and codes
        are removed, and their next login asks them to set it up again (administrators)
        or takes the password alone (others). Recorded as an event on the account."""
        done, skipped = [], []
        for user in queryset:
            if user.pk == request.user.pk or not self.has_change_permission(request, user):
                skipped.append(user.username)
            elif services.second_factor_reset(user=user, actor=request.user, via="admin"):
                done.append(user.username)
        if done:
            self.message_user(
                request,
                _("Two-step verification reset for %(names)s.") % {"names": ", ".join(done)},
                messages.SUCCESS,
            )
        if skipped:
            self.message_user(
                request,
                _("Not reset (your own account, or one you may not change): %(names)s.")
                % {"names": ", ".join(skipped)},
                messages.WARNING,
            )
        if not done and not skipped:
            self.message_user(request, _("None of them had two-step verification on."))
