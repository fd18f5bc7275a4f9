"""The campaign: state as the fold of the journal's events, commands, and the session log.

>>> from turnkeeper.campaign import Journal, Wait, parse_party
>>> from turnkeeper.rules.schema import Ruleset, RulesetInfo
>>> rules = Ruleset(ruleset=RulesetInfo(name="demo", title="Demo"))
>>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 6')
>>> journal = Journal.start("demo", rules, party, seed=1)
>>> _ = journal.execute(Wait(3 * 600))
>>> journal.state.date
'1-01-01 08:30'
"""

from turnkeeper.campaign.commands import (
    AddMonster,
    AddSupply,
    AsParty,
    Command,
    CountdownAdd,
    CountdownEnd,
    CountdownOutcome,
    CountdownTick,
    CountdownTrigger,
    Damage,
    Douse,
    ForcedRest,
    Heal,
    Light,
    MarkFight,
    MarkRunning,
    NightRest,
    Note,
    Redo,
    Rest,
    SetLight,
    Undo,
    UseSupply,
    Wait,
    WaningResources,
    decide,
)
from turnkeeper.campaign.journal import Journal, command_dice, fold, start_campaign
from turnkeeper.campaign.markdown import render_markdown
from turnkeeper.campaign.registry import EVENTS
from turnkeeper.clock.durations import format_duration, parse_duration
from turnkeeper.kernel.events import Event, Recorded, RollRecord, Visibility
from turnkeeper.kernel.party import (
    Character,
    Monster,
    Party,
    PartyFileError,
    Supplies,
    load_party,
    parse_party,
)
from turnkeeper.kernel.state import CampaignState, LightState, RestState

__all__ = [
    "EVENTS",
    "AddMonster",
    "AddSupply",
    "AsParty",
    "CampaignState",
    "Character",
    "Command",
    "CountdownAdd",
    "CountdownEnd",
    "CountdownOutcome",
    "CountdownTick",
    "CountdownTrigger",
    "Damage",
    "Douse",
    "Event",
    "ForcedRest",
    "Heal",
    "Journal",
    "Light",
    "LightState",
    "MarkFight",
    "MarkRunning",
    "Monster",
    "NightRest",
    "Note",
    "Party",
    "PartyFileError",
    "Recorded",
    "Redo",
    "Rest",
    "RestState",
    "RollRecord",
    "SetLight",
    "Supplies",
    "Undo",
    "UseSupply",
    "Visibility",
    "Wait",
    "WaningResources",
    "command_dice",
    "decide",
    "fold",
    "format_duration",
    "load_party",
    "parse_duration",
    "parse_party",
    "render_markdown",
    "start_campaign",
]
