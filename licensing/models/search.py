"""The search box's narrow copy of each owner (issue 15, item 1).

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

from ordinance.models import Jurisdiction

# What the search reads of an owner: a change to any of these refreshes its row.
SEARCHED_FIELDS = frozenset(
    {"jurisdiction", "jurisdiction_id", "first_name", "last_name", "organization_name"}
    | {"address_line"}
)
# Ids per statement: under SQLite's limit of bound parameters, and a short statement.
REFRESH_CHUNK = 2000


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
    # UPPER(first last organization address), one space between: a query word has no
    # space, so it never matches across two fields.
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
        "UPPER(first_name || ' ' || last_name || ' ' || organization_name || ' ' || address_line) "
        f"FROM {owner} WHERE id IN ({placeholders}) "
        "ORDER BY jurisdiction_id, LOWER(last_name), LOWER(first_name), "
        "LOWER(organization_name), id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, owner_ids)
        return cursor.rowcount
