from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (*BaseUserAdmin.fieldsets, ("Service", {"fields": ("title", "jurisdictions")}))
    filter_horizontal = ("groups", "user_permissions", "jurisdictions")
    list_display = ("username", "first_name", "last_name", "email", "is_active")
    list_filter = ("groups", "jurisdictions", "is_active")
