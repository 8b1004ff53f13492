import pytest

from tests.impound.factories import make_pound


@pytest.fixture
def pound(north_branch, glencoe):
    """The pound serving both cities, open weekdays 8-5 (Minn. Stat. 346.47 counts them)."""
    return make_pound(north_branch, glencoe)
