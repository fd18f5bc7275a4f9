"""The dashboard's controls, read off the command table: one form per verb, no verb named here.

Every verb the HTTP API takes is a pydantic body model (:mod:`turnkeeper.verbs`); a
control is that model's fields as form inputs: a checkbox for a yes/no, a number for a count,
a select for a fixed choice (a ``Literal`` or an enum), a comma-separated line for a list,
text for the rest; the field's description is its hint. A verb added to the table shows up on
the dashboard with no template touched.

Every form also takes the faces of physical dice, typed in (``4, 2, 6``), which become the
body's ``dice``; the version the referee is looking at travels as ``expected_version``, so a
form sent against a table that moved on is refused, not run blind.

Where a verb belongs (in a site, the wilderness, a fight, a scene, or anywhere) is the body
model's ``where`` (read from the verb's name for a model without one), so the dashboard can
offer the controls that fit where the party is; damage and healing by hand sit beside the
combat tracker, for a fight or a trap alike.

>>> controls = table()
>>> turn = next(c for c in controls if c.verb == "turn")
>>> turn.place, [f.name for f in turn.fields][:3]
('site', ['mode', 'noisy', 'skip_check'])
>>> pairs = [("verb", "turn"), ("noisy", "false"), ("noisy", "true"), ("dice", "4, 2")]
>>> form_body(turn, pairs)
{'verb': 'turn', 'noisy': 'true', 'dice': [4, 2]}
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, BeforeValidator
from pydantic.fields import FieldInfo

from turnkeeper.dice import parse_faces
from turnkeeper.files import parse_json
from turnkeeper.verbs import SHARED, VERBS
from turnkeeper.verbs.body import FileText

InputKind = Literal["text", "longtext", "number", "checkbox", "select", "list", "json"]

#: Where the party must be for a verb to fit, by the first word of its name; first match wins.
#: A verb that opens something (a fight, a scene, a site) fits anywhere.
PLACES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("anywhere", ("start", "open", "enter", "load", "begin_scene", "new")),
    ("fight", ("combat", "fight", "attack", "declare", "resolve", "round", "pin", "morale")),
    ("scene", ("scene", "spotlight", "dread", "momentum", "token", "compromise", "act")),
    ("wilderness", ("travel", "camp", "search", "explore", "forage", "map", "hex")),
    ("site", ("turn", "site", "level", "area", "door", "leave", "encounter")),
)

#: Verbs the referee reaches for beside the combat tracker, in a fight or out of one.
BY_HAND = frozenset({"damage", "heal"})

#: Verbs a referee reaches for now and then: folded under "more" in their group, so the
#: group shows the common moves first (each still one click away, and on the command line).
RARE = frozenset(
    {
        "redo",
        "light",
        "supply_add",
        "countdown_outcome",
        "countdown_end",
        "countdown_trigger",
        "weather_set",
        "map_hide",
        "site_resume",
        "site_map_note",
        "combat_pin",
        "combat_check",
        "combat_save",
        "combat_surrender",
        "combat_announce_done",
        "scene_free",
        "scene_compromise",
        "scene_dread_spend",
    }
)

#: The order the dashboard lists its groups in, with their headings.
GROUPS: dict[str, str] = {
    "fight": "The fight",
    "by hand": "Damage and healing by hand",
    "scene": "The scene",
    "site": "The site",
    "wilderness": "The wilderness",
    "anywhere": "Anywhere: time, light, notes, and what starts a site, a fight or a scene",
}

#: Suggestions (HTML datalists drawn with the table's state) for fields that name something.
SUGGEST: dict[str, str] = {
    "actor": "tk-names",
    "attacker": "tk-names",
    "who": "tk-names",
    "character": "tk-names",
    "player": "tk-names",
    "creature": "tk-names",
    "name": "tk-names",
    "feature": "tk-features",
    "source": "tk-lights",
    "mode": "tk-modes",
    "target": "tk-targets",
}


@dataclass(frozen=True)
class Input:
    """One form input of a verb: what to call it, how to draw it, and its hint."""

    name: str
    label: str
    kind: InputKind
    required: bool
    default: str
    checked: bool
    choices: tuple[str, ...]
    hint: str
    suggest: str | None
    splits: bool = False
    """A list the model splits from text itself (so the form's text is passed whole)."""


@dataclass(frozen=True)
class Control:
    """One verb's form: its title, what it does (the model's docstring) and its inputs."""

    verb: str
    title: str
    help: str
    place: str
    fields: tuple[Input, ...]

    @property
    def rare(self) -> bool:
        """Whether the dashboard folds it away under "more" (:data:`RARE`)."""
        return self.verb in RARE

    def input(self, name: str) -> Input | None:
        """The input called ``name``, if the verb has one."""
        return next((f for f in self.fields if f.name == name), None)

    def without(self, name: str) -> Control:
        """The control without its input ``name`` (a character's link fills the actor)."""
        return dataclasses.replace(self, fields=tuple(f for f in self.fields if f.name != name))


@cache
def table() -> tuple[Control, ...]:
    """Every verb's control, in the command table's order (the table does not change)."""
    return tuple(_control(verb, model) for verb, model in VERBS.items())


@cache
def by_verb() -> Mapping[str, Control]:
    """Every verb's control, by its verb."""
    return {control.verb: control for control in table()}


_TYPED = re.compile(r"`turnkeeper ([^`]+)`")


def as_controls(message: str) -> str:
    """A refusal's advice in the dashboard's own words: a command the engine names as typed
    on the command line is named by its control.

    >>> print(as_controls("the day is over: make camp with `turnkeeper camp`"))
    the day is over: make camp with the "Camp" control
    >>> print(as_controls("go on with `turnkeeper site resume`; see `turnkeeper status`"))
    go on with the "Resume exploring" control; see `turnkeeper status`
    """
    controls = by_verb()

    def named(typed: re.Match[str]) -> str:
        words = typed[1].split()
        for count in range(len(words), 0, -1):
            control = controls.get("_".join(words[:count]))
            if control is not None:
                return f'the "{control.title}" control'
        return typed[0]

    return _TYPED.sub(named, message)


def grouped(controls: Iterable[Control]) -> list[tuple[str, str, list[Control]]]:
    """The controls by place, as ``(place, heading, controls)`` in :data:`GROUPS` order."""
    by_place: dict[str, list[Control]] = {place: [] for place in GROUPS}
    for control in controls:
        by_place.setdefault(control.place, []).append(control)
    return [(p, GROUPS.get(p, p), cs) for p, cs in by_place.items() if cs]


def place_of(verb: str, model: type[BaseModel] | None = None) -> str:
    """Where a verb fits: its model's ``where``, else read from its name (:data:`PLACES`).

    >>> place_of("combat_attack"), place_of("travel"), place_of("wait"), place_of("combat_start")
    ('fight', 'wilderness', 'anywhere', 'anywhere')
    """
    if verb in BY_HAND:
        return "by hand"
    where = getattr(model, "where", None)
    if isinstance(where, Enum):
        return str(where.value)
    first, *rest = verb.lower().split("_")
    if any(word in PLACES[0][1] for word in (first, *rest)):
        return "anywhere"  # a verb that opens something fits anywhere
    for place, words in PLACES[1:]:
        if first in words:
            return place
    return "anywhere"


def form_body(control: Control, pairs: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """A form's fields as a command body: lists split at commas, typed dice as faces.

    Empty fields are left out (the model's default stands); for a field sent twice the last
    wins, which is how an unticked box says no (a hidden ``false`` comes before it).
    """
    form: dict[str, str] = {}
    for key, value in pairs:
        form[key] = value.strip()
    body: dict[str, Any] = {}
    for key, value in form.items():
        field = control.input(key)
        kind = field.kind if field is not None else None
        if value == "":
            continue
        if key == "dice":
            body[key] = parse_faces(value)
        elif field is not None and kind == "list" and not field.splits:
            body[key] = [part.strip() for part in value.split(",") if part.strip()]
        elif kind == "json":
            # the one reader of a user's JSON: its depth scan keeps a field of 10,000 brackets
            # from exhausting the parser's stack, and a file's numbers fit 64 bits
            body[key] = parse_json(value, key)
        else:
            body[key] = value
    return body


# -- reading a body model ----------------------------------------------------------------------


def _control(verb: str, model: type[BaseModel]) -> Control:
    doc = (model.__doc__ or "").strip()
    title = model.model_config.get("title") or verb.replace("_", " ")
    fields = tuple(
        _input(name, info) for name, info in model.model_fields.items() if name not in SHARED
    )
    return Control(
        verb=verb,
        title=str(title),
        help=" ".join(doc.split()),
        place=place_of(verb, model),
        fields=fields,
    )


def _input(name: str, info: FieldInfo) -> Input:
    annotation, _optional = _unwrap(info.annotation)
    kind: InputKind
    choices: tuple[str, ...] = ()
    if annotation is bool:
        kind = "checkbox"
    elif annotation in (int, float):
        kind = "number"
    elif typing.get_origin(annotation) is Literal:
        kind, choices = "select", tuple(str(a) for a in typing.get_args(annotation))
    elif isinstance(annotation, type) and issubclass(annotation, Enum):
        kind, choices = "select", tuple(str(m.value) for m in annotation)
    elif typing.get_origin(annotation) in (list, tuple, set, frozenset):
        item, _optional = _unwrap((*typing.get_args(annotation), str)[0])
        simple = item in (str, int) or typing.get_origin(item) is Literal
        kind = "list" if simple or (isinstance(item, type) and issubclass(item, Enum)) else "json"
    elif annotation is str:
        kind = "longtext" if name.endswith("_text") else "text"
    elif annotation is FileText:  # a file's text, pasted in
        kind = "longtext"
    else:
        kind = "json"
    required = info.is_required()
    default = info.get_default(call_default_factory=True) if not required else None
    if isinstance(default, Enum):
        default = default.value
    return Input(
        name=name,
        label=info.title or name.replace("_", " "),
        kind=kind,
        required=required,
        default=_text(default, kind),
        checked=default is True,
        choices=choices,
        hint=info.description or "",
        suggest=SUGGEST.get(name) if kind in ("text", "list") else None,
        splits=any(
            isinstance(m, BeforeValidator) for m in [*info.metadata, *_metadata(info.annotation)]
        ),
    )


def _metadata(annotation: Any) -> list[Any]:
    """Every ``Annotated`` extra on the way into ``annotation`` (through ``X | None``)."""
    found: list[Any] = []
    stack = [annotation]
    while stack:
        current = stack.pop()
        if typing.get_origin(current) is typing.Annotated:
            inner, *extras = typing.get_args(current)
            found += extras
            stack.append(inner)
        elif typing.get_origin(current) in (typing.Union, types.UnionType):
            stack += typing.get_args(current)
    return found


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """The type inside ``X | None`` and ``Annotated[X, ...]``, and whether None was allowed."""
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    optional = False
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        optional = len(members) < len(typing.get_args(annotation))
        annotation = members[0] if len(members) == 1 else str
        while typing.get_origin(annotation) is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
    return annotation, optional


def _text(value: object, kind: InputKind) -> str:
    """A default as the form shows it; none, a yes/no or an empty list shows as blank."""
    if value is None or isinstance(value, bool) or value in ((), [], {}, frozenset()):
        return ""
    if kind == "json":
        return json.dumps(value, default=str)
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(str(v) for v in value)
    return str(value)
