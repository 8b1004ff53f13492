import pytest
from django.contrib.auth.models import Group

from base.roles import ALL_ROLES, sync_role_permissions


@pytest.mark.django_db
def test_the_four_role_groups_exist_after_migrate():
    assert set(Group.objects.values_list("name", flat=True)) >= set(ALL_ROLES)


@pytest.mark.django_db
def test_roles_carry_model_permissions_and_residents_none():
    sync_role_permissions()
    perms = {
        g.name: set(g.permissions.values_list("content_type__app_label", "codename"))
        for g in Group.objects.all()
    }
    assert ("ordinance", "view_jurisdiction") in perms["clerk"]
    assert ("ordinance", "change_jurisdiction") not in perms["clerk"]
    assert ("ordinance", "change_jurisdiction") in perms["administrator"]
    assert perms["resident"] == set()


@pytest.mark.django_db
def test_sync_is_idempotent():
    sync_role_permissions()
    before = Group.objects.get(name="administrator").permissions.count()
    sync_role_permissions()
    assert Group.objects.get(name="administrator").permissions.count() == before


def test_user_role_helpers(clerk, officer, administrator, resident):
    assert clerk.has_role("clerk") and not clerk.has_role("resident")
    assert clerk.is_staff_member and not resident.is_staff_member
    assert administrator.primary_role == "administrator"
    assert resident.jurisdiction_ids == frozenset()
    assert len(officer.jurisdiction_ids) == 2
    assert len(clerk.jurisdiction_ids) == 1
