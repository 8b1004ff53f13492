"""The administrator's export pages: who may ask, see and download."""

import pytest
import time_machine
from django.urls import reverse

from base.roles import ADMINISTRATOR
from ordinance.models import Event
from records.models import DataExport, ExportStatus
from tests.conftest import make_user
from tests.records.helpers import NOW, Archive, build_cities


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def cities(north_branch, glencoe, clerk, glencoe_clerk):
    with time_machine.travel(NOW, tick=False):
        return build_cities(north_branch, glencoe, clerk, glencoe_clerk)


@pytest.fixture
def nb_admin(north_branch):
    return make_user("ned", ADMINISTRATOR, [north_branch], first_name="Ned")


@pytest.fixture
def gl_admin(glencoe):
    return make_user("gladys", ADMINISTRATOR, [glencoe], first_name="Gladys")


def _ask(client, user, django_capture_on_commit_callbacks, cities):
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("records:export_list"), {"cities": [c.pk for c in cities]})
    export = DataExport.objects.latest("pk")
    assert response.status_code == 302
    assert response.url == reverse("records:export_detail", args=[export.pk])
    return export


def test_the_administrator_asks_sees_it_ready_and_downloads_it(
    client, cities, nb_admin, django_capture_on_commit_callbacks
):
    export = _ask(client, nb_admin, django_capture_on_commit_callbacks, [cities.nb])
    page = client.get(reverse("records:export_detail", args=[export.pk])).content.decode()
    assert "Ready to download" in page and "licensing.owner" in page
    response = client.get(reverse("records:export_download", args=[export.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    archive = Archive(b"".join(response.streaming_content))
    assert [c["slug"] for c in archive.manifest["cities"]] == [cities.nb.slug]
    assert Event.objects.filter(
        action="records.export.downloaded", actor=nb_admin, jurisdiction=cities.nb
    ).exists()


def test_one_city_administrator_has_no_city_choice(client, cities, nb_admin):
    client.force_login(nb_admin)
    page = client.get(reverse("records:export_list")).content.decode()
    assert 'type="hidden" name="cities"' in page and "Glencoe" not in page


def test_an_administrator_of_another_city_gets_404_for_every_page_of_it(
    client, cities, nb_admin, gl_admin, administrator, django_capture_on_commit_callbacks
):
    export = _ask(client, nb_admin, django_capture_on_commit_callbacks, [cities.nb])
    both = _ask(client, administrator, django_capture_on_commit_callbacks, [cities.nb, cities.gl])
    client.force_login(gl_admin)
    for pk in (export.pk, both.pk):
        for name in ("records:export_detail", "records:export_download"):
            assert client.get(reverse(name, args=[pk])).status_code == 404, (name, pk)
        assert client.post(reverse("records:export_build_now", args=[pk])).status_code == 404
    # The North Branch administrator may not take Glencoe's data through a shared export.
    client.force_login(nb_admin)
    assert client.get(reverse("records:export_download", args=[both.pk])).status_code == 404
    listed = client.get(reverse("records:export_list")).content.decode()
    assert reverse("records:export_detail", args=[export.pk]) in listed
    assert reverse("records:export_detail", args=[both.pk]) not in listed


def test_a_clerk_or_officer_is_refused(client, cities, clerk, officer):
    for user in (clerk, officer):
        client.force_login(user)
        assert client.get(reverse("records:export_list")).status_code == 403
        assert client.post(reverse("records:export_list"), {}).status_code == 403


def test_asking_for_a_city_not_served_is_refused_beside_the_field(client, cities, nb_admin):
    client.force_login(nb_admin)
    response = client.post(reverse("records:export_list"), {"cities": [cities.gl.pk]})
    assert response.status_code == 400 and "Select a valid choice" in response.content.decode()
    response = client.post(reverse("records:export_list"), {"cities": ["\x00"]})
    assert response.status_code == 400
    assert not DataExport.objects.exists()


def test_a_pending_export_can_be_written_on_the_spot_when_no_worker_runs(
    client, cities, nb_admin, monkeypatch
):
    """The broker took the task but no worker runs: the page offers to write it now."""
    from records.tasks import build_export

    monkeypatch.setattr(build_export, "delay", lambda pk: None)  # nobody consumes it
    client.force_login(nb_admin)
    client.post(reverse("records:export_list"), {"cities": [cities.nb.pk]})
    export = DataExport.objects.get()
    assert export.status == ExportStatus.PENDING
    page = client.get(reverse("records:export_detail", args=[export.pk])).content.decode()
    assert "Write it now" in page
    assert client.get(reverse("records:export_download", args=[export.pk])).status_code == 404
    client.post(reverse("records:export_build_now", args=[export.pk]))
    export.refresh_from_db()
    assert export.status == ExportStatus.READY
    assert client.get(reverse("records:export_download", args=[export.pk])).status_code == 200


def test_the_list_reads_a_bounded_number_of_queries(
    client, cities, nb_admin, django_assert_max_num_queries
):
    exports = DataExport.objects.bulk_create(
        DataExport(requested_by=nb_admin, requested_at=NOW, status=ExportStatus.READY)
        for _ in range(300)
    )
    DataExport.jurisdictions.through.objects.bulk_create(
        DataExport.jurisdictions.through(dataexport_id=e.pk, jurisdiction_id=cities.nb.pk)
        for e in exports
    )
    client.force_login(nb_admin)
    client.get(reverse("records:export_list"))
    with django_assert_max_num_queries(10):
        assert client.get(reverse("records:export_list")).status_code == 200
