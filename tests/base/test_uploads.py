"""Uploads checked whole: the file parses as the type its bytes claim, we
store our copy under a generated name with that type's extension, and serve it back as an
attachment with ``nosniff``.

The PDF/HTML polyglot: a real PDF with an HTML page appended, named ``poly.html``. It is a
readable PDF, so it is accepted, but as what it is: stored as ``<uuid>.pdf`` without the
bytes after the PDF's end, and served as ``application/pdf``, attachment, ``nosniff``, so
no browser renders it as a page of this site. HTML put *before* the PDF is no PDF at all
and is refused.
"""

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader, PdfWriter

from base.uploads import JPEG, PDF, PNG, upload_check
from licensing.models import RabiesVaccination
from tests.licensing.test_registry_views import nb_dog, vaccination_post  # noqa: F401
from tests.upload_files import EXIF_MAKE, EXIF_ORIENTATION, jpeg_bytes, pdf_bytes, png_bytes

CERTIFICATE = (PDF, JPEG, PNG)
PHOTO = (JPEG, PNG)
HTML = b"<html><body><script>alert(document.cookie)</script></body></html>\n"


def check(name, data, types=CERTIFICATE):
    return upload_check(SimpleUploadedFile(name, data), types)


def refusal(name, data, types=CERTIFICATE) -> ValidationError:
    with pytest.raises(ValidationError) as refused:
        check(name, data, types)
    return refused.value


def test_a_real_pdf_is_stored_under_a_generated_name_with_its_own_extension():
    stored = check("Rex's certificate.PDF", pdf_bytes(pages=2))
    assert stored.name.endswith(".pdf") and "Rex" not in stored.name
    assert len(stored.name) == len("0123456789abcdef0123456789abcdef.pdf")
    assert stored.content_type == PDF
    assert len(PdfReader(io.BytesIO(stored.read())).pages) == 2


def test_the_polyglot_named_html_is_stored_as_the_pdf_it_is_without_the_html():
    stored = check("poly.html", pdf_bytes() + HTML)
    assert stored.name.endswith(".pdf") and "poly" not in stored.name
    content = stored.read()
    assert b"<html" not in content and b"<script" not in content
    assert content.endswith(b"%%EOF\n")  # our copy ends at the PDF's own end
    assert len(PdfReader(io.BytesIO(content)).pages) == 1


def test_html_put_before_a_pdf_is_refused_as_no_pdf():
    error = refusal("poly.html", HTML + pdf_bytes())
    assert error.code == "file_type"
    assert "not a PDF or JPEG or PNG file" in error.messages[0]


