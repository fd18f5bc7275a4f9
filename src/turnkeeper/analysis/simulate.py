"""The designer's view of a fight: who wins, in how many rounds, at what cost in hit points.

Many fights run at once with numpy: hit points are an array of shape ``(runs, combatants)``
and every round is a handful of array operations, the same for every run. The model follows
the ruleset's numbers, simplified where a fight simulation must choose for the table:

* Surprise first, by the ruleset's method or as given (PG-SUR-1 2 in 6 for each unaware
  side, CB-SUR-1 the attackers' stealth against the defenders' notice): a side alone in
  being surprised loses a full round to the other; a surprised undisciplined opposition
  checks morale, 2d6 at or under its score, and flees otherwise (CB-SUR-2).
* The fight may open at range: for ``range_rounds`` rounds only the combatants with
  missiles attack, with the ranged stat (TP-ATK-1 WIS, PG-ATK-2 DEX); a fighter adds STR
  to their damage as in melee (PG-ATK-2 does not limit it to melee, nor does the engine).
* Then everyone fights in melee: each standing combatant attacks one standing enemy chosen
  at random, with the attack die + melee stat + HB + HD bonus (TP-ATK-1, PG-ATK-2), hitting
  strictly above or at AC as the ruleset says, for its damage die (+STR for the classes
  that add it).
* Order of beats per ruleset: the overloaded die (TP-INI-1: all at once, TP-INI-2; face 2
  fatigue hurts everyone in melee after its first exchange; face 6 gives the party +1); side
  initiative (PG-INI-1, CB-INI-1: the winning side's results take effect before the loser acts; ties
  simultaneous or to the party; kept for every round when the ruleset says so, CB-INI-2);
  individual initiative (CB-INI-3).
* Out of the fight at 0 hit points (PG-HP-1), or fled; no spells.

>>> from turnkeeper.rules.loader import preset
>>> from turnkeeper.procedures.combat.roster import parse_roster
>>> fighters = parse_roster('''
... [[characters]]
... name = "Ann"
... hp = 12
... ac = 15
... damage = "d8"
... [[foes]]
... name = "Rat"
... count = 2
... hp = 2
... ac = 10
... damage = "d3"
... ''')
>>> odds = simulate_fight(preset("pg"), fighters, runs=2000, seed=1)
>>> odds.party_wins > 0.9, odds.runs
(True, 2000)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from turnkeeper.analysis.expedition import Histograms, column_data, in_chunks
from turnkeeper.dice import parse
from turnkeeper.dice.sampling import sample
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.combat_state import Combatant, Side
from turnkeeper.procedures.combat.attacks import attack_bonus
from turnkeeper.rules.schema import FaceEvent, Ruleset

__all__ = ["FightOdds", "simulate_fight"]

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]


@dataclass(frozen=True)
class FightOdds:
    """What many runs of one fight say: win chances, rounds, hit points lost per side."""

    runs: int
    party_wins: float
    opposition_wins: float
    both_down: float
    unresolved: float
    rounds_mean: float
    rounds: dict[int, int]
    hp_lost_party: float
    hp_lost_opposition: float
    party_surprised: float = 0.0
    foes_surprised: float = 0.0
    foes_fled: float = 0.0
    columns: dict[str, Ints] = field(default_factory=dict, repr=False, compare=False)
    """Per-run histograms for ``--json``: rounds, hp lost by the party and by the foes."""

    def to_dict(self) -> dict[str, object]:
        """JSON-able, for ``--json``."""
        return {
            "runs": self.runs,
            "party_wins": self.party_wins,
            "opposition_wins": self.opposition_wins,
            "both_down": self.both_down,
            "unresolved": self.unresolved,
            "rounds_mean": self.rounds_mean,
            "rounds": {str(k): v for k, v in sorted(self.rounds.items())},
            "hp_lost": {"party": self.hp_lost_party, "opposition": self.hp_lost_opposition},
            "surprised": {"party": self.party_surprised, "opposition": self.foes_surprised},
            "foes_fled": self.foes_fled,
            "columns": column_data(self.columns),
        }


@dataclass(frozen=True)
class _Fighters:
    party: Bools  # (n,)
    ac: Ints
    bonus: Ints
    ranged: Ints  # the bonus at range: the ranged stat instead of the melee one (TP-ATK-1)
    strength: Ints  # damage bonus for the classes that add STR (PG-ATK-2)
    unruly: Bools  # undisciplined foes with a morale score (CB-SUR-2)
    morale: Ints
    hp: Ints
    damage: tuple[str, ...]
    stats: dict[str, Ints]


def _fighters(rules: Ruleset, combatants: Sequence[Combatant]) -> _Fighters:
    strong = {c.casefold() for c in rules.attack.strength_damage_classes}
    return _Fighters(
        party=np.array([c.side is Side.PARTY for c in combatants]),
        ac=np.array([c.ac for c in combatants], dtype=np.int64),
        bonus=np.array(
            [attack_bonus(c, rules, ranged=False, second_wind=False) for c in combatants],
            dtype=np.int64,
        ),
        ranged=np.array(
            [attack_bonus(c, rules, ranged=True, second_wind=False) for c in combatants],
            dtype=np.int64,
        ),
        unruly=np.array(
            [
                c.side is Side.OPPOSITION and not c.disciplined and c.morale is not None
                for c in combatants
            ]
        ),
        morale=np.array([c.morale or 0 for c in combatants], dtype=np.int64),
        strength=np.array(
            [
                c.stat(rules.attack.melee_stat) if c.character_class.casefold() in strong else 0
                for c in combatants
            ],
            dtype=np.int64,
        ),
        hp=np.array([c.hp for c in combatants], dtype=np.int64),
        damage=tuple(c.damage for c in combatants),
        stats={
            name: np.array([c.stat(name) for c in combatants], dtype=np.int64)
            for name in rules.stats
        },
    )


def _best(f: _Fighters, alive: Bools, party: bool, name: str) -> Ints:
    """Per run, the best modifier ``name`` among a side's standing members (CB-INI-1)."""
    values = f.stats.get(name, np.zeros_like(f.ac))
    members = alive & (f.party == party)
    best = np.where(members, values, np.iinfo(np.int64).min).max(axis=1)
    return np.where(members.any(axis=1), best, 0)


