"""HTML template -> PDF with WeasyPrint, offline.

City networks and CI are offline, and an official document must not depend on what a
remote server answers at print time: the URL fetcher allows only ``data:`` URIs and
files under the project's static folders, and any refused or failed fetch stops the
rendering instead of printing a document with a part missing.
"""

import re
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from weasyprint import CSS, HTML
from weasyprint.urls import URLFetcher

from .models import PageSize
from .snapshots import thaw

# Paper, not ordinance values: a US Letter sheet and an 80 mm receipt roll.
PAGE_WIDTHS = {PageSize.LETTER: "8.5in", PageSize.RECEIPT: "80mm"}
LETTER_HEIGHT = "11in"
# A receipt is laid out on a long strip first, then cut to the length of its content.
RECEIPT_PROBE_HEIGHT = "2000mm"

_PAGE_SIZE_META = re.compile(r'<meta\s+name="document-page-size"\s+content="([a-z]+)"')
_TEMPLATE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_./-]*\.html$")


class DocumentRenderError(RuntimeError):
    """The document could not be rendered (bad template name, refused resource)."""


def _static_roots() -> list[Path]:
    roots = [Path(d).resolve() for d in settings.STATICFILES_DIRS]
    return [*roots, Path(settings.STATIC_ROOT).resolve()]


class LocalOnlyFetcher(URLFetcher):
    """Fetch ``data:`` URIs and files under static/ only; everything else is refused."""

    def __init__(self):
        super().__init__(
            allowed_protocols=("data", "file"), allow_redirects=False, fail_on_errors=True
        )

    def fetch(self, url, headers=None):
        if url.lower().startswith("file:"):
            path = Path(self._file_path(url)).resolve()
            if not any(path.is_relative_to(root) for root in _static_roots()):
                raise ValueError(f"Documents may only use files under static/: {url}")
        elif not url.lower().startswith("data:"):
            raise ValueError(f"Documents may not fetch from the network: {url}")
        return super().fetch(url, headers)

    @staticmethod
    def _file_path(url):
        from urllib.request import url2pathname

        return url2pathname(url.split("?", 1)[0].split("#", 1)[0].removeprefix("file:"))


def _base_url() -> str:
    return Path(settings.STATICFILES_DIRS[0]).resolve().as_uri() + "/"


def render_html(*, template: str, snapshot: dict, page_size: str | None = None) -> str:
    if not _TEMPLATE_NAME.match(template) or ".." in template:
        raise DocumentRenderError(f"Not a document template name: {template!r}")
    context = {**thaw(snapshot), "page_size": page_size or ""}
    # The same snapshot prints the same way whatever request or task renders it.
    with timezone.override(settings.TIME_ZONE), translation.override(settings.LANGUAGE_CODE):
        return render_to_string(f"documents/{template}", context)


def declared_page_size(html: str) -> str:
    """The size the template declares (base_receipt.html says "receipt"), else Letter."""
    match = _PAGE_SIZE_META.search(html)
    if match and match.group(1) in PageSize.values:
        return match.group(1)
    return PageSize.LETTER


def _page_css(width: str, height: str) -> CSS:
    # A user stylesheet with !important: it wins over whatever the template's @page says.
    return CSS(string=f"@page {{ size: {width} {height} !important; }}")


def _layout(html: str, width: str, height: str):
    try:
        return HTML(string=html, base_url=_base_url(), url_fetcher=LocalOnlyFetcher()).render(
            stylesheets=[_page_css(width, height)]
        )
    except BaseException as exc:  # FatalURLFetchingError derives from BaseException
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        raise DocumentRenderError(str(exc)) from exc


def _content_height_px(document) -> float | None:
    """Height of the laid-out content plus page margins, if it fits on one page."""
    if len(document.pages) != 1:
        return None
    page_box = document.pages[0]._page_box
    root = page_box.children[0]
    return page_box.margin_top + root.margin_height() + page_box.margin_bottom


def html_to_pdf(html: str, page_size: str) -> bytes:
    width = PAGE_WIDTHS[PageSize(page_size)]
    if page_size == PageSize.RECEIPT:
        probe = _layout(html, width, RECEIPT_PROBE_HEIGHT)
        height = _content_height_px(probe)
        if height is None:  # longer than the probe strip: keep it paged
            return probe.write_pdf()
        # Round up to a whole px so the last line is never pushed to a second page.
        return _layout(html, width, f"{int(height) + 2}px").write_pdf()
    return _layout(html, width, LETTER_HEIGHT).write_pdf()


def render_pdf(*, template: str, snapshot: dict, page_size: str | None = None):
    """(pdf bytes, page size used) for a snapshot."""
    html = render_html(template=template, snapshot=snapshot, page_size=page_size)
    size = page_size or declared_page_size(html)
    if size not in PageSize.values:
        raise DocumentRenderError(f"Unknown page size: {size!r}")
    return html_to_pdf(html, size), size
