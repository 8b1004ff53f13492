"""The search box's narrow copy of each owner.

A very common word ("john") matches thousands of owners. Read from the owner table, each
match costs a visit to a wide row (44 to a page) and four ``UPPER(column) LIKE`` checks;
here it is one upper-cased text per owner with its city and sort keys, a row several
times narrower, read through one trigram index (PostgreSQL, migration 0017).

The rows are derived data, rebuilt from ``licensing_owner`` by one set-based statement
(``OwnerSearch.objects.refresh``): ``Owner.save()`` calls it for its own row, and any
code that writes owners in bulk (``bulk_create``, ``QuerySet.update`` of a name or the
address) calls it with the ids it wrote.
"""

from django.db import connections, models, transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Concat, Upper
from django.db.models.lookups import Lookup

from ordinance.models import Jurisdiction

# What the search reads of an owner: a change to any of these refreshes its row.
SEARCHED_FIELDS = frozenset(
    {"jurisdiction", "jurisdiction_id", "first_name", "last_name", "organization_name"}
    | {"address_line"}
)
# The search text as the database writes it: the city's id (its digits written as
# punctuation, CITY_DIGITS) and "|" first, then the upper-cased names and address. The
# city in the text gives the planner a per-city guess of how common a word is (statistics
# are per column, and a street of one city is in thousands of rows of the other), which
# decides between the walk in name order and the trigram index; the search matches
# "<city>|%WORD%". Punctuation, because pg_trgm makes no trigram of it: digits would put
# every row of the city in the lookup's index scan.
CITY_DIGITS = "!#$&()*+,-"  # 0 to 9; no LIKE wildcard, quote or "|"


def city_code(city_id: int) -> str:
    return str(int(city_id)).translate(str.maketrans("0123456789", CITY_DIGITS))


def _city_code_sql(column: str) -> str:
    sql = f"CAST({column} AS TEXT)"
    for digit, mark in zip("0123456789", CITY_DIGITS, strict=True):
        sql = f"REPLACE({sql}, '{digit}', '{mark}')"
    return sql


TEXT_SQL = (
    f"{_city_code_sql('jurisdiction_id')} || '|' || "
    "UPPER(first_name || ' ' || last_name || ' ' || organization_name || ' ' || address_line)"
)
# Ids per statement: under SQLite's limit of bound parameters, and a short statement.
REFRESH_CHUNK = 2000


class Like(Lookup):
    """``text LIKE pattern``, the pattern an expression with its own wildcards (a city's
    words: ``'!|%' || UPPER('john') || '%'``); PostgreSQL folds it to a constant, which
    the trigram index and the planner's statistics then read."""

    lookup_name = "like"

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} LIKE {rhs} ESCAPE '\\'", [*lhs_params, *rhs_params]

    def as_postgresql(self, compiler, connection):
        # Backslash is PostgreSQL's escape already; an ESCAPE clause would hide the
        # pattern from pg_trgm's index support behind like_escape().
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} LIKE {rhs}", [*lhs_params, *rhs_params]


def like_escaped(word: str) -> str:
    """A word as a LIKE pattern reads it: its wildcards literal."""
    return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def city_words(word, city_ids) -> Q:
    """Rows of these cities whose text holds the word (any case, as the database
    upper-cases): ``word`` is an expression of it escaped (``like_escaped``), so one
    statement serves every word (licensing.selectors)."""
    matches = Q()
    for city in city_ids:
        pattern = Concat(Value(f"{city_code(city)}|%"), Upper(word), Value("%"))
        matches |= Q(Like(F("text"), pattern))
    return matches


class OwnerSearchQuerySet(models.QuerySet):
    def refresh(self, owner_ids) -> int:
        """Rebuild the search rows of these owners from the owner table, set-based: one
        DELETE and one INSERT ... SELECT per chunk of ids. Returns the rows written."""
        ids = sorted({int(pk) for pk in owner_ids})
        written = 0
        with transaction.atomic(using=self.db):
            for start in range(0, len(ids), REFRESH_CHUNK):
                chunk = ids[start : start + REFRESH_CHUNK]
                self.filter(owner_id__in=chunk).delete()
                written += _insert_from_owners(chunk, using=self.db)
        return written

    def refresh_all(self) -> int:
        """Every owner's row (the migration's fill, a repair)."""
        from .registry import Owner

        return self.refresh(Owner.objects.values_list("pk", flat=True).iterator())


class OwnerSearch(models.Model):
    """One owner as the search box reads it: city, sort keys and one search text."""

    owner = models.OneToOneField(
        "licensing.Owner", primary_key=True, on_delete=models.CASCADE, related_name="search_row"
    )
    # The owner's city, copied so the lookup never reads the owner row.
    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.CASCADE, db_index=False, related_name="+"
    )
    # The owner's sort keys, lower case as the search orders them.
    sort_last = models.CharField(max_length=80)
    sort_first = models.CharField(max_length=80)
    sort_org = models.CharField(max_length=160)
    # "<city code>|" and UPPER(first last organization address), one space between: a query
    # word has no space, so it never matches across two fields (TEXT_SQL).
    text = models.TextField()

    objects = OwnerSearchQuerySet.as_manager()

    class Meta:
        default_permissions = ()
        indexes = [
            # A common word: walk the city's owners in name order and stop at the page's
            # 25th match, instead of reading and sorting thousands (PostgreSQL picks this
            # or the trigram index by the word's frequency).
            models.Index(
                fields=["jurisdiction", "sort_last", "sort_first", "sort_org", "owner"],
                name="owner_search_city_name_idx",
            ),
        ]

    def __str__(self):
        return self.text


def _insert_from_owners(owner_ids: list[int], *, using: str) -> int:
    """INSERT ... SELECT of these owners' search rows, in city and name order (a bulk
    load then leaves each city's rows side by side, fewer pages per lookup)."""
    from .registry import Owner

    connection = connections[using]
    quote = connection.ops.quote_name
    search = quote(OwnerSearch._meta.db_table)
    owner = quote(Owner._meta.db_table)
    placeholders = ", ".join(["%s"] * len(owner_ids))
    sql = (
        f"INSERT INTO {search} (owner_id, jurisdiction_id, sort_last, sort_first, sort_org, text) "
        "SELECT id, jurisdiction_id, LOWER(last_name), LOWER(first_name), "
        "LOWER(organization_name), "
        f"{TEXT_SQL} "
        f"FROM {owner} WHERE id IN ({placeholders}) "
        "ORDER BY jurisdiction_id, LOWER(last_name), LOWER(first_name), "
        "LOWER(organization_name), id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, owner_ids)
        return cursor.rowcount
