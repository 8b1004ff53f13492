"""Complaints in admin: read only, scoped to the administrator's cities (they are made
and changed by the services and their pages)."""

from django.contrib import admin

from base.admin_scoping import CityScopedAdminMixin
from ordinance.admin import ReadOnlyAdminMixin

from .models import Complaint


@admin.register(Complaint)
class ComplaintAdmin(CityScopedAdminMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("pk", "jurisdiction", "kind", "status", "address_line", "received_at")
    list_filter = ("status", "kind", "jurisdiction")
    search_fields = ("address_line", "complainant_name", "narrative")
    date_hierarchy = "received_at"
    list_select_related = ("jurisdiction",)
