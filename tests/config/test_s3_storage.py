"""Media shared by several web hosts.

With ``MEDIA_S3_BUCKET`` set, uploads and archived documents live on an S3-compatible
object store, so a second web host serves what the first one stored. Here moto runs as a
real S3 server on a free local port; one app process (web host A, its own empty media
folder) issues a document through the issuing service and stores a rabies certificate,
and another process (web host B, another empty media folder) downloads both through the
app's permission-checked views. The bytes match what is in the bucket and what the
archive's SHA-256 says, and neither host wrote a file to its local disk.
"""

import hashlib
import json
import logging
import os
import re
import sqlite3
import subprocess
import sys
import tarfile
import urllib.request
from datetime import date
from pathlib import Path
from urllib.parse import quote

import boto3
import pytest
from django.core.files.base import ContentFile
from django.db import connection
from moto.server import ThreadedMotoServer
from storages.backends.s3 import S3Storage

from base.backup import BackupError, Database, backup, restore
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory

ROOT = Path(__file__).resolve().parents[2]
BUCKET = "city-media"
PREFIX = "north-branch"
KEYS = {"MEDIA_S3_ACCESS_KEY_ID": "testing-key", "MEDIA_S3_SECRET_ACCESS_KEY": "testing-secret"}

# Web host A: issue two receipts with the same number (so the same file name) through the
# real issuing service (rendered by WeasyPrint, archived with its SHA-256), and store a
# rabies certificate on its vaccination record.
HOST_A = """
import json, sys
from decimal import Decimal
import django
django.setup()
from django.core.files.base import ContentFile
from django.core.files.storage import storages
from accounts.models import User
from licensing.models import RabiesVaccination
from notices.services import document_issue

clerk = User.objects.get(username="carol")
documents = [
    document_issue(
        kind="receipt",
        template="sample_receipt.html",
        context={
            "received_from": "Rita Resident",
            "lines": [{"description": "Dog license", "amount": Decimal(total), "citation": ""}],
            "total": Decimal(total),
            "paid_with": "cash",
        },
        jurisdiction=clerk.jurisdictions.get(),
        actor=clerk,
        title="Receipt",
        number="NB-2026-00001",
    )
    for total in ("30.00", "45.00")
]
vaccination = RabiesVaccination.objects.get(pk=int(sys.argv[1]))
vaccination.certificate.save("certificate.pdf", ContentFile(sys.stdin.buffer.read()))
print(json.dumps({
    "storage": type(storages["default"]).__name__,
    "documents": [[d.pk, d.file.name, d.sha256] for d in documents],
    "certificate_file": vaccination.certificate.name,
}))
"""

# Web host B: the same clerk downloads them through the app's views.
HOST_B = """
import json, sys
from pathlib import Path
import django
django.setup()
from django.test import Client
from django.urls import reverse
from accounts.models import User

client = Client()
client.force_login(User.objects.get(username="carol"))
vaccination, folder, *documents = sys.argv[1:]
urls = {f"document-{pk}": reverse("notices:document_pdf", args=[pk]) for pk in documents}
urls["certificate"] = reverse("licensing:vaccination_certificate", args=[vaccination])
out = {}
for name, url in urls.items():
    response = client.get(url)
    body = b"".join(response) if response.streaming else response.content
    Path(folder, name).write_bytes(body)
    out[name] = {"status": response.status_code, "type": response["Content-Type"]}
print(json.dumps(out))
"""


