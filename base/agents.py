"""Who may act for a city besides its staff: an agent the city appointed.

A clinic sells licenses from the city's tags on consignment; the receipt it hands over is
the city's, issued by the clinic's person. ``notices`` checks who issues a city's
documents but cannot import ``clinics``, so the clinics app registers here, in its
``AppConfig.ready()``, a question that answers for its people::

    agents.register("clinics", clinic_member_acts_for)

``acts_for(user, jurisdiction_id)`` is True when any registered answer says so. Each
answer reads the database (an active membership of an active clinic serving the city):
nothing is granted by ambient state.
"""

from collections.abc import Callable

Answer = Callable[[object, int], bool]

_answers: dict[str, Answer] = {}


def register(name: str, answer: Answer) -> None:
    """Register (or, under the same name, replace) who acts for a city."""
    _answers[name] = answer


def acts_for(user, jurisdiction_id: int) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return any(answer(user, jurisdiction_id) for answer in _answers.values())