def _side_total(
    rules: Ruleset, f: _Fighters, alive: Bools, party: bool, rng: np.random.Generator
) -> Ints:
    """A side's initiative roll: the die with each named stat read as the side's best.

    Names are read as added modifiers (``1d8+DEX``), which every preset's die is.
    """
    expression = parse(rules.initiative.die)
    total = sample(expression, alive.shape[0], rng, {k: 0 for k in expression.names})
    for name in expression.names:
        total = total + _best(f, alive, party, name)
    return total


def _beats(rules: Ruleset, f: _Fighters, alive: Bools, rng: np.random.Generator) -> Ints:
    """The beat each combatant acts in, per run: shape (runs, n); 0 acts first."""
    runs, n = alive.shape
    method = rules.initiative.method
    if method == "overloaded":
        return np.zeros((runs, n), dtype=np.int64)
    opposition = _side_total(rules, f, alive, False, rng)
    if method == "individual":
        # CB-INI-3: each character alone, the opposition as one; ties to the party (the +1).
        expression = parse(rules.initiative.die)
        keys = np.empty((runs, n), dtype=np.int64)
        for i in range(n):
            if f.party[i]:
                own = sample(expression, runs, rng, {k: 0 for k in expression.names})
                for name in expression.names:
                    own = own + f.stats.get(name, np.zeros_like(f.ac))[i]
                keys[:, i] = own * 2 + 1
            else:
                keys[:, i] = opposition * 2
        # A combatant's beat: how many distinct keys in its run are higher than its own.
        ranked = -np.sort(-keys, axis=1)
        first = np.ones_like(ranked, dtype=bool)
        first[:, 1:] = ranked[:, 1:] != ranked[:, :-1]
        above = (ranked[:, None, :] > keys[:, :, None]) & first[:, None, :]
        beat: Ints = above.sum(axis=2).astype(np.int64)
        return beat
    party = _side_total(rules, f, alive, True, rng)
    first = np.sign(party - opposition)
    if rules.initiative.ties == "party":
        first = np.where(first == 0, 1, first)
    party_beat = np.where(first >= 0, 0, 1)
    opposition_beat = np.where(first <= 0, 0, 1)
    return np.where(f.party[None, :], party_beat[:, None], opposition_beat[:, None])


