"""Fuzzing every form: Hypothesis writes the values.

The bad-input sweep (test_bad_input.py) sends a fixed list of bad values. Here, for every
form the pages of tests/test_every_page.py render, as the persona the page was shown to,
Hypothesis generates a value for each field from the field's kind in the HTML (a date,
a number, a choice, text) mixed with odd values: unicode and control characters, very
long strings, huge and negative numbers, 0001-01-01, 9999-12-31, 2026-02-30, empty. It
asserts, post by post:

- no 500 (the test client re-raises what a view lets escape; Hypothesis then shrinks it
  to the smallest set of values that still fails, and that is what the failure shows);
- the answer is a page, a redirect, 400, 403, 404, 405 or 413;
- a refusal saved nothing: when the answer shows a form with errors (or 400/403/404/
  405/413), no table of ours has gained or lost a row, history tables included (so an
  update that was recorded in the history counts too).

The number of posts is bounded so the module fits the suite (``FUZZ_EXAMPLES``, 100 by
default, shared over the forms found; derandomized, so CI sees the same values each run).
Run it big with ``FUZZ_EXAMPLES=3000`` (tests/README.md); the test prints how many posts
it sent and how many 500s it met.
"""

import math
import os
from datetime import date, datetime, timedelta

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_bad_input import SKIP_ACTIONS, FormReader, _forms_in, forms_on
from tests.test_every_page import TODAY, walk_pages

pytestmark = pytest.mark.slow

TOTAL = int(os.environ.get("FUZZ_EXAMPLES", "100"))
OK = {200, 302, 400, 403, 404, 405, 413}
REFUSED = {400, 403, 404, 405, 413}
# Rows a refused post may write: the session a login makes, axes' record of a failed login,
# a resident's refused try at linking an owner record (kept for the rate limit and the
# clerk's review: licensing.models.LinkAttempt).
NOT_A_SAVE = ("django_session", "axes_", "licensing_linkattempt")

ODD = st.sampled_from(
    [
        "",
        " ",
        "0001-01-01",
        "9999-12-31",
        "2026-02-30",
        "1969-12-31",
        "2101-01-01",
        "0000-00-00",
        "9999-12-31T23:59",
        "0001-01-01T00:00",
        "9999-12-31 23:59:59",
        "-1",
        "0",
        "-99999999999999999999",
        "99999999999999999999999",
        "1e999",
        "NaN",
        "-Infinity",
        "\x00",
        "abc\x00def",
        "\u202e\ufeff\u200b",
        "<script>alert(1)</script>",
        "' OR 1=1 --",
        "9" * 5000,
    ]
)
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=300)
LONG = st.integers(min_value=300, max_value=20_000).map(lambda n: "é" * n)
NUMBER = st.one_of(
    st.integers(min_value=-5, max_value=500),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.decimals(allow_nan=True, allow_infinity=True, places=3),
).map(str)
NEAR = st.dates(min_value=TODAY - timedelta(days=4000), max_value=TODAY + timedelta(days=400))
ANY_DATE = st.dates(min_value=date.min, max_value=date.max)
DATE = st.one_of(NEAR, ANY_DATE).map(date.isoformat)
DATETIME = st.one_of(
    st.datetimes(datetime(TODAY.year - 10, 1, 1), datetime(TODAY.year + 1, 12, 31)),
    st.datetimes(),
).map(lambda moment: moment.strftime("%Y-%m-%dT%H:%M"))


class TypedFormReader(FormReader):
    """FormReader that also keeps each field's input type and a select's options."""

    def handle_starttag(self, tag, attrs):
        super().handle_starttag(tag, attrs)
        a = dict(attrs)
        if self._form is None or not a.get("name"):
            if tag == "option" and self._select and self._form is not None:
                options = self._form["options"][self._select]
                options.append(a.get("value", ""))
                if "selected" in a or len(options) == 1:  # what the browser would send
                    self._form["fields"][self._select] = options[-1]
            return
        self._form.setdefault("types", {})
        self._form.setdefault("options", {})
        if tag == "input":
            self._form["types"][a["name"]] = (a.get("type") or "text").lower()
        elif tag == "select":
            self._form["types"][a["name"]] = "select"
            self._form["options"].setdefault(a["name"], [])
        elif tag == "textarea":
            self._form["types"][a["name"]] = "textarea"


def typed_forms_on(html: str, page_url: str):
    reader = TypedFormReader()
    reader.feed(html)
    plain = list(forms_on(html, page_url))  # the same forms, with url and query resolved
    for form, typed in zip(plain, reader.forms, strict=True):
        form["fields"] = {k: ("" if v is None else v) for k, v in typed["fields"].items()}
        form["types"] = typed.get("types", {})
        form["options"] = typed.get("options", {})
        yield form


def field_values(kind: str, value: str, options: list[str]):
    """A strategy for one field: what the page filled in, a value of its kind, odd ones."""
    typed = {
        "date": DATE,
        "datetime-local": DATETIME,
        "number": NUMBER,
        "checkbox": st.sampled_from(["on", value or "on", "", "off"]),
        "radio": st.sampled_from(options or [value or "on"]),
        "select": st.sampled_from(options) if options else TEXT,
    }.get(kind, TEXT)
    return st.one_of(st.just(value or ""), typed, ODD, TEXT, LONG)