@pytest.fixture
def s3():
    """A moto S3 server on a free local port, with an empty bucket."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # a line per request otherwise
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    # moto keeps its buckets in the process: start from none whatever ran before.
    urllib.request.urlopen(urllib.request.Request(f"{endpoint}/moto-api/reset", method="POST"))
    client = boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=KEYS["MEDIA_S3_ACCESS_KEY_ID"],
        aws_secret_access_key=KEYS["MEDIA_S3_SECRET_ACCESS_KEY"],
    )
    client.create_bucket(Bucket=BUCKET)
    yield endpoint, client
    server.stop()


def shared_database_url(tmp_path) -> str:
    """The test database, as a URL the two app processes can both open. PostgreSQL: the
    test database itself (the test's rows are committed). SQLite: the in-memory test
    database copied to a file, which both processes then share."""
    entry = connection.settings_dict
    if connection.vendor == "postgresql":
        user = quote(entry["USER"] or "", safe="")
        password = f":{quote(entry['PASSWORD'], safe='')}" if entry["PASSWORD"] else ""
        at = f"{user}{password}@" if user else ""
        port = f":{entry['PORT']}" if entry["PORT"] else ""
        return f"postgres://{at}{entry['HOST'] or ''}{port}/{entry['NAME']}"
    connection.ensure_connection()
    copy = sqlite3.connect(tmp_path / "shared.sqlite3")
    with copy:
        connection.connection.backup(copy)
    copy.close()
    return f"sqlite:///{tmp_path / 'shared.sqlite3'}"


def web_host(code, *args, endpoint, database_url, media_root, stdin=b""):
    """One app process with its own (local) media folder, the shared database and the
    shared bucket; returns what it printed, parsed."""
    media_root.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env |= KEYS | {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url,
        "DJANGO_MEDIA_ROOT": str(media_root),
        "MEDIA_S3_BUCKET": BUCKET,
        "MEDIA_S3_ENDPOINT_URL": endpoint,
        "MEDIA_S3_REGION": "us-east-1",
        "MEDIA_S3_PREFIX": PREFIX,
        "MEDIA_S3_ADDRESSING_STYLE": "path",
    }
    result = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()
    return json.loads(result.stdout.decode().strip().splitlines()[-1])


@pytest.mark.django_db(transaction=True)
def test_a_document_stored_by_one_web_host_is_served_by_another(s3, tmp_path, clerk):
    endpoint, bucket = s3
    vaccination = RabiesVaccinationFactory(
        animal=AnimalFactory(jurisdiction=clerk.jurisdictions.get()),
        vaccinated_on=date(2025, 6, 1),
    )
    certificate = b"%PDF-1.4\n% a veterinarian's certificate\n%%EOF\n"
    database_url = shared_database_url(tmp_path)
    media_a, media_b, received = tmp_path / "host-a", tmp_path / "host-b", tmp_path / "got"
    received.mkdir()

    stored = web_host(
        HOST_A,
        vaccination.pk,
        endpoint=endpoint,
        database_url=database_url,
        media_root=media_a,
        stdin=certificate,
    )
    documents = stored["documents"]
    served = web_host(
        HOST_B,
        vaccination.pk,
        received,
        *[pk for pk, _name, _sha256 in documents],
        endpoint=endpoint,
        database_url=database_url,
        media_root=media_b,
    )

    assert stored["storage"] == "S3Storage"
    # Every file is an object in the bucket, under the prefix, and on neither host's disk.
    names = [name for _pk, name, _sha256 in documents] + [stored["certificate_file"]]
    keys = {o["Key"] for o in bucket.list_objects_v2(Bucket=BUCKET)["Contents"]}
    assert keys == {f"{PREFIX}/{name}" for name in names}
    assert not any(media_a.rglob("*")) and not any(media_b.rglob("*"))

    def in_bucket(name):
        return bucket.get_object(Bucket=BUCKET, Key=f"{PREFIX}/{name}")["Body"].read()

    # The second receipt of the same number got a name of its own: the first archived
    # file was not replaced.
    (_, first, _), (_, second, _) = documents
    # (The hosts run on the real clock, so the year folder is whatever year it is.)
    assert re.fullmatch(r"documents/north-branch/\d{4}/receipt-NB-2026-00001\.pdf", first)
    assert re.fullmatch(r"documents/north-branch/\d{4}/receipt-NB-2026-00001_\w+\.pdf", second)

    # Host B served each archived PDF exactly as host A archived it, hash and all.
    for pk, name, sha256 in documents:
        pdf = (received / f"document-{pk}").read_bytes()
        assert served[f"document-{pk}"] == {"status": 200, "type": "application/pdf"}
        assert pdf.startswith(b"%PDF") and pdf == in_bucket(name)
        assert hashlib.sha256(pdf).hexdigest() == sha256
    assert documents[0][2] != documents[1][2]

    # And the certificate, as the download the upload view always sends.
    assert served["certificate"] == {"status": 200, "type": "application/pdf"}
    assert (received / "certificate").read_bytes() == certificate
    assert in_bucket(stored["certificate_file"]) == certificate


def bucket_storage(endpoint, location):
    return S3Storage(
        bucket_name=BUCKET,
        endpoint_url=endpoint,
        region_name="us-east-1",
        access_key=KEYS["MEDIA_S3_ACCESS_KEY_ID"],
        secret_key=KEYS["MEDIA_S3_SECRET_ACCESS_KEY"],
        location=location,
        addressing_style="path",
        file_overwrite=False,
    )


def test_a_backup_takes_the_files_from_the_bucket_and_a_restore_puts_them_back(s3, tmp_path):
    """``manage.py backup`` reads the media through the storage, so with the files in a
    bucket the archive holds them, and a restore puts them into a bucket again."""
    endpoint, _client = s3
    media = bucket_storage(endpoint, PREFIX)
    files = {
        "documents/north-branch/2026/receipt-NB-2026-00001.pdf": b"%PDF-1.7 receipt",
        "certificates/2026/certificate.pdf": b"%PDF-1.4 certificate",
    }
    for name, data in files.items():
        assert media.save(name, ContentFile(data)) == name
    database = tmp_path / "db.sqlite3"
    sqlite3.connect(database).close()

    archive = backup(db=Database("sqlite", str(database)), media=media, output_dir=tmp_path)

    with tarfile.open(archive) as tar:
        manifest = json.load(tar.extractfile("manifest.json"))
        assert {name: tar.extractfile(f"media/{name}").read() for name in files} == files
    assert manifest["media"] == {
        name: {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
        for name, data in files.items()
    }

    elsewhere = bucket_storage(endpoint, "restored")
    restore(archive=archive, db=Database("sqlite", str(tmp_path / "new.sqlite3")), media=elsewhere)
    for name, data in files.items():
        with elsewhere.open(name, "rb") as handle:
            assert handle.read() == data

    # A file already in the bucket with other contents is refused, not overwritten.
    media.delete(next(iter(files)))
    media.save(next(iter(files)), ContentFile(b"%PDF-1.7 something else"))
    with pytest.raises(BackupError, match="other contents"):
        restore(
            archive=archive, db=Database("sqlite", str(tmp_path / "third.sqlite3")), media=media
        )
