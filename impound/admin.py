"""Pounds (with their weekly hours and closures) and a read-only list of cases, each
scoped to the cities the administrator serves (architecture.md: no trace of others)."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from base.admin_scoping import CityScopedAdminMixin, served
from ordinance.admin import ReadOnlyAdminMixin

from .models import ImpoundCase, Pound, PoundClosure, PoundHours


class PoundHoursInline(admin.TabularInline):
    model = PoundHours
    extra = 0


class PoundClosureInline(admin.TabularInline):
    model = PoundClosure
    extra = 0


@admin.register(Pound)
class PoundAdmin(CityScopedAdminMixin, SimpleHistoryAdmin):
    jurisdiction_field = "jurisdictions"

    list_display = ("name", "address", "designation", "designated_from", "designated_until")
    search_fields = ("name", "address", "designation")
    filter_horizontal = ("jurisdictions",)
    inlines = [PoundHoursInline, PoundClosureInline]

    def save_related(self, request, form, formsets, change):
        # A city the administrator does not serve stays as it was (the form offers none).
        kept = []
        if change:
            kept = list(
                form.instance.jurisdictions.exclude(pk__in=served(request)).values_list(
                    "pk", flat=True
                )
            )
        super().save_related(request, form, formsets, change)
        if kept:
            form.instance.jurisdictions.add(*kept)


@admin.register(ImpoundCase)
class ImpoundCaseAdmin(CityScopedAdminMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    """Cases are made by intake and changed by their transitions; here they are read."""

    list_display = (
        "number",
        "jurisdiction",
        "status",
        "species",
        "color",
        "ground_label",
        "placed_at",
        "hold_ends_on",
    )
    list_filter = ("status", "jurisdiction")
    search_fields = ("number", "color", "breed", "microchip", "tag_text")
    date_hierarchy = "placed_at"
    list_select_related = ("jurisdiction",)
