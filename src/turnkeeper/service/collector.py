"""The garbage collector paused while a journal is read, folded or written whole."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def gc_paused(*, freeze: bool = False) -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a whole journal is read and folded (or a
    command makes many records, or an adapter shapes them).

    A rebuild makes hundreds of thousands of objects that all stay alive (the records, their
    events) or are dropped by reference counting (the states folded past); none of them form
    cycles. The collector, triggered every few hundred new objects, would walk the growing
    heap again and again: with it on, a 100,000-record rebuild takes about twice as long, and
    in a server every other thread waits while it walks. Reference counting frees memory as
    usual meanwhile; the collector resumes afterwards if it was on, even on an error.

    ``freeze``, for a journal read whole: ``gc.freeze`` then moves what survived (the journal,
    alive as long as the campaign is loaded) out of the collector's sight, so the first
    collection after the pause does not walk it all at once (0.15 s for 100,000 records).
    Never after a single command: whatever cyclic garbage it left would be frozen for the
    life of the process.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was_on:
            gc.enable()


def settled() -> None:
    """Collect once and freeze what survives, before a server answers its first request: the
    modules, the schemas and the app made as it starts stay alive for the life of the
    process, so the collector's oldest generation need not walk them again. Unfrozen, each
    full collection of a server worker walked them all, holding every thread of the worker
    for 0.15 to 0.3 s.
    """
    gc.collect()
    gc.freeze()
