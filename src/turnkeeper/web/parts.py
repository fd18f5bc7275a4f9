"""A display's parts: the named pieces of a seat's display (the clock, the light, the journal,
the map...), and those of one drawing that differ from another's, sent to a page in their
place (:mod:`turnkeeper.web.live`'s ``parts`` events, and the answer to a page's own command).
"""

from __future__ import annotations

import functools
import re

KEPT_DRAWINGS = 64
"""How many drawings' parts are kept: each drawing's are compared twice (with the version
before it and the one after), for a few versions of the campaigns being played."""

_ROOT = re.compile(r'<div class="display"([^>]*)>')


@functools.lru_cache(maxsize=KEPT_DRAWINGS)
def parts_of(display: str) -> tuple[tuple[str, str], ...]:
    """The parts of a display, by name, in order: found once per drawing, though each is
    compared twice (with the version before it and the one after), and found by the string's
    own searches, not a lazy regular expression walking a map's 20 KB a character at a time.
    A part's text holds no marker: the templates escape every ``<`` they are given.

    >>> parts_of('<div><!--part:a--><p>1</p><!--/part--> <!--part:b-->2<!--/part--></div>')
    (('a', '<p>1</p>'), ('b', '2'))
    """
    found = []
    for chunk in display.split("<!--part:")[1:]:
        name, _, rest = chunk.partition("-->")
        html, closed, _ = rest.partition("<!--/part-->")
        if closed:
            found.append((name, html))
    return tuple(found)


def changed_parts(before: str, after: str, base: int) -> str | None:
    """The parts of display ``after`` that differ from display ``before`` (of version
    ``base``), each marked to take its part's place (htmx's out-of-band swap), under the
    new display's own attributes (its version, where the party is); None when the two do
    not hold the same parts in the same order (a site entered, a fight begun): then the
    whole display goes.

    >>> old = '<div class="display" data-version="3"><!--part:a--><p id="part-a">1</p><!--/part-->'
    >>> new = old.replace('"3"', '"4"').replace(">1<", ">2<")
    >>> print(changed_parts(old, new, 3))
    <div class="parts" data-base="3" data-version="4"><p id="part-a" hx-swap-oob="true">2</p></div>
    """
    old, new = parts_of(before), parts_of(after)
    root = _ROOT.search(after)
    if root is None or [n for n, _ in old] != [n for n, _ in new]:
        return None
    changed = "".join(
        html.replace(f'id="part-{name}"', f'id="part-{name}" hx-swap-oob="true"', 1)
        for (name, html), (_, was) in zip(new, old, strict=True)
        if html != was
    )
    return f'<div class="parts" data-base="{base}"{root[1]}>{changed}</div>'
