"""Success messages that link to what they announce: "receipt 1043
issued" is only useful to a clerk who can open and print receipt 1043 from it."""

from django.contrib import messages
from django.utils.html import format_html
from django.utils.translation import gettext as _


def success_with_receipt(request, message: str, receipt) -> None:
    """``message`` (plain text, escaped here) followed by a link to the receipt's page,
    where it is printed. Django's message storage keeps the markup safe across the
    redirect."""
    change = receipt.change_due
    if change is not None:  # cash: what was handed over and given back
        message = f"{message} " + _("Cash tendered $%(t)s; change due $%(c)s.") % {
            "t": receipt.amount_tendered,
            "c": change,
        }
    messages.success(
        request,
        format_html(
            '{} <a href="{}">{}</a>',
            message,
            receipt.get_absolute_url(),
            _("Open and print receipt %(n)s") % {"n": receipt.number},
        ),
    )
