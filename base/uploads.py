"""Uploads checked whole, stored under a name of ours, served as a download.

Every uploaded certificate, photo or evidence file goes through ``upload_check``: the
leading bytes only say which parser to try; the whole file must then parse as that type (a
PDF opens with pypdf and has a page that reads; an image decodes fully with Pillow and is
re-encoded, which drops EXIF and anything hidden after the image data). What is stored is
our copy under a generated name whose extension comes from the type we found, never the
uploader's name, so a PDF/HTML polyglot named ``poly.html`` becomes ``<uuid>.pdf``.

``upload_response`` serves a stored file back: always as an attachment with a generated
file name, the content type its bytes show and ``X-Content-Type-Options: nosniff``, so no
browser renders an upload as a page of this site.
"""

import io
import re
import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import FileResponse, Http404
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from PIL import Image, ImageOps
from pypdf import PdfReader

PDF = "application/pdf"
JPEG = "image/jpeg"
PNG = "image/png"
# Leading bytes of the types we accept: they choose the parser; the parser decides.
SIGNATURES = {PDF: b"%PDF-", JPEG: b"\xff\xd8\xff", PNG: b"\x89PNG\r\n\x1a\n"}
EXTENSIONS = {PDF: "pdf", JPEG: "jpg", PNG: "png"}
TYPE_LABELS = {PDF: "PDF", JPEG: "JPEG", PNG: "PNG"}
PILLOW_FORMATS = {JPEG: "JPEG", PNG: "PNG"}
# The last end-of-file marker; an incremental update appends its own, so the last one ends
# the document and anything after it (an HTML page, say) is not part of it.
PDF_END = re.compile(rb"%%EOF[\r\n]*", re.ASCII)


def sniff_content_type(fileobj) -> str | None:
    """The type the first bytes of a file point to, or None. A hint, not a check."""
    position = fileobj.tell() if hasattr(fileobj, "tell") else 0
    fileobj.seek(0)
    head = fileobj.read(16)
    fileobj.seek(position)
    return next((t for t, sig in SIGNATURES.items() if head.startswith(sig)), None)


def upload_check(upload, allowed_types) -> SimpleUploadedFile:
    """The upload read whole and checked: our copy of it under a generated name, or a
    ``ValidationError`` that the form shows next to the field."""
    _check_size(upload)
    data = _read_all(upload)
    content_type = next((t for t, sig in SIGNATURES.items() if data.startswith(sig)), None)
    if content_type not in allowed_types:
        raise ValidationError(
            _("This file is not a %(types)s file. Choose a scan or photo saved as %(types)s.")
            % {"types": _(" or ").join(TYPE_LABELS[t] for t in allowed_types)},
            code="file_type",
        )
    clean = _pdf_checked(data) if content_type == PDF else _image_reencoded(data, content_type)
    name = f"{uuid.uuid4().hex}.{EXTENSIONS[content_type]}"
    return SimpleUploadedFile(name, clean, content_type=content_type)


def upload_read_text(upload) -> str:
    """A text upload (a CSV of certificates) read whole under the same size
    cap as every upload, decoded as UTF-8 (a byte-order mark from a spreadsheet is
    dropped); a binary file under a text name (an executable renamed ``.csv``) is
    refused as unreadable, next to the field."""
    _check_size(upload)
    data = _read_all(upload)
    try:
        if b"\x00" in data:
            raise UnicodeDecodeError("utf-8", data, 0, 1, "NUL byte")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValidationError(
            _(
                "This file is not a CSV text file (UTF-8). Save the spreadsheet as "
                "“CSV UTF-8” and choose the new file."
            ),
            code="file_type",
        ) from error


def _check_size(upload) -> None:
    if upload.size > settings.UPLOAD_MAX_BYTES:
        raise _too_large(upload.size)
    if upload.size == 0:
        raise ValidationError(_("The file is empty. Choose the file again."), code="empty")


def _too_large(size: int) -> ValidationError:
    return ValidationError(
        _("The file is %(size)s; the largest accepted is %(limit)s.")
        % {"size": filesizeformat(size), "limit": filesizeformat(settings.UPLOAD_MAX_BYTES)},
        code="too_large",
    )


def _read_all(upload) -> bytes:
    upload.seek(0)
    data = upload.read(settings.UPLOAD_MAX_BYTES + 1)
    upload.seek(0)
    if len(data) > settings.UPLOAD_MAX_BYTES:  # the declared size was not the real one
        raise _too_large(len(data))
    return data


