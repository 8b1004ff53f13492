"""Text messages through a provider interface, chosen like ``EMAIL_BACKEND``
(NB Sec. 6-68 "every possible effort to notify the owners").

``settings.SMS_BACKEND`` names the backend class; empty (the default) means off: nothing is
sent and ``sms_enabled()`` is False. Shipped backends:

- ``notices.sms.LocmemBackend``: keeps each message in ``notices.sms.outbox`` (tests);
- ``notices.sms.ConsoleBackend``: writes each message to standard output (development).

A real provider is a subclass of ``BaseSmsBackend`` in a module of its own whose ``send``
hands the message to the provider's API and returns the provider's message id, or raises
``SmsError`` with a short reason; point ``SMS_BACKEND`` at it (its credentials come from
its own settings, read in ``__init__``). ``SMS_FROM`` is the sending number.
"""

import sys
from dataclasses import dataclass
from itertools import count

from django.conf import settings
from django.utils.module_loading import import_string


class SmsError(Exception):
    """The provider did not take the message; ``str(e)`` says why in a few words."""


@dataclass(frozen=True)
class TextMessage:
    to: str
    body: str
    sender: str = ""


# What LocmemBackend "sent", oldest first (like django.core.mail.outbox).
outbox: list[TextMessage] = []


class BaseSmsBackend:
    def __init__(self, **options):
        self.options = options

    def send(self, message: TextMessage) -> str:
        """Send one message; return the provider's id for it or raise SmsError."""
        raise NotImplementedError("An SMS backend sends messages.")


_ids = count(1)


class LocmemBackend(BaseSmsBackend):
    """Keeps messages in ``outbox`` (tests)."""

    def send(self, message: TextMessage) -> str:
        if not message.to.strip():
            raise SmsError("no number")
        outbox.append(message)
        return f"locmem-{next(_ids)}"


class ConsoleBackend(BaseSmsBackend):
    """Writes messages to standard output (development)."""

    def send(self, message: TextMessage) -> str:
        sys.stdout.write(f"SMS from {message.sender or '-'} to {message.to}:\n{message.body}\n")
        sys.stdout.flush()
        return f"console-{next(_ids)}"


def sms_enabled() -> bool:
    return bool(getattr(settings, "SMS_BACKEND", ""))


def get_backend() -> BaseSmsBackend | None:
    path = getattr(settings, "SMS_BACKEND", "")
    return import_string(path)() if path else None


def send_text(to: str, body: str) -> str:
    """Send a text message through the configured backend: the provider's id. SmsError
    when none is configured or the provider refuses."""
    backend = get_backend()
    if backend is None:
        raise SmsError("text messages are not configured")
    return backend.send(TextMessage(to=to, body=body, sender=getattr(settings, "SMS_FROM", "")))
