"""The page-section registry (base.sections) and its template tag."""

import copy
import re

import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse

from base import sections
from tests.licensing.factories import AnimalFactory

PAGE = "tests.page"


@pytest.fixture(autouse=True)
def _registry():
    """Each test starts from the sections the apps registered and leaves them so."""
    saved = dict(sections._sections)
    yield
    sections._sections.clear()
    sections._sections.update(saved)


@pytest.fixture
def templates_dir(tmp_path, settings):
    """A folder the template engine looks in first (assigning TEMPLATES resets the engine)."""
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [tmp_path, *templates[0]["DIRS"]]
    settings.TEMPLATES = templates
    return tmp_path


def provider(template_name, **extra):
    def provide(request, **kwargs):
        return template_name, {**kwargs, **extra}

    return provide


def render(page=PAGE, **context):
    template = Template("{% load page_sections %}[{% page_sections page thing=thing %}]")
    return template.render(Context({"page": page, **context}))


def test_sections_come_in_order_then_by_name():
    sections.register(PAGE, "c", provider("c.html"), order=20)
    sections.register(PAGE, "b", provider("b.html"), order=10)
    sections.register(PAGE, "a", provider("a.html"), order=20)
    sections.register("tests.other_page", "z", provider("z.html"), order=1)
    assert [s.name for s in sections.sections_for(PAGE)] == ["b", "a", "c"]


def test_registering_a_name_again_replaces_it():
    sections.register(PAGE, "a", provider("old.html"), order=10)
    sections.register(PAGE, "a", provider("new.html"), order=5)
    assert sections.sections_to_render(PAGE, None) == [("new.html", {})]


def test_unregister_removes_a_section_and_ignores_an_unknown_one():
    sections.register(PAGE, "a", provider("a.html"))
    sections.unregister(PAGE, "a")
    sections.unregister(PAGE, "never registered")
    assert sections.sections_for(PAGE) == []


def test_a_provider_gets_the_request_and_the_page_arguments_and_may_show_nothing():
    request = RequestFactory().get("/")
    seen = []

    def nothing_for_this_role(request, **kwargs):
        seen.append((request, kwargs))
        return None

    sections.register(PAGE, "hidden", nothing_for_this_role)
    sections.register(PAGE, "shown", provider("shown.html", extra=1))
    assert sections.sections_to_render(PAGE, request, thing="dog") == [
        ("shown.html", {"thing": "dog", "extra": 1})
    ]
    assert seen == [(request, {"thing": "dog"})]


def test_a_page_with_no_sections_renders_nothing():
    assert render(page="tests.no_such_page", thing="x") == "[]"


def test_the_tag_renders_each_section_with_its_own_context_escaped(templates_dir):
    (templates_dir / "one.html").write_text("<p>one: {{ thing }}</p>")
    (templates_dir / "two.html").write_text("<p>two: {{ thing }} {{ page|default:'no page' }}</p>")
    sections.register(PAGE, "two", provider("two.html"), order=2)
    sections.register(PAGE, "one", provider("one.html"), order=1)
    html = render(thing="<b>Rex</b>")
    # In order; escaped; the page's own context ("page") does not leak into a section.
    assert html == (
        "[<p>one: &lt;b&gt;Rex&lt;/b&gt;</p><p>two: &lt;b&gt;Rex&lt;/b&gt; no page</p>]"
    )


def test_a_section_can_hold_a_form_with_the_pages_csrf_token(templates_dir):
    (templates_dir / "form.html").write_text("<form>{% csrf_token %}</form>")
    sections.register(PAGE, "form", provider("form.html"))
    html = render(thing="x", csrf_token="tok123")
    assert 'name="csrfmiddlewaretoken" value="tok123"' in html


@pytest.mark.django_db
def test_the_animal_page_shows_the_sections_the_apps_above_register(client_as, clerk, north_branch):
    animal = AnimalFactory(jurisdiction=north_branch)
    page = client_as(clerk).get(reverse("licensing:animal_detail", args=[animal.pk]))
    headings = re.findall(r'<h2 class="h5" id="([\w-]+)"', page.content.decode())
    # The complaints' case file lists the impound cases with everything else in time
    # order, in place of impound's own table (complaints/apps.py).
    assert headings[-3:] == [
        "casefile-heading",
        "bites-heading",
        "dd-heading",
    ]
    assert [s.name for s in sections.sections_for("licensing.animal_detail")] == [
        "species",  # the species table's class (permits), shown only in Glencoe
        "complaints",
        "rabies",
        "dangerous_dogs",
        "clinics",  # shown only for an animal with a clinic's certificate
    ]
