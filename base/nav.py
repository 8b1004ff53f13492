"""Navigation by role: each app registers its entries in AppConfig.ready()."""

from dataclasses import dataclass

from django.urls import NoReverseMatch, reverse


@dataclass(frozen=True)
class NavItem:
    label: str
    url_name: str
    roles: frozenset[str]
    order: int


_items: list[NavItem] = []


def register(label: str, url_name: str, *, roles, order: int = 100) -> None:
    item = NavItem(label, url_name, frozenset(roles), order)
    if item not in _items:
        _items.append(item)


def items_for(user) -> list[tuple[str, str, str]]:
    """(label, url, url_name) for the entries this user's roles may use."""
    entries = []
    for item in sorted(_items, key=lambda i: (i.order, i.label)):
        if user.has_role(*item.roles):
            try:
                entries.append((item.label, reverse(item.url_name), item.url_name))
            except NoReverseMatch:
                continue
    return entries
