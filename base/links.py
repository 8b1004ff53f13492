"""Links to many records of one kind on one page without a ``reverse()`` per row.

``reverse()`` walks the URL resolver on every call (about 50 µs here); a results list
of 25 owners and their animals spent a third of its rendering there.
The URL of one record is reversed once per view name and script prefix, with a
placeholder key, and the row's key is put in its place.
"""

from functools import lru_cache

from django.urls import get_script_prefix, get_urlconf, reverse

_PLACEHOLDER = "8675309123"  # digits, so any <int:pk> route accepts it


@lru_cache(maxsize=128)
def _halves(viewname: str, prefix: str, urlconf) -> tuple[str, str]:
    url = reverse(viewname, args=[int(_PLACEHOLDER)], urlconf=urlconf)
    head, found, tail = url.partition(_PLACEHOLDER)
    if not found:  # the route does not carry the key as given: nothing to reuse
        raise ValueError(f"{viewname} does not put its key in the URL")
    return head, tail


def record_url(viewname: str, pk: int) -> str:
    """The same string as ``reverse(viewname, args=[pk])`` for an integer key."""
    head, tail = _halves(viewname, get_script_prefix(), get_urlconf())
    return f"{head}{int(pk)}{tail}"


@lru_cache(maxsize=256)
def _fixed(viewname: str, prefix: str, urlconf) -> str:
    return reverse(viewname, urlconf=urlconf)


def page_url(viewname: str) -> str:
    """``reverse(viewname)`` for a page without arguments (the navigation's entries,
    reversed on every page), worked out once per script prefix."""
    return _fixed(viewname, get_script_prefix(), get_urlconf())
