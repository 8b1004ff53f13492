"""Pounds and cases for the impound tests."""

from datetime import time

from impound.models import Pound, PoundHours

WEEKDAY_HOURS = [(day, time(9), time(17)) for day in range(5)]


def make_pound(*jurisdictions, name="County Animal Pound", hours=WEEKDAY_HOURS, **extra):
    """A pound serving these cities, open Monday to Friday 9 to 5 unless told otherwise."""
    from datetime import date

    pound = Pound.objects.create(
        name=name,
        address=extra.pop("address", "400 Kennel Road, Glencoe, MN 55336"),
        designation=extra.pop("designation", "Council Res. 2020-07"),
        designated_from=extra.pop("designated_from", date(2020, 1, 1)),
        **extra,
    )
    pound.jurisdictions.set(jurisdictions)
    PoundHours.objects.bulk_create(
        PoundHours(pound=pound, weekday=day, opens=opens, closes=closes)
        for day, opens, closes in hours
    )
    return pound
