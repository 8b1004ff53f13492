"""Each city's rule values are read once per request (``ordinance.rules.rules_read_once``)."""

from .rules import rules_read_once


class RulesReadOnce:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with rules_read_once():
            return self.get_response(request)
