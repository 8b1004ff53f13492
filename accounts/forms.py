from allauth.account.internal.flows.email_verification import (
    send_verification_email_to_address,
)
from allauth.account.models import EmailAddress
from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _


class LoginForm(AuthenticationForm):
    """Django's login form on allauth's backend: a username or an e-mail address.

    An account that signed up online logs in only once its e-mail address is confirmed
    (settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"); staff accounts made by the
    administrator have no allauth address rows and are not held back.
    """

    error_messages = {
        **AuthenticationForm.error_messages,
        "unverified": _(
            "Confirm your e-mail address first: open the link in the message we sent "
            "you. We have just sent it again."
        ),
    }

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        self.fields["username"].label = _("Username or e-mail")
        self.fields["username"].widget.attrs["autocomplete"] = "username"

    # A username has at most 150 characters and an e-mail address 254. Django sets the
    # field's max_length after the field is built, so no validator checks it, and a longer
    # value reached the lockout log's 255-character column as an HTTP 500.
    MAX_LENGTH = 254

    def clean_username(self):
        username = self.cleaned_data.get("username") or ""
        if len(username) > self.MAX_LENGTH:
            raise forms.ValidationError(
                _("Enter your username or e-mail address (at most %(n)s characters).")
                % {"n": self.MAX_LENGTH},
                code="max_length",
            )
        return username

    def confirm_login_allowed(self, user):
        super().confirm_login_allowed(user)
        addresses = EmailAddress.objects.filter(user=user)
        if addresses.exists() and not addresses.filter(verified=True).exists():
            # The password was right, so this is the owner of the address: send the
            # link again (allauth's own rate limit keeps it to one every few minutes).
            send_verification_email_to_address(self.request, addresses.first())
            raise forms.ValidationError(self.error_messages["unverified"], code="unverified")


class CodeForm(forms.Form):
    """One code: from the authenticator app, or (where ``allow_recovery``) a recovery code.
    The service checks it; its refusal is shown next to this field."""

    code = forms.CharField(
        label=_("Code from your authenticator app"),
        max_length=40,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "autocapitalize": "none", "spellcheck": "false"}
        ),
    )

    def __init__(self, *args, allow_recovery=False, **kwargs):
        super().__init__(*args, **kwargs)
        if allow_recovery:
            self.fields["code"].label = _("Code from your authenticator app, or a recovery code")
            self.fields["code"].help_text = _(
                "Six digits from the app, or one of the recovery codes you printed. "
                "A recovery code works once."
            )
        else:
            self.fields["code"].help_text = _("The six digits the app shows now.")
            self.fields["code"].widget.attrs["inputmode"] = "numeric"
