"""Heavy reads in worker processes, so one campaign's route never holds up another's commands.

A route across a 2000 x 2000 map or a wide window of it drawn is seconds of work. In a worker
thread of the server it still shares the interpreter's lock with every other campaign's
commands and the event loop: two clients asking for routes took another campaign's command
p95 from 14 ms to a second (issue 38). The route kernels let go of the lock while they search
(:func:`turnkeeper.world._dijkstra.compile_ahead`), but a route's grids and a map's drawing
are Python and numpy that hold it. So these reads run in another process (:class:`Lanes`),
and the server's loop only awaits their answer.

What goes to a worker is pickled, and a map is most of it (a 2000 x 2000 map is 8 MB, tens
of milliseconds to pickle, all of them holding the server's lock; its file as the state keeps
it, :class:`~turnkeeper.world.mapfile.MapFile`, is as much again, and a worker that got a copy
of it would build the map from it anew). A map and its file never change, so each worker keeps
the few it was sent last and a request names each by a number (pickle's persistent ids): a map
is sent to a worker once, when the worker does not know it yet.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import multiprocessing
import os
import pickle
import weakref
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from turnkeeper.world.hexmap import HexMap
from turnkeeper.world.mapfile import MapFile

T = TypeVar("T")

Map = HexMap | MapFile

#: The maps and map files a worker keeps: a campaign's map and its file, for a few campaigns.
MAPS_KEPT = 8

_kept: dict[int, Map] = {}
"""A worker's maps by their number (the server's :meth:`Lanes._number`)."""


class _Unknown(Exception):
    """The worker does not hold the map a request names: the server sends it again with it."""


class _Dumper(pickle.Pickler):
    """Pickles a request with its maps left out, each named by its number."""

    def __init__(self, file: io.BytesIO, number: Callable[[Map], int]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.number = number
        self.maps: dict[int, Map] = {}

    def persistent_id(self, obj: Any) -> int | None:
        if type(obj) is not HexMap and type(obj) is not MapFile:
            return None
        key = self.number(obj)
        self.maps[key] = obj
        return key


class _Loader(pickle.Unpickler):
    """Unpickles a request, its maps taken from those the worker keeps."""

    def persistent_load(self, pid: Any) -> Map:
        found = _kept.get(pid)
        if found is None:
            raise _Unknown(pid)
        _kept[pid] = _kept.pop(pid)  # the newest again
        return found


def _run(request: bytes, maps: dict[int, Map]) -> Any:
    """In a worker: keep the maps sent, then run the pickled ``(work, args, kwargs)``."""
    for key, hexmap in maps.items():
        _kept.pop(key, None)
        _kept[key] = hexmap
    while len(_kept) > MAPS_KEPT:
        del _kept[next(iter(_kept))]
    work, args, kwargs = _Loader(io.BytesIO(request)).load()
    return work(*args, **kwargs)


def workers() -> int:
    """As many workers as leave the server a CPU of its own, at least one and at most four."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


class Lanes:
    """Worker processes for the heavy reads, started on the first one.

    The workers are spawned, not forked: a fork of a server copies its threads' locks in
    whatever state they were.
    """

    def __init__(self, count: int | None = None) -> None:
        self._count = count or workers()
        self._pool: ProcessPoolExecutor | None = None
        self._numbers: dict[int, int] = {}  # id of a live map -> its number
        self._next = itertools.count(1)

    def _number(self, hexmap: Map) -> int:
        """The map's number, the same while the map lives and never given to another."""
        key = self._numbers.get(id(hexmap))
        if key is None:
            key = self._numbers[id(hexmap)] = next(self._next)
            weakref.finalize(hexmap, self._numbers.pop, id(hexmap), None)
        return key

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self._count, mp_context=context)
        return self._pool

    async def run(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``work(*args, **kwargs)`` in a worker process, awaited without holding the loop or
        a thread; ``work`` is a module's function, and what it raises is raised here."""
        dumper = _Dumper(buffer := io.BytesIO(), self._number)
        dumper.dump((work, args, kwargs))
        request = buffer.getvalue()
        pool = self._workers()
        try:
            return await asyncio.wrap_future(pool.submit(_run, request, {}))
        except _Unknown:
            answer = pool.submit(_run, request, dumper.maps)
            return await asyncio.wrap_future(answer)

    def close(self) -> None:
        """Stop the workers (a read under way is left unanswered)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