def form_strategy(form):
    names = [n for n in form["fields"] if n != "csrfmiddlewaretoken"]
    return st.fixed_dictionaries(
        {
            name: field_values(
                form["types"].get(name, "text"),
                form["fields"].get(name, ""),
                form["options"].get(name, []),
            )
            for name in names
        }
    )


def row_counts() -> dict[str, int]:
    """Rows in every table of the database, in one query."""
    tables = [
        t
        for t in connection.introspection.table_names(include_views=False)
        if not t.startswith(NOT_A_SAVE)
    ]
    sql = "SELECT " + ", ".join(
        f"(SELECT COUNT(*) FROM {connection.ops.quote_name(t)})" for t in tables
    )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return dict(zip(tables, cursor.fetchone(), strict=True))


def shows_errors(response) -> bool:
    return any(form.errors for form in _forms_in(response.context or []))


class Fuzzer:
    def __init__(self, client):
        self.client, self.sent, self.errors, self.failures = client, 0, 0, []

    def post(self, user, form, data):
        self.client.force_login(user)
        if form["method"] == "get":
            return self.client.get(form["url"], data)
        query = f"?{form['query']}" if form["query"] else ""
        return self.client.post(form["url"] + query, data)

    def check(self, user, form, data):
        before = row_counts() if form["method"] == "post" else None
        self.sent += 1
        try:
            with transaction.atomic():  # a view's database error must not end the test's
                response = self.post(user, form, data)
        except Exception:
            self.errors += 1
            raise
        assert response.status_code in OK, (form["url"], response.status_code)
        if before is not None and (response.status_code in REFUSED or shows_errors(response)):
            after = row_counts()
            changed = {t: (n, after[t]) for t, n in before.items() if after[t] != n}
            assert not changed, (form["url"], "refused, but saved", changed)

    def fuzz(self, user, form, examples: int):
        @settings(
            max_examples=examples,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(data=form_strategy(form))
        def run(data):
            self.check(user, form, data)

        try:
            run()
        except Exception as exc:  # the smallest failing values Hypothesis found
            self.failures.append((user.username, form["method"], form["url"], repr(exc)[:600]))


def first_allowed(users, roles):
    return next((u for u in users if roles is None or u.primary_role in roles), None)


def collect_forms(client, users, world):
    """(user, form) for every form the pages show, each page read once, as the first of
    ``users`` who may open it (the sweep in test_bad_input.py reads each as every role)."""
    found, seen = [], set()
    for _name, url, roles, _expected in walk_pages(world):
        user = first_allowed(users, roles)
        if user is None:
            continue
        client.force_login(user)
        page = client.get(url)
        if page.status_code != 200 or "html" not in page.get("Content-Type", ""):
            continue
        for form in typed_forms_on(page.content.decode(), url):
            key = (form["method"], form["url"], tuple(sorted(form["fields"])))
            if form["url"] in SKIP_ACTIONS or key in seen or not form["fields"]:
                continue
            seen.add(key)
            found.append((user, form))
    return found


def test_every_form_survives_hypothesis_values(
    world, client, clerk, administrator, officer, resident, capsys
):
    """No 500 and nothing saved by a refusal, over every form of every page, as the role
    that sees it; FUZZ_EXAMPLES posts in all (at least one per form)."""
    targets = collect_forms(client, [clerk, officer, administrator, resident], world)
    assert len(targets) > 40, len(targets)  # the walk found the forms
    per_form = max(1, math.ceil(TOTAL / len(targets)))
    fuzzer = Fuzzer(client)
    for user, form in targets:
        fuzzer.fuzz(user, form, per_form)
    with capsys.disabled():
        print(
            f"\nfuzzed {len(targets)} forms: {fuzzer.sent} posts, {fuzzer.errors} 500s, "
            f"{len(fuzzer.failures)} failing forms"
        )
    assert fuzzer.sent >= min(TOTAL, len(targets)), fuzzer.sent
    assert not fuzzer.failures, "\n".join(map(str, fuzzer.failures))


# --- the strategies themselves ---------------------------------------------------------


def test_the_reader_keeps_each_fields_kind_and_options():
    html = """<form method="post" action="/x/"><input type="date" name="on" value="2026-01-02">
    <select name="kind"><option value="a">A</option><option value="b" selected>B</option>
    </select><input type="number" name="n"><textarea name="t"></textarea></form>"""
    [form] = typed_forms_on(html, "/page/")
    assert form["types"] == {"on": "date", "kind": "select", "n": "number", "t": "textarea"}
    assert form["options"] == {"kind": ["a", "b"]}
    assert form["fields"]["kind"] == "b" and form["url"] == "/x/"


def test_the_odd_values_include_the_dates_that_were_500s():
    found = set()

    @settings(max_examples=400, derandomize=True, database=None)
    @given(value=ODD)
    def collect(value):
        found.add(value)

    collect()
    assert {"0001-01-01", "9999-12-31", "2026-02-30", "9999-12-31T23:59"} <= found


@pytest.mark.django_db
def test_the_row_counts_see_a_saved_row_and_its_history(north_branch):
    """What "a refusal saved nothing" rests on: a save shows in the counts."""
    from tests.licensing.factories import OwnerFactory

    before = row_counts()
    OwnerFactory(jurisdiction=north_branch)
    after = row_counts()
    changed = {t for t in before if after[t] != before[t]}
    assert "licensing_owner" in changed
    assert any(t.startswith("licensing_historical") for t in changed), changed
