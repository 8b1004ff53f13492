"""Bounded dates: base.dates, and every date field of every form."""

import importlib
import re
from datetime import date, datetime
from pathlib import Path

import django_filters
import pytest
import time_machine
from django import forms
from django.contrib import admin
from django.test import RequestFactory
from django.urls import reverse

from base import dates

ROOT = Path(__file__).resolve().parent.parent.parent
APPS = ("base", "ordinance", "accounts", "notices", "licensing", "impound", "rabies")
APPS += ("dangerous_dogs", "permits")
SKIP_PARTS = {"migrations", "management", "tests"}


def project_modules():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if SKIP_PARTS & set(parts):
                continue
            yield ".".join(p for p in parts if p != "__init__")


def project_classes(base):
    found = set()
    for name in project_modules():
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, base)
                and value.__module__.split(".")[0] in APPS
            ):
                found.add(value)
    return sorted(found, key=lambda c: f"{c.__module__}.{c.__qualname__}")


def unbounded(fields) -> list[str]:
    return [
        name
        for name, field in fields.items()
        if isinstance(field, forms.DateField | forms.DateTimeField | forms.SplitDateTimeField)
        and not isinstance(field, dates.BoundedMixin)
    ]


def test_every_date_field_of_every_form_class_is_bounded():
    classes = project_classes(forms.BaseForm)
    assert len(classes) > 50, classes  # the walk found the project's forms
    bad = {
        f"{c.__module__}.{c.__qualname__}": unbounded(c.base_fields)
        for c in classes
        if unbounded(c.base_fields)
    }
    assert not bad, f"use base.dates.DateField / DateTimeField with a kind: {bad}"


def test_every_date_filter_is_bounded():
    filtersets = project_classes(django_filters.FilterSet)
    assert filtersets
    bad = [
        f"{fs.__qualname__}.{name}"
        for fs in filtersets
        for name, f in fs.base_filters.items()
        if issubclass(f.field_class, forms.DateField | forms.DateTimeField)
        and not issubclass(f.field_class, dates.BoundedMixin)
    ]
    assert not bad, bad


# A field a form adds in __init__ is not among its class's fields: the source is read too.
UNBOUNDED_SOURCE = re.compile(r"\bforms\.(DateField|DateTimeField|SplitDateTimeField)\(")


def test_no_form_builds_an_unbounded_date_field_in_its_code():
    bad = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if UNBOUNDED_SOURCE.search(line):
                    bad.append(f"{path.relative_to(ROOT)}:{number}")
    assert not bad, bad


@pytest.mark.django_db
def test_every_admin_form_bounds_its_dates():
    from accounts.models import User

    reverse("admin:index")  # the URLconf is loaded: config.urls sets the admin site up
    request = RequestFactory().get("/admin/")
    request.user = User(is_superuser=True, is_staff=True, username="root")
    bad = {}
    for model, model_admin in admin.site._registry.items():
        form = model_admin.get_form(request)
        if unbounded(form.base_fields):
            bad[model.__name__] = unbounded(form.base_fields)
    assert not bad, bad


# --- the field itself ----------------------------------------------------------------


@pytest.fixture
def today():
    with time_machine.travel(datetime(2026, 12, 2, 10, 0), tick=False):
        yield date(2026, 12, 2)


class Sample(forms.Form):
    happened = dates.PastDateField()
    born = dates.BirthDateField(required=False)
    due = dates.DateField(required=False)
    at = dates.PastDateTimeField(required=False)


@pytest.mark.parametrize(
    "data, field",
    [
        ({"happened": "0001-01-01"}, "happened"),
        ({"happened": "1969-12-31"}, "happened"),
        ({"happened": "2026-12-03"}, "happened"),
        ({"happened": "2026-01-01", "born": "1969-12-31"}, "born"),
        ({"happened": "2026-01-01", "born": "2027-01-01"}, "born"),
        ({"happened": "2026-01-01", "due": "2101-01-01"}, "due"),
        ({"happened": "2026-01-01", "due": "9999-12-31"}, "due"),
        ({"happened": "2026-01-01", "at": "9999-12-31 23:59"}, "at"),
        ({"happened": "2026-01-01", "at": "0001-01-01 00:00"}, "at"),
        ({"happened": "2026-01-01", "at": "2026-12-03 00:01"}, "at"),
    ],
)
def test_a_date_out_of_its_range_is_a_message_next_to_the_field(today, data, field):
    form = Sample(data)
    assert not form.is_valid()
    [message] = form.errors[field]
    assert "Enter a date" in message
    assert "Jan 1, 1970" in message


def test_the_messages_say_the_range_in_plain_words(today):
    form = Sample({"happened": "1969-12-31", "born": "1969-12-31", "due": "2101-01-01"})
    assert not form.is_valid()
    assert form.errors["happened"] == ["Enter a date between Jan 1, 1970 and today."]
    assert form.errors["born"] == ["Enter a date of birth between Jan 1, 1970 and today."]
    assert form.errors["due"] == ["Enter a date between Jan 1, 1970 and Dec 31, 2100."]
    form = Sample({"happened": "2026-12-03", "born": "9999-12-31", "due": "0001-01-01"})
    assert not form.is_valid()
    assert form.errors["happened"] == [
        "The date cannot be in the future. Enter a date between Jan 1, 1970 and today."
    ]
    assert form.errors["born"] == [
        "The date of birth cannot be in the future. "
        "Enter a date of birth between Jan 1, 1970 and today."
    ]
    assert form.errors["due"] == ["Enter a date between Jan 1, 1970 and Dec 31, 2100."]


def test_the_edges_are_accepted(today):
    form = Sample(
        {
            "happened": "1970-01-01",
            "born": "2026-12-02",
            "due": "2100-12-31",
            "at": "2026-12-02 23:59",
        }
    )
    assert form.is_valid(), form.errors


def test_the_range_is_the_inputs_min_and_max_and_follows_the_day():
    with time_machine.travel(datetime(2026, 12, 2, 10, 0), tick=False):
        form = Sample()
        html = str(form["happened"])
    assert 'type="date"' in html and 'min="1970-01-01"' in html and 'max="2026-12-02"' in html
    assert form.fields["due"].widget.attrs["max"] == "2100-12-31"
    assert form.fields["at"].widget.attrs == {"min": "1970-01-01T00:00", "max": "2026-12-02T23:59"}
    with time_machine.travel(datetime(2027, 3, 1, 10, 0), tick=False):
        later = Sample()  # the same class, a form made another day
    assert later.fields["happened"].widget.attrs["max"] == "2027-03-01"


def test_an_unknown_kind_fails_when_the_form_is_defined():
    with pytest.raises(ValueError):
        dates.DateField(kind="someday")
