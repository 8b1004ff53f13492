"""The cash handed over, on every form that takes money, and the
answers a payment page recalculates its quote from.

Mixed into a payment form that has a ``method`` field: with cash, the amount tendered is
asked for and the receipt shows the change due; ``receipts.receipt_create`` refuses an
amount below the total, next to this field.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from licensing.models import PaymentMethod


class CashTendered(forms.Form):
    amount_tendered = forms.DecimalField(
        label=_("Amount tendered"),
        required=False,
        min_value=0,
        max_digits=10,
        decimal_places=2,
        help_text=_("Cash only: what the payer handed over. The change due is shown."),
    )

    def clean(self):
        data = super().clean()
        if data.get("method") == PaymentMethod.CASH and data.get("amount_tendered") is None:
            if "amount_tendered" not in self.errors:
                self.add_error("amount_tendered", _("Enter the amount of cash handed over."))
        return data


def licensed_answer(data) -> bool | None:
    """The "Is the animal licensed?" answer: yes, no, or not given."""
    return {"yes": True, "no": False}.get(data.get("licensed"))


def payment_form(form_class, request, **kwargs):
    """Bound to a POST (the payment); a "Recalculate" GET only fills the form in again,
    so a payment not yet complete is not shown as an error."""
    if request.method == "POST":
        return form_class(request.POST, **kwargs)
    return form_class(initial=request.GET.dict(), **kwargs)
