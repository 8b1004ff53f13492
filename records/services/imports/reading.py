"""Read an uploaded CSV or XLSX row by row: memory stays flat.

A CSV is decoded as UTF-8 (a byte-order mark dropped) or, failing that, Windows-1252,
the two encodings old systems write; an XLSX is opened read-only with openpyxl, which
streams its sheet. Each row comes out as a dict of header -> text (a spreadsheet date or
number as the cell holds it, for ``values.parse_date``); blank rows are skipped.
"""

import codecs
import csv
import io
import zipfile
from collections.abc import Iterator
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

CSV, XLSX = "csv", "xlsx"
MAX_COLUMNS = 200
MAX_CELL = 2000


def sniff_kind(handle) -> str | None:
    """The file's kind by its bytes, not its name: an XLSX is a ZIP with a workbook in it;
    a CSV is text with no NUL byte whose first line has a separator."""
    handle.seek(0)
    head = handle.read(4096)
    handle.seek(0)
    if head.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(handle) as archive:
                names = set(archive.namelist())
        except zipfile.BadZipFile:
            return None
        finally:
            handle.seek(0)
        return XLSX if "xl/workbook.xml" in names else None
    if not head or b"\x00" in head:
        return None
    text = _decode(head, final=False)
    first = text.splitlines()[0] if text.splitlines() else ""
    return CSV if ("," in first or ";" in first or "\t" in first) else None


def _decode(data: bytes, final=True) -> str:
    try:
        return codecs.getincrementaldecoder("utf-8-sig")().decode(data, final=final)
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def check_file(upload, *, max_bytes: int) -> str:
    """The whole upload checked before it is kept: size, kind by content, and that every
    row reads (a CSV decodes, an XLSX opens and its first sheet streams). Its kind, or a
    ValidationError for the form."""
    if upload.size > max_bytes:
        raise ValidationError(
            _("The file is %(size)s; the most this page takes is %(max)s.")
            % {"size": filesizeformat(upload.size), "max": filesizeformat(max_bytes)},
            code="file_size",
        )
    kind = sniff_kind(upload)
    if kind is None:
        raise ValidationError(
            _("This file is not a CSV or Excel (XLSX) file. Save the sheet as CSV or XLSX."),
            code="file_type",
        )
    try:
        count = sum(1 for _row in iter_rows(upload, kind))
    except (ValueError, KeyError, OSError, csv.Error, zipfile.BadZipFile) as error:
        raise ValidationError(
            _("The file could not be read: %(error)s") % {"error": str(error)[:200]},
            code="unreadable",
        ) from error
    finally:
        upload.seek(0)
    if count == 0:
        raise ValidationError(_("The file has a header row but no rows under it."), code="empty")
    return kind


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat() if not value.time() else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()[:MAX_CELL]


def _headers(raw) -> list[str]:
    headers, seen = [], {}
    for i, value in enumerate(raw[:MAX_COLUMNS]):
        name = _cell(value).replace("\x00", "") or _("Column %(n)s") % {"n": i + 1}
        seen[name] = seen.get(name, 0) + 1
        headers.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return headers


def _csv_rows(handle) -> Iterator[list[str]]:
    handle.seek(0)
    head = handle.read(65536)
    handle.seek(0)
    try:
        head.decode("utf-8-sig")
        encoding = "utf-8-sig"
    except UnicodeDecodeError as error:
        # A cut in the middle of a character at the end of the sample is still UTF-8.
        encoding = "utf-8-sig" if error.start >= len(head) - 3 else "cp1252"
    text = io.TextIOWrapper(handle, encoding=encoding, errors="replace", newline="")
    try:
        sample = text.read(8192)
        text.seek(0)
        try:
            dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
        except csv.Error:
            dialect = csv.excel
        yield from csv.reader(text, dialect)
    finally:
        text.detach()


def _xlsx_rows(handle) -> Iterator[list]:
    from openpyxl import load_workbook

    handle.seek(0)
    book = load_workbook(handle, read_only=True, data_only=True)
    try:
        sheet = book.worksheets[0]
        yield from sheet.iter_rows(values_only=True)
    finally:
        book.close()


def iter_rows(handle, kind: str) -> Iterator[dict[str, str]]:
    """Each data row as header -> cell text, in file order, blank rows skipped."""
    rows = _xlsx_rows(handle) if kind == XLSX else _csv_rows(handle)
    headers = None
    for raw in rows:
        if headers is None:
            headers = _headers(list(raw))
            continue
        cells = [_cell(v) for v in list(raw)[: len(headers)]]
        if not any(cells):
            continue
        cells += [""] * (len(headers) - len(cells))
        yield dict(zip(headers, cells, strict=True))


def read_headers(handle, kind: str) -> list[str]:
    rows = _xlsx_rows(handle) if kind == XLSX else _csv_rows(handle)
    for raw in rows:
        handle.seek(0)
        return _headers(list(raw))
    return []