def _attack_beat(
    rules: Ruleset,
    f: _Fighters,
    hp: Ints,
    actors: Bools,
    second_wind: Bools,
    rng: np.random.Generator,
    at_range: bool = False,
) -> Ints:
    """Damage dealt to each combatant when ``actors`` all attack at once: shape (runs, n);
    ``at_range``: missiles, with the ranged stat; STR to damage as in melee (PG-ATK-2)."""
    runs, n = hp.shape
    standing = hp > 0
    enemy = f.party[:, None] != f.party[None, :]  # (n attacker, n target)
    scores = rng.random((runs, n, n))
    valid = enemy[None, :, :] & standing[:, None, :]
    scores = np.where(valid, scores, -1.0)
    target = scores.argmax(axis=2)  # (runs, n)
    has_target = valid.any(axis=2) & actors
    die = parse(rules.attack.die)
    thrown = sample(die, runs * n, rng).reshape(runs, n)
    bonus = f.ranged if at_range else f.bonus
    total = thrown + bonus[None, :] + (second_wind[:, None] & f.party[None, :])
    target_ac = f.ac[target]
    hit = total > target_ac if rules.attack.hits == "above" else total >= target_ac
    dealt = np.zeros((runs, n), dtype=np.int64)
    for i in range(n):
        amount = sample(parse(f.damage[i]), runs, rng) + f.strength[i]
        amount = np.maximum(amount, 0) * (hit[:, i] & has_target[:, i])
        np.add.at(dealt, (np.arange(runs), target[:, i]), amount)
    return dealt


def _shooters(combatants: Sequence[Combatant], names: Collection[str]) -> Bools:
    """Who has missiles: combatants named, or every member of a group by its name
    (``Goblin`` for Goblin 1 .. Goblin 4)."""
    wanted = set(names)
    mask = np.array([c.name in wanted or c.name.rsplit(" ", 1)[0] in wanted for c in combatants])
    known = {c.name for c in combatants} | {c.name.rsplit(" ", 1)[0] for c in combatants}
    stray = sorted(wanted - known)
    if stray:
        raise IllegalCommandError(
            f"no combatant called {stray[0]!r} to shoot; combatants: "
            + ", ".join(c.name for c in combatants)
        )
    return mask


def _surprise(
    rules: Ruleset,
    f: _Fighters,
    runs: int,
    rng: np.random.Generator,
    surprised: frozenset[Side] | None,
    aware: frozenset[Side],
    attackers: Side | None,
) -> tuple[Bools, Bools]:
    """Per run, is the party surprised, are the foes: given, or by the ruleset's method
    (PG-SUR-1 in six for each unaware side; CB-SUR-1 the attackers' d20 + best stealth
    against the defenders' d20 + best notice, strictly higher). Under ``movement`` (EX-SUR)
    surprise comes from the exploration that met the foes: given, or none."""
    nobody = np.zeros(runs, dtype=bool)
    if surprised is not None:
        return nobody | (Side.PARTY in surprised), nobody | (Side.OPPOSITION in surprised)
    rules_s = rules.surprise
    if rules_s.method == "in_six":
        sides = []
        for side in (Side.PARTY, Side.OPPOSITION):
            sides.append(
                nobody if side in aware else rng.integers(1, 7, runs) <= rules_s.chance_in_six
            )
        return sides[0], sides[1]
    if rules_s.method == "opposed" and attackers is not None:
        defenders = Side.OPPOSITION if attackers is Side.PARTY else Side.PARTY
        if defenders in aware:
            return nobody, nobody
        alive = np.ones((runs, f.party.size), dtype=bool)
        sneak = rng.integers(1, 21, runs) + _best(
            f, alive, attackers is Side.PARTY, rules_s.stealth_stat
        )
        notice = rng.integers(1, 21, runs) + _best(
            f, alive, defenders is Side.PARTY, rules_s.notice_stat
        )
        won = sneak > notice
        return (won, nobody) if defenders is Side.PARTY else (nobody, won)
    return nobody, nobody


