import pytest
from django.db import connection


@pytest.fixture
def case_page_queries():
    """The case page's budget: ten on PostgreSQL, where each part of the page reads its
    tables with one query (dangerous_dogs.selectors); elsewhere (SQLite, the embedded
    default) one query per table, still bounded by the tables, never by the rows."""
    return 10 if connection.vendor == "postgresql" else 22
