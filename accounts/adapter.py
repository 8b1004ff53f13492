"""django-allauth's hooks for this city's residents.

Anyone may sign up, and what they get is the resident role and nothing more: no staff
flag, no jurisdictions, no permissions. Their animals show only once a clerk's owner
record is linked to the account (licensing/services/linking.py).
"""

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth.models import Group
from django.db import transaction

from base.roles import RESIDENT


class ResidentAccountAdapter(DefaultAccountAdapter):
    @transaction.atomic
    def save_user(self, request, user, form, commit=True):
        user = super().save_user(request, user, form, commit=commit)
        if commit:
            # Explicit, whatever a form might have carried in: a resident is no staff.
            user.is_staff = user.is_superuser = False
            user.save(update_fields=["is_staff", "is_superuser"])
            user.groups.set([Group.objects.get(name=RESIDENT)])
            user.jurisdictions.clear()
        return user
