"""Read PDF bytes back in tests: the text a person would read, and the page sizes."""

import io
import re

from pypdf import PdfReader


def pdf_reader(data: bytes) -> PdfReader:
    assert data[:5] == b"%PDF-", "not a PDF"
    return PdfReader(io.BytesIO(data))


def pdf_text(data: bytes) -> str:
    """All pages' text with runs of whitespace collapsed to one space."""
    text = " ".join(page.extract_text() or "" for page in pdf_reader(data).pages)
    return re.sub(r"\s+", " ", text).strip()


def pdf_page_sizes_mm(data: bytes) -> list[tuple[float, float]]:
    """(width, height) of each page in millimetres, rounded to 0.1 mm."""
    points_per_mm = 72 / 25.4
    return [
        (
            round(float(p.mediabox.width) / points_per_mm, 1),
            round(float(p.mediabox.height) / points_per_mm, 1),
        )
        for p in pdf_reader(data).pages
    ]
