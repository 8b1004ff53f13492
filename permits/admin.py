"""Permits and exemptions in admin: read only, scoped to the administrator's cities (they
are made and changed by the services and their pages; REC-17)."""

from django.contrib import admin

from base.admin_scoping import CityScopedAdminMixin
from ordinance.admin import ReadOnlyAdminMixin

from .models import HorsePermit, TemporaryPermit, WildExemption


@admin.register(HorsePermit)
class HorsePermitAdmin(CityScopedAdminMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("number", "jurisdiction", "applicant_name", "status", "expires_on")
    list_filter = ("status", "jurisdiction")
    search_fields = ("number", "applicant_name", "legal_description")
    list_select_related = ("jurisdiction",)


@admin.register(TemporaryPermit)
class TemporaryPermitAdmin(CityScopedAdminMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("number", "jurisdiction", "applicant_name", "status", "starts_on", "ends_on")
    list_filter = ("status", "jurisdiction")
    search_fields = ("number", "applicant_name", "show_name")
    list_select_related = ("jurisdiction",)


@admin.register(WildExemption)
class WildExemptionAdmin(CityScopedAdminMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("holder_name", "jurisdiction", "basis", "section", "starts_on", "ended_on")
    list_filter = ("basis", "jurisdiction")
    search_fields = ("holder_name", "evidence")
    list_select_related = ("jurisdiction",)
