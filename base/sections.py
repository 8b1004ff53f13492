"""Page sections: an app above fills a section of a page of an app below (architecture.md).

``licensing`` cannot import ``impound``, yet the animal page shows the animal's impounds.
The page names a place by a string and renders whatever is registered for it::

    {% load page_sections %}
    {% page_sections "licensing.animal_detail" animal=animal %}

and ``impound`` registers in its ``AppConfig.ready()``::

    sections.register("licensing.animal_detail", "impound", animal_impounds, order=10)

A provider is called with the request and the page's keyword arguments and returns
``(template_name, context)``, or None to show nothing (for example to a role that may not
see it). Sections render in ``order``, then by name.
"""

from collections.abc import Callable
from dataclasses import dataclass

Provider = Callable[..., tuple[str, dict] | None]


@dataclass(frozen=True)
class Section:
    page: str
    name: str
    provider: Provider
    order: int


_sections: dict[tuple[str, str], Section] = {}


def register(page: str, name: str, provider: Provider, *, order: int = 100) -> None:
    """Register (or, under the same page and name, replace) a section of a page."""
    _sections[(page, name)] = Section(page, name, provider, order)


def unregister(page: str, name: str) -> None:
    _sections.pop((page, name), None)


def sections_for(page: str) -> list[Section]:
    return sorted(
        (s for s in _sections.values() if s.page == page), key=lambda s: (s.order, s.name)
    )


def sections_to_render(page: str, request, **kwargs) -> list[tuple[str, dict]]:
    """(template_name, context) of each section of ``page`` that has something to show."""
    found = (section.provider(request, **kwargs) for section in sections_for(page))
    return [item for item in found if item is not None]


# Related rows an app above adds to a page's own query (``select_related`` paths), so its
# section reads them without a query of its own: clinics adds the certificate a clinic
# sent to each vaccination of the animal page.
_related: dict[str, list[str]] = {}


def register_related(query: str, path: str) -> None:
    paths = _related.setdefault(query, [])
    if path not in paths:
        paths.append(path)


def related_for(query: str) -> tuple[str, ...]:
    return tuple(_related.get(query, ()))
