"""What each role may see of a campaign: the referee's whole state, the party's view.

Its modules: :mod:`~turnkeeper.views.party` (the party's view of the state, built by one
function, :func:`~turnkeeper.views.party.player_state`), :mod:`~turnkeeper.views.journal`
(the players' journal and the referee's record), :mod:`~turnkeeper.views.maps` (the map as
each role sees it) and :mod:`~turnkeeper.views.timeline` (the referee's world view: every
party and character on one timeline).
"""
