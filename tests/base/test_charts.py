"""Server-side SVG bar charts (base.charts): no script, no inline style, named."""

import re

import pytest

from base.charts import Series, bar_chart_svg


def chart(**extra):
    fields = dict(
        title="Impounds <2026>",
        desc="Monthly bars & a table",
        categories=["Jan", "Feb", "Mar"],
        series=[Series("Intakes", [3, 0, 5]), Series("Adoptions", [1, 2, 0])],
        element_id="c1",
    )
    fields.update(extra)
    return bar_chart_svg(**fields)


def test_one_bar_per_category_and_series_each_with_its_title():
    svg = chart()
    bars = re.findall(r'<rect class="bar"[^>]*>(<title>[^<]*</title>)</rect>', svg)
    assert len(bars) == 3 * 2
    assert "<title>Jan, Intakes: 3</title>" in svg
    assert "<title>Mar, Adoptions: 0</title>" in svg


def test_the_chart_is_named_for_assistive_technology_and_escapes_its_text():
    svg = chart()
    assert '<title id="c1-title">Impounds &lt;2026&gt;</title>' in svg
    assert '<desc id="c1-desc">Monthly bars &amp; a table</desc>' in svg
    assert 'role="img" aria-labelledby="c1-title c1-desc"' in svg


def test_no_script_and_no_style_attribute():
    svg = chart()
    assert "<script" not in svg and "style=" not in svg and "<style" not in svg


def test_the_tallest_bar_fills_the_plot_and_a_zero_has_no_height():
    svg = chart(series=[Series("Intakes", [4, 0, 2])])
    heights = [float(h) for h in re.findall(r'class="bar"[^>]* height="([\d.]+)"', svg)]
    assert heights[1] == 0
    assert heights[0] == 2 * heights[2]


def test_an_empty_year_draws_zero_bars_without_dividing_by_zero():
    svg = chart(series=[Series("Intakes", [0, 0, 0])])
    assert svg.count('class="bar"') == 3


def test_a_series_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError):
        chart(series=[Series("Intakes", [1, 2])])
