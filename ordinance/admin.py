from django.contrib import admin

from .models import Event, Jurisdiction


@admin.register(Jurisdiction)
class JurisdictionAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "state", "profile_key")
    prepopulated_fields = {"slug": ("short_name",)}


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("at", "action", "actor", "jurisdiction", "summary")
    list_filter = ("action", "jurisdiction")
    search_fields = ("action", "summary", "subject_id")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
