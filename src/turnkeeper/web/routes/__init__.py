"""The HTTP routes, one router per area, each included by :func:`turnkeeper.web.app.create_app`.

:mod:`~.campaign` the JSON API's state, journal and commands; :mod:`~.world` the world's
timeline and a character's record; :mod:`~.maps` the map drawn and a route priced;
:mod:`~.pages` the front door, the dashboard page and its forms; :mod:`~.stream` the display
and its live stream; :mod:`~.seats` the players' links and a character's own commands. They
share :mod:`turnkeeper.web.core` and never import one another.
"""
