"""The ruleset schema: every number and choice the rules need, as validated data.

A ruleset is a TOML file checked against :class:`Ruleset`. Code implements each mechanism
once; a preset (one per seed text) chooses and numbers them. Every model is frozen and
forbids unknown keys, so a typo in a user's file is an error that names the key, not a
silently ignored setting.

Sections follow the rule IDs (docs/rules.md): ``time`` (TP-TIME-1, EX-TIME-1, PG-TIME-1,
DG-RND-1, CB-RND-1), ``dice`` (overloaded dice: TP-ENC-1, TP-DUN-1, TP-INI-1, TP-WENC-4),
``tables`` (ranged tables such as PG-REA-1), ``travel`` (TP-WIL-*), ``dungeon`` (EX-MOV-*,
EX-ENC-*), ``light`` (EX-LIGHT-*, TP-ENC-2), ``rest`` (EX-REST-*), ``surprise``,
``initiative``, ``attack``, ``actions``, ``usage_die`` (PG-USE-1), ``countdowns`` (DG-CD-*),
``spotlight`` (DG-SPOT-*), ``dread`` (DG-DREAD-1), ``hit_points`` (PG-HP-1, PG-HEAL-1),
``saves`` (PG-SAVE-1), ``treasure`` (PG-TRE-1), ``magic`` (TP-MAG-1), ``weather`` (TP-WENC-4
face 4), ``between_sessions`` (TP-TIME-2: the world's time between sessions).

One module per part: :mod:`.base`, :mod:`.time` (time, dice and tables), :mod:`.wilderness`,
:mod:`.dungeon` (sites, light, rest), :mod:`.combat`, :mod:`.scenes`, :mod:`.ruleset`.
"""

from turnkeeper.rules.schema.base import DiceExpression, Rules
from turnkeeper.rules.schema.combat import (
    ActionRules,
    AttackRules,
    HitPointRules,
    InitiativeRules,
    MagicRules,
    SaveRules,
    SurpriseRules,
)
from turnkeeper.rules.schema.domains import DomainRules, MoodRow
from turnkeeper.rules.schema.dungeon import (
    DungeonRules,
    LightRules,
    LightSource,
    MovementMode,
    RestRules,
)
from turnkeeper.rules.schema.months import FactionRow, FactionRules, HavenRules
from turnkeeper.rules.schema.ruleset import Ruleset, RulesetInfo
from turnkeeper.rules.schema.scenes import CountdownRules, CountdownType, DreadRules, SpotlightRules
from turnkeeper.rules.schema.sessions import SessionRules
from turnkeeper.rules.schema.time import (
    Face,
    FaceEvent,
    OverloadedDie,
    RangedTable,
    Side,
    TableRow,
    TimeScales,
)
from turnkeeper.rules.schema.wilderness import (
    LostRules,
    TravelRules,
    Vessel,
    WeatherRules,
    WildernessRules,
)

__all__ = [
    "ActionRules",
    "AttackRules",
    "CountdownRules",
    "CountdownType",
    "DiceExpression",
    "DomainRules",
    "DreadRules",
    "DungeonRules",
    "Face",
    "FaceEvent",
    "FactionRow",
    "FactionRules",
    "HavenRules",
    "HitPointRules",
    "InitiativeRules",
    "LightRules",
    "LightSource",
    "LostRules",
    "MagicRules",
    "MoodRow",
    "MovementMode",
    "OverloadedDie",
    "RangedTable",
    "RestRules",
    "Rules",
    "Ruleset",
    "RulesetInfo",
    "SaveRules",
    "SessionRules",
    "Side",
    "SpotlightRules",
    "SurpriseRules",
    "TableRow",
    "TimeScales",
    "TravelRules",
    "Vessel",
    "WeatherRules",
    "WildernessRules",
]
