"""Charts drawn on the server as SVG markup: no script, no inline style (the CSP forbids
both). Colors and sizes are SVG presentation attributes (``fill``, ``x``, ``width``),
which are not CSS; the page puts the same numbers in a table beside the chart.

The chart names itself with ``<title>`` and ``<desc>`` (``role="img"`` and
``aria-labelledby`` point at them), and each bar carries its own ``<title>`` with the
category, series and value, which a pointer shows and a screen reader can read.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

# Colors distinguishable for the common color-vision deficiencies (Okabe-Ito), each at
# least 3:1 against white as WCAG 1.4.11 asks of graphical objects.
PALETTE = ("#0a4fb5", "#b35806", "#146c43", "#8e2c7c", "#595f64", "#9a6b00")

WIDTH = 720
HEIGHT = 300
MARGIN_LEFT = 44
MARGIN_RIGHT = 12
MARGIN_TOP = 12
MARGIN_BOTTOM = 64  # category labels, then the legend
TICKS = 4


@dataclass(frozen=True)
class Series:
    """One series of a bar chart: its label and a value per category."""

    label: str
    values: Sequence[int | float]


def _nice_top(largest: float) -> int:
    """The axis top: the smallest multiple of TICKS at least ``largest`` (at least TICKS)."""
    top = max(int(-(-largest // 1)), 1)
    return -(-top // TICKS) * TICKS


@dataclass(frozen=True)
class _Layout:
    """Where things go: the plot area, the axis top, the width of a group and a bar."""

    categories: Sequence[str]
    series: Sequence[Series]

    @property
    def plot_w(self) -> float:
        return WIDTH - MARGIN_LEFT - MARGIN_RIGHT

    @property
    def plot_h(self) -> float:
        return HEIGHT - MARGIN_TOP - MARGIN_BOTTOM

    @property
    def base_y(self) -> float:
        return MARGIN_TOP + self.plot_h

    @property
    def top(self) -> int:
        return _nice_top(max((v for s in self.series for v in s.values), default=0))

    @property
    def group_w(self) -> float:
        return self.plot_w / max(len(self.categories), 1)

    @property
    def bar_w(self) -> float:
        return self.group_w * 0.8 / max(len(self.series), 1)


def bar_chart_svg(
    *,
    title: str,
    desc: str,
    categories: Sequence[str],
    series: Sequence[Series],
    element_id: str,
) -> SafeString:
    """A grouped bar chart: for each category, one bar per series (zero-height for zero).

    ``element_id`` makes the ids of the ``<title>`` and ``<desc>`` unique on the page.
    Every text is escaped; the result is safe markup for a template.
    """
    if any(len(s.values) != len(categories) for s in series):
        raise ValueError("Every series needs one value per category.")
    layout = _Layout(categories, series)
    parts = [
        _opening(title, desc, element_id),
        *_value_axis(layout),
        *_bars(layout),
        _baseline(layout),
        _legend(layout),
        mark_safe("</svg>"),  # noqa: S308 - a constant closing tag
    ]
    return mark_safe("".join(parts))  # noqa: S308 - every part above is escaped


def _opening(title: str, desc: str, element_id: str) -> SafeString:
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {} {}" '
        'width="100%" role="img" aria-labelledby="{}-title {}-desc">'
        '<title id="{}-title">{}</title><desc id="{}-desc">{}</desc>',
        WIDTH,
        HEIGHT,
        element_id,
        element_id,
        element_id,
        title,
        element_id,
        desc,
    )


def _value_axis(layout: _Layout):
    """Gridlines with their numbers."""
    for tick in range(TICKS + 1):
        y = layout.base_y - layout.plot_h * tick / TICKS
        yield format_html(
            '<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="#d0d4d8" stroke-width="1"/>'
            '<text x="{}" y="{}" font-size="11" text-anchor="end" fill="#212529">{}</text>',
            MARGIN_LEFT,
            WIDTH - MARGIN_RIGHT,
            _num(y),
            _num(y),
            MARGIN_LEFT - 6,
            _num(y + 4),
            layout.top * tick // TICKS,
        )


def _bars(layout: _Layout):
    """Each category's group of bars, then its label under the axis."""
    for i, category in enumerate(layout.categories):
        group_x = MARGIN_LEFT + layout.group_w * i + layout.group_w * 0.1
        for j, s in enumerate(layout.series):
            height = layout.plot_h * s.values[i] / layout.top
            yield format_html(
                '<rect class="bar" x="{}" y="{}" width="{}" height="{}" fill="{}">'
                "<title>{}, {}: {}</title></rect>",
                _num(group_x + layout.bar_w * j),
                _num(layout.base_y - height),
                _num(max(layout.bar_w - 1, 1)),
                _num(height),
                PALETTE[j % len(PALETTE)],
                category,
                s.label,
                s.values[i],
            )
        yield format_html(
            '<text x="{}" y="{}" font-size="11" text-anchor="middle" fill="#212529">{}</text>',
            _num(MARGIN_LEFT + layout.group_w * (i + 0.5)),
            layout.base_y + 16,
            category,
        )


def _baseline(layout: _Layout) -> SafeString:
    return format_html(
        '<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="#212529" stroke-width="1"/>',
        MARGIN_LEFT,
        WIDTH - MARGIN_RIGHT,
        layout.base_y,
        layout.base_y,
    )


def _legend(layout: _Layout) -> SafeString:
    """One row under the category labels: a swatch and the series' label each."""
    legend_w = layout.plot_w / max(len(layout.series), 1)
    return format_html_join(
        "",
        '<rect x="{}" y="{}" width="12" height="12" fill="{}"/>'
        '<text x="{}" y="{}" font-size="12" fill="#212529">{}</text>',
        (
            (
                _num(MARGIN_LEFT + legend_w * j),
                HEIGHT - 22,
                PALETTE[j % len(PALETTE)],
                _num(MARGIN_LEFT + legend_w * j + 16),
                HEIGHT - 12,
                s.label,
            )
            for j, s in enumerate(layout.series)
        ),
    )


def _num(value: float) -> str:
    """A coordinate with at most one decimal, no trailing zeros."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text