@pytest.mark.parametrize("cut", ["half", "before_the_end", "last_bytes"])
def test_a_truncated_pdf_is_refused_as_unreadable(cut):
    data = pdf_bytes()
    truncated = {
        "half": data[: len(data) // 2],
        "before_the_end": data[: data.rindex(b"startxref")],
        "last_bytes": data[:-8],
    }[cut]
    error = refusal("cert.pdf", truncated)
    assert error.code == "unreadable"
    assert error.messages == [
        "This PDF file cannot be read: it is damaged or incomplete. "
        "Save or scan it again and choose the new file."
    ]


def test_magic_bytes_alone_no_longer_pass_for_a_pdf():
    assert refusal("cert.pdf", b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n").code == (
        "unreadable"
    )
    assert refusal("cert.pdf", b"%PDF-1.4 signed certificate").code == "unreadable"


def test_an_encrypted_pdf_is_refused_with_what_to_do():
    writer = PdfWriter()
    writer.add_blank_page(width=612, height=792)
    writer.encrypt("secret")
    buffer = io.BytesIO()
    writer.write(buffer)
    error = refusal("cert.pdf", buffer.getvalue())
    assert error.code == "encrypted" and "protected by a password" in error.messages[0]


def test_a_pdf_named_png_is_stored_as_pdf_where_a_pdf_is_accepted():
    assert check("scan.png", pdf_bytes()).name.endswith(".pdf")


def test_a_pdf_named_png_is_refused_where_only_pictures_are_accepted():
    assert refusal("photo.png", pdf_bytes(), PHOTO).code == "file_type"


def test_a_jpeg_named_png_is_stored_as_jpeg():
    stored = check("photo.png", jpeg_bytes(), PHOTO)
    assert stored.name.endswith(".jpg") and stored.content_type == JPEG
    assert Image.open(stored).format == "JPEG"


@pytest.mark.parametrize("pillow_format", ["PNG", "JPEG"])
def test_a_picture_comes_back_without_its_exif_and_turned_upright(pillow_format):
    data = (png_bytes if pillow_format == "PNG" else jpeg_bytes)(
        size=(40, 20), exif={EXIF_MAKE: "Canon", EXIF_ORIENTATION: 6}
    )
    with Image.open(io.BytesIO(data)) as original:
        assert original.getexif()[EXIF_MAKE] == "Canon"
    stored = check(f"dog.{pillow_format.lower()}", data, PHOTO)
    content = stored.read()
    assert b"Canon" not in content and b"Exif" not in content
    with Image.open(io.BytesIO(content)) as image:
        assert image.format == pillow_format
        assert not image.getexif()
        assert image.size == (20, 40)  # orientation 6 applied: it stands upright


@pytest.mark.parametrize("make", [png_bytes, jpeg_bytes])
def test_a_truncated_picture_is_refused_as_unreadable(make):
    data = make(size=(64, 64))
    error = refusal("photo", data[: len(data) // 2], PHOTO)
    assert error.code == "unreadable" and "cannot be read" in error.messages[0]


# 1,600 pixels: over the limit of 1,000 (Pillow only warns) and over twice the limit of
# 700 (Pillow refuses to open it): both are the same refusal.
@pytest.mark.parametrize("limit, shown", [(1000, "1,000"), (700, "700")])
def test_a_picture_over_the_pixel_limit_is_refused_not_decoded(monkeypatch, limit, shown):
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", limit)
    error = refusal("huge.png", png_bytes(size=(40, 40)), PHOTO)
    assert error.code == "too_many_pixels"
    assert error.messages == [
        f"This picture has more than {shown} pixels, too many to open. Send a smaller picture."
    ]


def test_size_and_emptiness_are_checked_before_reading(settings):
    settings.UPLOAD_MAX_BYTES = 100
    assert refusal("cert.pdf", pdf_bytes()).code == "too_large"
    assert refusal("cert.pdf", b"").code == "empty"


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def test_the_polyglot_through_the_counter_form_downloads_as_a_pdf_attachment(
    client_as,
    clerk,
    nb_dog,  # noqa: F811
):
    client = client_as(clerk)
    upload = SimpleUploadedFile("poly.html", pdf_bytes() + HTML, content_type="text/html")
    response = client.post(
        reverse("licensing:vaccination_create", args=[nb_dog.pk]),
        vaccination_post(certificate=upload),
    )
    assert response.status_code == 302
    vaccination = RabiesVaccination.objects.get()
    assert (
        vaccination.certificate.name.endswith(".pdf") and "poly" not in vaccination.certificate.name
    )
    download = client.get(reverse("licensing:vaccination_certificate", args=[vaccination.pk]))
    assert download["Content-Type"] == "application/pdf"
    assert download["X-Content-Type-Options"] == "nosniff"
    assert download["Content-Disposition"] == (
        f'attachment; filename="rabies-certificate-{vaccination.pk}.pdf"'
    )
    assert b"<script" not in b"".join(download.streaming_content)


def test_an_unreadable_file_is_refused_next_to_the_field(client_as, clerk, nb_dog):  # noqa: F811
    data = pdf_bytes()
    upload = SimpleUploadedFile("cert.pdf", data[: len(data) // 2], content_type="application/pdf")
    response = client_as(clerk).post(
        reverse("licensing:vaccination_create", args=[nb_dog.pk]),
        vaccination_post(certificate=upload),
    )
    assert response.status_code == 200
    assert response.context["form"].errors["certificate"] == [
        "This PDF file cannot be read: it is damaged or incomplete. "
        "Save or scan it again and choose the new file."
    ]
    assert not RabiesVaccination.objects.exists()
