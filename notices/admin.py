"""Issued documents in Django admin: read-only, never added, changed or deleted here."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

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
    readonly_fields = ("archived_pdf",)

    @admin.display(description=_("archived PDF"))
    def archived_pdf(self, document):
        # Through the app's view, which checks the user may see it.
        url = reverse("notices:document_pdf", args=[document.pk])
        return format_html('<a href="{}">{}</a>', url, document.download_name)
