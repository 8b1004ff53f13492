"""Real files for upload tests: uploads are parsed whole (base/uploads.py),
so a few magic bytes no longer pass for a PDF or a picture."""

import io

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image
from pypdf import PdfWriter

# EXIF tags: the camera's make, and the orientation (6: turn 90 degrees to stand upright).
EXIF_MAKE = 0x010F
EXIF_ORIENTATION = 0x0112


def pdf_bytes(pages: int = 1) -> bytes:
    """A real PDF of blank Letter pages."""
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=612, height=792)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def image_bytes(pillow_format: str, *, size=(4, 4), exif: dict | None = None) -> bytes:
    image = Image.new("RGB", size, (200, 150, 80))
    options = {}
    if exif:
        tags = image.getexif()
        tags.update(exif)
        options["exif"] = tags
    buffer = io.BytesIO()
    image.save(buffer, pillow_format, **options)
    return buffer.getvalue()


def png_bytes(**kwargs) -> bytes:
    return image_bytes("PNG", **kwargs)


def jpeg_bytes(**kwargs) -> bytes:
    return image_bytes("JPEG", **kwargs)


def pdf_upload(name: str = "certificate.pdf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, pdf_bytes(), content_type="application/pdf")


def png_upload(name: str = "photo.png") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, png_bytes(), content_type="image/png")


def jpeg_upload(name: str = "photo.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, jpeg_bytes(), content_type="image/jpeg")
