"""The referee's verbs, each declared once (:mod:`turnkeeper.verbs.table`) with arguments
that know what they name in the game (:mod:`turnkeeper.verbs.kinds`): the command line, the
HTTP API, the dashboard's forms and ``play``'s completer are all built from them."""

from turnkeeper.verbs.body import SHARED, Place, VerbBody, cli_of, kind_of, places_now
from turnkeeper.verbs.table import VERBS, CommandBody, problem, verbs_now

__all__ = [
    "SHARED",
    "VERBS",
    "CommandBody",
    "Place",
    "VerbBody",
    "cli_of",
    "kind_of",
    "places_now",
    "problem",
    "verbs_now",
]
