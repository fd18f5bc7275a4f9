"""Procedures: pure functions from state and command to events, one module per procedure.

The campaign and its procedures know each other: procedures fold into the campaign's state
and emit its events, and the campaign's ``decide`` dispatches to every procedure. Loading
the campaign first, whichever procedure a program imports first, settles that cycle in one
order for everyone.
"""

import turnkeeper.campaign  # noqa: F401
