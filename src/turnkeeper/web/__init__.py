"""The HTTP API and web pages over the campaign service (``turnkeeper serve``).

:func:`turnkeeper.web.app.create_app` builds the FastAPI application over a
:class:`~turnkeeper.service.Campaigns` from the routers of :mod:`turnkeeper.web.routes`,
one per area, over the helpers they share in :mod:`turnkeeper.web.core`; every player
response goes through :mod:`turnkeeper.views`, the one filter the CLI's player view uses too;
:mod:`turnkeeper.web.tokens` makes and checks the access tokens without FastAPI, so the CLI
can make tokens without importing it.
"""
