"""A source's cell text read as our values: dates of four shapes with a
date order, combined names, phones with extensions, sex and species words."""

from datetime import date

import pytest

from records.services.imports.values import (
    normalise,
    parse_date,
    parse_sex,
    parse_species,
    split_name,
    split_phone,
)


@pytest.mark.parametrize(
    ("text", "order", "expected"),
    [
        ("2021-03-04", "mdy", date(2021, 3, 4)),
        ("3/4/2021", "mdy", date(2021, 3, 4)),
        ("3/4/2021", "dmy", date(2021, 4, 3)),
        ("4-Mar-2021", "mdy", date(2021, 3, 4)),
        ("04-Mar-21", "dmy", date(2021, 3, 4)),
        ("44259", "mdy", date(2021, 3, 4)),  # an Excel serial day
        ("", "mdy", None),
    ],
)
def test_dates_of_every_shape(text, order, expected):
    assert parse_date(text, order=order) == expected


@pytest.mark.parametrize("text", ["2/30/2021", "13/13/2021", "soon", "123", "99999"])
def test_a_cell_that_is_no_date_says_so(text):
    with pytest.raises(ValueError, match="not a date"):
        parse_date(text)


def test_names_phones_and_words():
    assert split_name("Doe, Jane Q.") == ("Jane Q.", "Doe")
    assert split_name("Jane Doe", order="first_last") == ("Jane", "Doe")
    assert split_name("Doe Jane", order="last_first") == ("Jane", "Doe")
    assert split_phone("(651) 555-0147 ext. 12") == ("651-555-0147", "12")
    assert split_phone("1 651 555 0147 x3") == ("651-555-0147", "3")
    assert split_phone("555-0147") == ("555-0147", "")
    assert parse_sex("FS") == ("female", True)
    assert parse_sex("M") == ("male", None)
    assert parse_species("K-9") == "dog"
    with pytest.raises(ValueError):
        parse_species("lion")
    assert normalise("123 N. Main Street") == normalise("123 north main st")
