"""Clinic logins: the administrator invites a person of a clinic
(an account with the veterinarian role and no city of its own: what it sees comes from
its clinic) and deactivates them. The invitation is an e-mail with a link to choose a
password (Django's password-reset token, so the link works once and expires)."""

from allauth.account.forms import default_token_generator
from allauth.account.utils import user_pk_to_url_str
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from base.roles import ADMINISTRATOR, VETERINARIAN
from kernel.checks import CITY
from ordinance.models import Event
from ordinance.refusals import Refused

from ..models import ClinicMember


def _check_admin(actor, clinic) -> None:
    """An administrator of a city the clinic serves manages its logins."""
    if not actor.has_role(ADMINISTRATOR):
        raise Refused.because(
            _("Clinic"), _("Only an administrator invites and deactivates a clinic's people.")
        )
    if not actor.is_superuser and not any(actor.serves(j.pk) for j in clinic.jurisdictions.all()):
        raise Refused.because(
            CITY, _("You serve no city %(clinic)s serves.") % {"clinic": clinic.name}
        )


@transaction.atomic
def clinic_member_invite(*, clinic, email: str, first_name: str, last_name: str, actor, now=None):
    """A new login for ``clinic``, unusable until the person sets a password by the link."""
    now = now or timezone.now()
    _check_admin(actor, clinic)
    email = (email or "").strip().lower()
    User = get_user_model()
    if not email or User.objects.filter(email__iexact=email).exists():
        raise Refused.because(
            _("Invitation"), _("An account with this e-mail address exists already."), field="email"
        )
    user = User(username=email, email=email, first_name=first_name, last_name=last_name)
    user.set_unusable_password()
    user.save()
    user.groups.set([Group.objects.get(name=VETERINARIAN)])
    member = ClinicMember.objects.create(user=user, clinic=clinic, invited_by=actor, invited_at=now)
    Event.record(
        "clinics.member.invited",
        member,
        actor=actor,
        at=now,
        summary=f"{email} invited for {clinic}",
    )
    transaction.on_commit(lambda: _send_invitation(user.pk))
    return member


def _send_invitation(user_pk) -> None:
    user = get_user_model().objects.select_related("clinic_membership__clinic").get(pk=user_pk)
    # allauth's own password-reset link (accounts.urls_allauth): works once, expires.
    key = default_token_generator.make_token(user)
    link = getattr(settings, "SITE_URL", "").rstrip("/") + reverse(
        "account_reset_password_from_key",
        kwargs={"uidb36": user_pk_to_url_str(user), "key": key},
    )
    body = render_to_string(
        "clinics/emails/invitation.txt",
        {"user": user, "clinic": user.clinic_membership.clinic, "link": link},
    )
    subject = _("Your account for sending rabies certificates")
    EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email]).send()


@transaction.atomic
def clinic_member_deactivate(*, member, actor, reason: str, now=None) -> ClinicMember:
    """The person can no longer log in; what they sent stays, with their name on it."""
    now = now or timezone.now()
    _check_admin(actor, member.clinic)
    member.deactivated_at, member.deactivated_reason = now, (reason or "").strip()[:200]
    member.save()
    member.user.is_active = False
    member.user.save(update_fields=["is_active"])
    Event.record(
        "clinics.member.deactivated",
        member,
        actor=actor,
        at=now,
        summary=f"{member.user.email} of {member.clinic} deactivated: {reason}"[:300],
    )
    return member
