"""in a real browser: an administrator of North Branch only asks
for the city's data export, downloads the archive and finds the city's license in it
and nothing of Glencoe; then makes a read-API integration without the personal-data
scope, copies the token shown once, and a call with it reads the city's license, gets
owners without names and a 404 for Glencoe's records; revoking it ends its calls.
axe passes on every page on the way.

Rules: REC-01 (the license and its receipt are the city's records), NB Sec. 6-63."""

import csv
import io
import json
import zipfile

import pytest
import requests
import time_machine
from playwright.sync_api import expect

from base.roles import ADMINISTRATOR
from tests.api.helpers import NOW, city_records
from tests.conftest import make_user
from tests.e2e.conftest import axe_violations

GL_LAST = "Zzglencoe"


@pytest.fixture
def world(north_branch, glencoe, administrator, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    with time_machine.travel(NOW, tick=True):
        nb = city_records(
            north_branch, administrator, first="Nora", last="Lindqvist", street="12 Elm St"
        )
        gl = city_records(glencoe, administrator, first="Gus", last=GL_LAST, street="9 Oak Ave")
        admin = make_user("adele", ADMINISTRATOR, [north_branch], first_name="Adele")
        yield nb, gl, admin


def _accessible(page):
    violations = axe_violations(page)
    assert not violations, f"axe on {page.url}: {violations}"


def _menu(page, name):
    page.get_by_role("navigation", name="Main").get_by_role("link", name=name).click()


@pytest.mark.django_db(transaction=True)
def test_the_administrator_exports_the_city_and_reads_it_through_the_api(
    world, page, login_as, live_server
):
    nb, gl, admin = world
    login_as(admin)

    # The export: one city, so no choice of cities; written, then downloaded.
    _menu(page, "Data export")
    _accessible(page)
    page.get_by_role("button", name="Export the data").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Data export")
    write_now = page.get_by_role("button", name="Write it now")
    if write_now.count():
        write_now.click()
    expect(page.get_by_role("link", name="Download the archive")).to_be_visible()
    _accessible(page)
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the archive").click()
    archive = zipfile.ZipFile(download.value.path())
    manifest = json.loads(archive.read("manifest.json"))
    assert [c["slug"] for c in manifest["cities"]] == ["north-branch"]
    licenses = list(
        csv.DictReader(io.StringIO(archive.read("data/licensing.license.csv").decode()))
    )
    assert [row["id"] for row in licenses] == [str(nb.license.pk)]
    assert licenses[0]["number"] == str(nb.license.number)
    owners = archive.read("data/licensing.owner.csv").decode()
    assert "Lindqvist" in owners
    assert not any(
        GL_LAST in archive.read(name).decode("utf-8", "replace")
        for name in archive.namelist()
        if name.endswith(".csv")
    )

    # The integration: licenses and owners, no personal data.
    _menu(page, "API integrations")
    _accessible(page)
    page.get_by_role("link", name="New integration").click()
    _accessible(page)
    page.get_by_role("textbox", name="Name").fill("Finance export")
    page.get_by_label("Dog licenses").check()
    page.get_by_label("Owners (ids and non-personal fields)").check()
    page.get_by_role("button", name="Create the integration and show its token").click()
    _accessible(page)
    token = page.get_by_label("Token").input_value()
    assert len(token) >= 32

    api = f"{live_server.url}/api/v1"
    bearer = {"Authorization": f"Bearer {token}"}
    listed = requests.get(f"{api}/licenses/", headers=bearer, timeout=30)
    assert listed.status_code == 200
    assert [r["id"] for r in listed.json()["results"]] == [nb.license.pk]
    owner = requests.get(f"{api}/owners/{nb.owner.pk}/", headers=bearer, timeout=30).json()
    assert "Lindqvist" not in json.dumps(owner)
    assert "12 Elm" not in json.dumps(owner)
    for endpoint, pk in (("licenses", gl.license.pk), ("owners", gl.owner.pk)):
        assert (
            requests.get(f"{api}/{endpoint}/{pk}/", headers=bearer, timeout=30).status_code == 404
        )
    # Not a scope it was given.
    assert requests.get(f"{api}/receipts/", headers=bearer, timeout=30).status_code == 403

    # Revoked: its calls end.
    page.get_by_role("link", name="I have copied it: show the integration").click()
    _accessible(page)
    page.get_by_label("Why").fill("Finance moved to a new system")
    page.get_by_role("button", name="Revoke").click()
    expect(page.get_by_text("Finance moved to a new system")).to_be_visible()
    assert requests.get(f"{api}/licenses/", headers=bearer, timeout=30).status_code in (401, 403)
