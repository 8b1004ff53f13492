"""Navigation by role: each app registers its entries in AppConfig.ready().

An entry may also depend on the user's cities (``when``): "Issue a license" is offered
only where a city the user serves issues dog licenses. Labels are
marked for translation where they are registered (``gettext_lazy``).
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.urls import NoReverseMatch

from base.links import page_url


@dataclass(frozen=True)
class NavItem:
    label: str
    url_name: str
    roles: frozenset[str]
    order: int
    when: Callable | None = None  # when(user) -> bool: shown only if true


_items: list[NavItem] = []


def register(label, url_name: str, *, roles, order: int = 100, when=None) -> None:
    item = NavItem(label, url_name, frozenset(roles), order, when)
    if item not in _items:
        _items.append(item)
        _items.sort(key=lambda i: (i.order, i.url_name))


def items_for(user) -> list[tuple[str, str, str]]:
    """(label, url, url_name) for the entries this user's roles and cities may use."""
    entries = []
    for item in _items:
        if not user.has_role(*item.roles):
            continue
        if item.when is not None and not item.when(user):
            continue
        try:
            entries.append((item.label, page_url(item.url_name), item.url_name))
        except NoReverseMatch:
            continue
    return entries
