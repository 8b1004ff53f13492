"""Issued documents in Django admin: read-only, never added, changed or deleted here."""

from django.contrib import admin

from base.admin_scoping import CityScopedAdminMixin
from ordinance.admin import ReadOnlyAdminMixin

from .models import IssuedDocument


@admin.register(IssuedDocument)
class IssuedDocumentAdmin(CityScopedAdminMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("issued_at", "jurisdiction", "kind", "number", "title", "issued_by", "voids")
    list_filter = ("jurisdiction", "kind")
    search_fields = ("number", "title")
    date_hierarchy = "issued_at"
    list_select_related = ("jurisdiction", "issued_by", "voids")
