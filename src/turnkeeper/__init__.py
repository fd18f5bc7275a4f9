"""turnkeeper: the referee's engine for old-school turn-based play.

The core (dice, rules, tables, clock, campaign, procedures, world) is pure: procedures take
state, a command, the rules and a dice source, and return events.
"""

__version__ = "0.1.0"
