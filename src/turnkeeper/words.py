"""Words for people, both ways: a rule's key shown as words and read back from them, and the
near name offered when a name is refused.

The rules name things by keys (``heavy_snow``, ``deep_forest``, ``night_camp``); people see
words (``heavy snow``) and may type either. JSON keeps the key. Every adapter and every
procedure that reads a name from a person or shows one goes through here, so no verb has its
own copy.

>>> words("heavy_snow"), key_of("Heavy Snow", ["clear", "heavy_snow"])
('heavy snow', 'heavy_snow')
>>> key_of("deep-forest", ["forest", "deep_forest"]), key_of("fog", ["clear"])
('deep_forest', 'fog')
>>> unknown("supply", "arows", ["arrows", "rations"])
"no supply 'arows'; did you mean arrows?"

A count is said with its noun in the number it takes (issue 25: "after 1 turns", "1 days"):

>>> counted(1, "turn"), counted(2, "watch"), counted(1_500, "record"), of_item(1, "rations")
('1 turn', '2 watches', '1,500 records', '1 ration')
"""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches
from functools import lru_cache


def words(key: object) -> str:
    """A key as people read it: ``heavy_snow`` is ``heavy snow`` (an enum by its value)."""
    text = str(getattr(key, "value", key))
    return text.replace("_", " ")


def listed(keys: Iterable[object]) -> str:
    """Keys as words, comma-separated, for a list of choices in a message.

    >>> listed(["clear", "heavy_snow"])
    'clear, heavy snow'
    """
    return ", ".join(words(k) for k in keys)


def _folded(text: str) -> str:
    return "_".join(text.replace("-", " ").replace("_", " ").casefold().split())


def key_of(text: str, choices: Iterable[str]) -> str:
    """The key among ``choices`` that ``text`` names, as words or as the key (case, spaces,
    hyphens and underscores alike); ``text`` unchanged when it names none, for the caller's
    own refusal (with :func:`unknown`)."""
    if not isinstance(text, str):
        return text
    keys = list(choices)
    if text in keys:
        return text
    wanted = _folded(text)
    return next((k for k in keys if _folded(k) == wanted), text)


def near(text: str, names: Iterable[str]) -> str | None:
    """The name among ``names`` closest to ``text``, if one is close (a misspelling); as
    words when the names are keys.

    >>> near("Aldp", ["Aldo", "Bea"]), near("zz", ["Aldo"])
    ('Aldo', None)
    """
    known = {_folded(n): n for n in names}
    found = get_close_matches(_folded(text), list(known), n=1, cutoff=0.6)
    return words(known[found[0]]) if found else None


def did_you_mean(text: str, names: Iterable[str]) -> str:
    """``"; did you mean X?"`` for the near name of :func:`near`, or ``""``.

    >>> did_you_mean("arows", ["arrows"]), did_you_mean("x", [])
    ('; did you mean arrows?', '')
    """
    found = near(text, names)
    return f"; did you mean {found}?" if found else ""


def unknown(what: str, text: str, names: Iterable[str], *, listing: bool = False) -> str:
    """The message refusing ``text`` as a ``what``: the near name, and with ``listing`` the
    names there are (as words).

    >>> unknown("weather", "hevy snow", ["clear", "heavy_snow"], listing=True)
    "no weather 'hevy snow'; did you mean heavy snow? (expected clear, heavy snow)"
    """
    keys = list(names)
    message = f"no {what} {text!r}{did_you_mean(text, keys)}"
    if listing:
        message += f" (expected {listed(keys) or 'none'})"
    return message


def plural(noun: str) -> str:
    """A noun's plural by the English rules a table needs: ``turn`` → ``turns``, ``watch``
    → ``watches``, ``party`` → ``parties``, ``day`` → ``days``.

    >>> [plural(n) for n in ("hit", "torch", "box", "party", "day", "pass")]
    ['hits', 'torches', 'boxes', 'parties', 'days', 'passes']
    """
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return noun[:-1] + "ies"
    return noun + "s"


