"""Rulesets as data: the schema, loading with ``extends``, and the five presets.

>>> from turnkeeper.rules import preset
>>> preset("tp").travel.travel_points_per_day
4
"""

from turnkeeper.rules.loader import find_ruleset, load_ruleset, parse_ruleset, preset, presets
from turnkeeper.rules.schema import Ruleset, RulesetInfo

__all__ = [
    "Ruleset",
    "RulesetInfo",
    "find_ruleset",
    "load_ruleset",
    "parse_ruleset",
    "preset",
    "presets",
]
