"""Issued documents in Django admin: read-only, never added, changed or deleted here."""

from django.contrib import admin

from .models import IssuedDocument


@admin.register(IssuedDocument)
class IssuedDocumentAdmin(admin.ModelAdmin):
    list_display = ("issued_at", "jurisdiction", "kind", "number", "title", "issued_by", "voids")
    list_filter = ("jurisdiction", "kind")
    search_fields = ("number", "title")
    date_hierarchy = "issued_at"
    list_select_related = ("jurisdiction", "issued_by", "voids")
    actions = None  # no "delete selected"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