#: Plurals no rule of :func:`plural` makes, by the end of the word (``werewolves``,
#: ``lizardmen``), as the creatures of the texts' tables are named.
_IRREGULAR = {
    "wolf": "wolves",
    "elf": "elves",
    "dwarf": "dwarves",
    "thief": "thieves",
    "man": "men",
    "mouse": "mice",
    "louse": "lice",
    "goose": "geese",
    "ox": "oxen",
    "child": "children",
    "zombie": "zombies",
    "cyclops": "cyclopes",
    "undead": "undead",
    "sheep": "sheep",
    "fish": "fish",
}
_IRREGULAR_ONE = {many: one for one, many in _IRREGULAR.items()}


#: Words ending as an irregular one that take the rules' plural (``humans``, not ``humen``).
_REGULAR = ("human", "shaman", "caiman", "talisman", "omen", "humans", "shamans", "caimans")


def _irregular(noun: str, table: dict[str, str]) -> str | None:
    """``noun`` in the other number where its last word ends as an entry of ``table``."""
    if noun.endswith(_REGULAR):
        return None
    for end, other in table.items():
        if (
            noun == end
            or noun.endswith((f" {end}", f"-{end}"))
            or (len(end) > 2 and noun.endswith(end) and end in ("men", "man", "wolves", "wolf"))
        ):
            return noun[: len(noun) - len(end)] + other
    return None


@lru_cache(maxsize=1024)  # a creature's name is read at every meeting: each name once
def singular(noun: str) -> str:
    """One of a thing named in the plural, as supplies are (``rations``, ``torches``); a mass
    noun (``water``, ``oil``) is its own singular.

    >>> [singular(n) for n in ("rations", "torches", "arrows", "water", "oil", "berries")]
    ['ration', 'torch', 'arrow', 'water', 'oil', 'berry']
    >>> [singular(n) for n in ("werewolves", "lizardmen", "zombies", "octopus", "cyclops")]
    ['werewolf', 'lizardman', 'zombie', 'octopus', 'cyclops']
    """
    irregular = _irregular(noun, _IRREGULAR_ONE)
    if irregular is not None:
        return irregular
    if noun.endswith(("us", "ss")) or _irregular(noun, _IRREGULAR) is not None:
        return noun  # octopus, bass, cyclops: already one
    if noun.endswith("ies") and len(noun) > 3:
        return noun[:-3] + "y"
    if noun.endswith(("ches", "shes", "xes", "sses", "zes")):
        return noun[:-2]
    if noun.endswith("s") and not noun.endswith("ss"):
        return noun[:-1]
    return noun


def counted(count: int, noun: str, many: str | None = None) -> str:
    """``count`` of ``noun`` (given in the singular), the noun in the number the count
    takes, thousands separated: ``1 turn``, ``0 turns``, ``2,000 records``; ``many`` is the
    plural where the rules miss it (``counted(2, "die", "dice")``).

    >>> counted(0, "day"), counted(1, "day"), counted(2, "die", "dice")
    ('0 days', '1 day', '2 dice')
    """
    return f"{count:,} {noun if count == 1 else many or plural(noun)}"


def of_creature(count: int, name: str) -> str:
    """``count`` of a creature a site or a table names as its author likes, one or many
    (``giant rats`` rolled 1, ``drowned monk`` rolled 3): the name in the number the count
    takes.

    >>> of_creature(1, "giant rats"), of_creature(3, "drowned monk"), of_creature(2, "giant rats")
    ('1 giant rat', '3 drowned monks', '2 giant rats')
    >>> of_creature(1, "lizardmen"), of_creature(4, "werewolf"), of_creature(2, "giant leech")
    ('1 lizardman', '4 werewolves', '2 giant leeches')
    >>> of_creature(1, "humans"), of_creature(3, "human"), of_creature(2, "ghoul")
    ('1 human', '3 humans', '2 ghouls')
    """
    if count == 1:
        return f"1 {singular(name)}"
    return f"{count:,} {_many(name)}"


@lru_cache(maxsize=1024)  # as singular: each name once
def _many(name: str) -> str:
    """A creature's name in the plural, as :func:`of_creature` writes it."""
    one = singular(name)
    return _irregular(one, _IRREGULAR) or (name if one != name else plural(name))


def of_item(count: int, item: str) -> str:
    """``count`` of a supply named in the plural, as the party file names them: ``1 ration``,
    ``3 torches``, ``1 water``.

    >>> of_item(1, "torches"), of_item(3, "torches"), of_item(1, "water")
    ('1 torch', '3 torches', '1 water')
    """
    return f"{count:,} {singular(item) if count == 1 else item}"