def simulate_fight(
    rules: Ruleset,
    combatants: Sequence[Combatant],
    *,
    runs: int = 10_000,
    seed: int = 0,
    max_rounds: int = 50,
    progress: Callable[[int], None] | None = None,
    range_rounds: int = 0,
    shooters: Collection[str] = (),
    surprised: frozenset[Side] | None = None,
    aware: frozenset[Side] = frozenset(),
    attackers: Side | None = None,
) -> FightOdds:
    """Run ``runs`` fights at once, in chunks; ``progress`` is told how many are done.

    ``range_rounds``: the fight opens that many rounds apart, only the ``shooters`` attacking
    (missiles, the ranged stat), before the sides meet in melee. ``surprised``, ``aware``,
    ``attackers``: surprise as :func:`_surprise` settles it; a side alone in being surprised
    loses a full round to the other (PG-SUR-1, CB-SUR-1, EX-SUR-5), and a surprised
    undisciplined opposition checks morale, 2d6 at or under its score, or flees (CB-SUR-2).
    """
    if runs < 1:
        raise IllegalCommandError(f"simulate at least 1 fight, not {runs}")
    if not 0 <= range_rounds < max_rounds:
        raise IllegalCommandError(
            f"--range-rounds {range_rounds}: from 0 to {max_rounds - 1} rounds at range"
        )
    f = _fighters(rules, combatants)
    if f.party.all() or not f.party.any():
        raise IllegalCommandError("a fight needs combatants on both sides: a party and foes")
    missiles = _shooters(combatants, shooters)
    n = len(combatants)

    def fights(size: int, rng: np.random.Generator) -> Histograms:
        return _fights(
            rules, f, missiles, size, rng, max_rounds, range_rounds, surprised, aware, attackers
        )

    # A chunk's arrays grow with the square of the combatants (who attacks whom): ~16 MB each.
    chunk = max(1_000, 2_000_000 // (n * n))
    total = in_chunks(fights, runs, seed, chunk, progress)

    def share(name: str, value: int) -> float:
        counts = total[name]
        return int(counts[value]) / runs if value < counts.size else 0.0

    def mean(name: str) -> float:
        counts = total[name]
        return float((np.arange(counts.size) * counts).sum()) / runs

    rounds = total["rounds"]
    return FightOdds(
        runs=runs,
        party_wins=share("outcome", _WON),
        opposition_wins=share("outcome", _LOST),
        both_down=share("outcome", _BOTH),
        unresolved=share("outcome", _UNRESOLVED),
        rounds_mean=mean("rounds"),
        rounds={i: int(c) for i, c in enumerate(rounds) if c},
        hp_lost_party=mean("hp_lost_party"),
        hp_lost_opposition=mean("hp_lost_foes"),
        party_surprised=share("party_surprised", 1),
        foes_surprised=share("foes_surprised", 1),
        foes_fled=mean("foes_fled"),
        columns={name: total[name] for name in ("rounds", "hp_lost_party", "hp_lost_foes")},
    )


#: How a fight ends, per run.
_WON, _LOST, _BOTH, _UNRESOLVED = range(4)


def _fights(
    rules: Ruleset,
    f: _Fighters,
    missiles: Bools,
    runs: int,
    rng: np.random.Generator,
    max_rounds: int,
    range_rounds: int,
    surprised: frozenset[Side] | None,
    aware: frozenset[Side],
    attackers: Side | None,
) -> Histograms:
    """``runs`` fights at once: how each ended, its rounds, the hit points each side lost,
    who was surprised and how many fled, as histograms."""
    n = f.party.size
    hp = np.broadcast_to(f.hp, (runs, n)).copy()
    rounds = np.zeros(runs, dtype=np.int64)
    # Surprise, and the free round a side alone in being surprised gives the other.
    party_surprised, foes_surprised = _surprise(rules, f, runs, rng, surprised, aware, attackers)
    fled = np.zeros((runs, n), dtype=bool)
    if rules.surprise.morale_when_surprised and f.unruly.any():
        score = int(f.morale[np.flatnonzero(f.unruly)[0]])  # the group checks as one
        breaks = foes_surprised & (sample(parse("2d6"), runs, rng) > score)
        fled = breaks[:, None] & f.unruly[None, :]
    kept_hp = hp.copy()
    hp[fled] = 0  # out of the fight; their hit points are not lost
    if rules.surprise.surprised_lose_round:
        free_party = foes_surprised & ~party_surprised
        free_foes = party_surprised & ~foes_surprised
        lucky = np.flatnonzero(free_party | free_foes)
        if lucky.size:
            side = np.where(free_party[lucky, None], f.party[None, :], ~f.party[None, :])
            sub = hp[lucky]
            actors = (sub > 0) & side & (missiles[None, :] if range_rounds else True)
            no_wind = np.zeros(lucky.size, dtype=bool)
            sub -= _attack_beat(rules, f, sub, actors, no_wind, rng, at_range=range_rounds > 0)
            hp[lucky] = sub
            rounds[lucky] += 1
    die = rules.dice.get(rules.initiative.overloaded_die)
    face_events = [die.faces[k].event for k in range(1, die.sides + 1)] if die is not None else []
    kept: Ints | None = None
    fatigue_faces = [i for i, e in enumerate(face_events) if e is FaceEvent.FATIGUE]
    wind_faces = [i for i, e in enumerate(face_events) if e is FaceEvent.SECOND_WIND]
    for round_number in range(1, max_rounds + 1):
        standing = hp > 0
        fighting = (standing & f.party).any(axis=1) & (standing & ~f.party).any(axis=1)
        active = np.flatnonzero(fighting)
        if not active.size:
            break
        rounds[active] += 1
        at_range = round_number <= range_rounds
        # Only the fights still running are worked on: most end early.
        sub, up = hp[active], standing[active]
        second_wind = np.zeros(active.size, dtype=bool)
        if rules.initiative.method == "overloaded" and die is not None:
            faces = rng.integers(0, die.sides, active.size)
            second_wind = np.isin(faces, wind_faces)
            if round_number > range_rounds + 1:  # in melee after the first exchange
                sub -= np.isin(faces, fatigue_faces)[:, None] & up
        if kept is None or rules.initiative.reroll_each_round:
            kept = np.zeros((runs, n), dtype=np.int64)
            kept[active] = _beats(rules, f, up, rng)
        beats = kept[active]
        for beat in range(int(beats.max()) + 1):
            actors = (sub > 0) & (beats == beat) & (missiles[None, :] if at_range else True)
            if actors.any():
                sub -= _attack_beat(rules, f, sub, actors, second_wind, rng, at_range)
        hp[active] = sub
    standing = hp > 0
    hp = np.where(fled, kept_hp, hp)  # those who fled kept their hit points
    party_up = (standing & f.party).any(axis=1)
    foes_up = (standing & ~f.party).any(axis=1)
    lost = np.minimum(f.hp[None, :] - hp, np.maximum(f.hp, 0)[None, :])
    outcome = np.where(party_up & ~foes_up, _WON, np.where(foes_up & ~party_up, _LOST, _UNRESOLVED))
    outcome = np.where(~party_up & ~foes_up, _BOTH, outcome)
    return {
        "outcome": np.bincount(outcome, minlength=4),
        "rounds": np.bincount(rounds),
        "hp_lost_party": np.bincount(np.maximum(lost[:, f.party].sum(axis=1), 0)),
        "hp_lost_foes": np.bincount(np.maximum(lost[:, ~f.party].sum(axis=1), 0)),
        "party_surprised": np.bincount(party_surprised.astype(np.int64), minlength=2),
        "foes_surprised": np.bincount(foes_surprised.astype(np.int64), minlength=2),
        "foes_fled": np.bincount(fled.sum(axis=1)),
    }