def _unreadable(label: str) -> ValidationError:
    return ValidationError(
        _(
            "This %(type)s file cannot be read: it is damaged or incomplete. "
            "Save or scan it again and choose the new file."
        )
        % {"type": label},
        code="unreadable",
    )


def _pdf_checked(data: bytes) -> bytes:
    """The PDF up to its last end-of-file marker, once pypdf has read every page of it."""
    ends = list(PDF_END.finditer(data))
    if not ends:  # cut off before its end: a truncated download or a fake
        raise _unreadable("PDF")
    document = data[: ends[-1].end()]
    try:
        reader = PdfReader(io.BytesIO(document))
        encrypted = reader.is_encrypted
        if not encrypted:
            _read_pages(reader)
    # A parser fed hostile bytes fails in many ways (PdfReadError, KeyError, ValueError,
    # RecursionError, zlib errors): each means the same thing to the person uploading.
    except Exception as error:
        raise _unreadable("PDF") from error
    if encrypted:
        raise ValidationError(
            _(
                "This PDF is protected by a password. Save or print it to a PDF without "
                "a password and choose that file."
            ),
            code="encrypted",
        )
    return document


def _read_pages(reader: PdfReader) -> None:
    if len(reader.pages) == 0:
        raise ValueError("a PDF without pages")
    for page in reader.pages:
        page.mediabox  # noqa: B018 - reading it is the check
        contents = page.get_contents()
        if contents is not None:
            contents.get_data()


def _image_reencoded(data: bytes, content_type: str) -> bytes:
    """The image decoded in full and encoded again in its own format, orientation applied
    and metadata (EXIF, text chunks) left behind. A picture larger than
    ``Image.MAX_IMAGE_PIXELS`` is refused (a decompression bomb), not decoded."""
    try:
        with Image.open(io.BytesIO(data)) as probe:  # reads the header only
            _check_pixels(probe)
            probe.verify()
        with Image.open(io.BytesIO(data)) as image:
            if image.format != PILLOW_FORMATS[content_type]:
                raise ValueError(f"{image.format} is not {content_type}")
            image.load()
            return _encoded(ImageOps.exif_transpose(image), PILLOW_FORMATS[content_type])
    except Image.DecompressionBombError as bomb:  # Pillow's own stop, at twice the limit
        raise _too_many_pixels() from bomb
    except ValidationError:
        raise
    except Exception as error:  # any decoder failure: see _pdf_checked
        raise _unreadable(TYPE_LABELS[content_type]) from error


def _check_pixels(image: Image.Image) -> None:
    if Image.MAX_IMAGE_PIXELS and image.width * image.height > Image.MAX_IMAGE_PIXELS:
        raise _too_many_pixels()


def _too_many_pixels() -> ValidationError:
    return ValidationError(
        _("This picture has more than %(limit)s pixels, too many to open. Send a smaller picture.")
        % {"limit": f"{Image.MAX_IMAGE_PIXELS:,}"},
        code="too_many_pixels",
    )


def _encoded(image: Image.Image, pillow_format: str) -> bytes:
    # Only what drawing the picture needs travels to our copy: colors and transparency.
    kept = {k: image.info[k] for k in ("icc_profile", "transparency") if k in image.info}
    image.info = {}
    if pillow_format == "JPEG" and image.mode not in ("RGB", "L", "CMYK"):
        image = image.convert("RGB")
    options = {"quality": 90} if pillow_format == "JPEG" else {}
    out = io.BytesIO()
    image.save(out, pillow_format, **kept, **options)
    return out.getvalue()


def upload_response(fieldfile, *, download_name: str) -> FileResponse:
    """A stored upload sent as a download: the type its bytes show (never the stored name's
    or the client's claim), ``nosniff``, and ``download_name`` plus that type's extension
    for a file name. 404 when the file is gone."""
    try:
        handle = fieldfile.open("rb")
    except FileNotFoundError as missing:
        raise Http404 from missing
    content_type = sniff_content_type(handle)
    extension = EXTENSIONS.get(content_type, "bin")
    response = FileResponse(
        handle,
        as_attachment=True,
        filename=f"{download_name}.{extension}",
        content_type=content_type or "application/octet-stream",
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response
