"""Clinics in Django admin: the administrator keeps each clinic's name, address, cities
and veterinarians (with their license numbers); the invitations and deactivations of
its people are on the clinic's page (clinics.views.admin)."""

from django.contrib import admin

from base.admin_scoping import CityScopedAdminMixin

from .models import Clinic, ClinicVeterinarian


class VeterinarianInline(admin.TabularInline):
    model = ClinicVeterinarian
    extra = 1
    can_delete = False  # a veterinarian who left is made inactive: certificates name them


@admin.register(Clinic)
class ClinicAdmin(CityScopedAdminMixin, admin.ModelAdmin):
    jurisdiction_field = "jurisdictions"
    list_display = ("name", "city", "is_active")
    list_filter = ("is_active",)
    search_fields = ("name",)
    filter_horizontal = ("jurisdictions",)
    inlines = [VeterinarianInline]

    def has_delete_permission(self, request, obj=None):
        return False  # deactivated, never deleted
