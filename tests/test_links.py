"""base.links.record_url gives what reverse() gives."""

import pytest
from django.urls import NoReverseMatch, reverse, set_script_prefix

from base.links import record_url


@pytest.mark.parametrize(
    "viewname", ["licensing:owner_detail", "licensing:animal_detail", "licensing:license_detail"]
)
@pytest.mark.parametrize("pk", [1, 42, 8675309123, 10**12])
def test_record_url_is_reverse(viewname, pk):
    assert record_url(viewname, pk) == reverse(viewname, args=[pk])


def test_record_url_follows_the_script_prefix():
    try:
        set_script_prefix("/animal-control/")
        assert record_url("licensing:owner_detail", 7) == reverse(
            "licensing:owner_detail", args=[7]
        )
        assert record_url("licensing:owner_detail", 7).startswith("/animal-control/")
    finally:
        set_script_prefix("/")


def test_record_url_refuses_a_route_without_the_key():
    with pytest.raises(NoReverseMatch):
        record_url("licensing:search", 1)


@pytest.mark.parametrize("viewname", ["licensing:search", "accounts:home", "licensing:reports"])
def test_page_url_is_reverse(viewname):
    from base.links import page_url

    assert page_url(viewname) == reverse(viewname)
