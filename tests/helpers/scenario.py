"""Deals and whole evenings written as text a reader can check by hand.

A deal line::

    Ann deals: Bea solo in hearts, 6 tricks, 3 matadors, premiers
    Ann deals: Bea alliance in spades calling KH held by Dan, 2 + 3 tricks
    Ann deals: Cat forced spadille in hearts calling KS held by Dan, 3 + 2 tricks
    Bea deals: Cat solo in clubs, 6 tricks, spadille with Dan

    Ann deals: Bea mediateur in spades calling KH from Dan, 6 tricks
    Ann deals: Bea grandissimo, 10 tricks, premiers, vole announced

(``2 + 3 tricks`` is Hombre's and her ally's; ``calling KH from Dan``: the
médiateur King and who gave it; options after the tricks: ``N matadors``,
``premiers``, ``vole undertaken|announced|revealed``, ``spadille with NAME``,
``favourite SUIT``.)

What it must give, on the next line::

    => remise; pool 8; Ann +4, Bea -20, Cat +4, Dan +4
    => vole_lost; pool 0; vole pool 0; Ann -6, Bea +18, Cat -6, Dan -6
    => codille; ×2; Ann 0, Bea 0, Cat -80, Dan 0      (point score: what the game counted)

The names with their signed numbers are each player's change in that deal.
A scenario is ``players A B C D``, optional ``rules name=value ...`` and
``agreed N`` lines, then deal lines each followed by its ``=>`` line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scorer.core import Card, Contract, Deal, HouseRules, Result, Settlement, Suit, Vole

DEAL_LINE = re.compile(
    r"^(?P<dealer>\w+) deals: (?P<hombre>\w+) "
    r"(?P<contract>alliance|solo|vole|forced spadille|mediateur|casco|grandissimo|nemo)(?: in (?P<trumps>\w+))?"
    r"(?: calling (?P<called>\w\w) (?:held by (?P<ally>\w+)|from (?P<giver>\w+)))?"
    r", (?P<tricks>\d+)(?: \+ (?P<ally_tricks>\d+))? tricks?"
    r"(?P<options>(?:, [\w ]+)*)$"
)


def parse_deal(line: str) -> Deal:
    m = DEAL_LINE.match(line.strip())
    if not m:
        raise ValueError(f"not a deal line: {line!r}")
    matadors, premiers, vole, spadille, favourite = 0, False, Vole.NONE, None, None
    for option in filter(None, (o.strip() for o in m["options"].split(","))):
        if option.endswith(" matadors"):
            matadors = int(option.split()[0])
        elif option == "premiers":
            premiers = True
        elif option.startswith("vole "):
            vole = Vole(option.split()[1])
        elif option.startswith("favourite "):
            favourite = Suit(option.split()[1])
        elif option.startswith("spadille with "):
            spadille = option.split()[-1]
        else:
            raise ValueError(f"unknown option {option!r} in {line!r}")
    return Deal(
        dealer=m["dealer"],
        hombre=m["hombre"],
        contract=Contract(m["contract"].replace(" ", "_")),
        trumps=Suit(m["trumps"]) if m["trumps"] else None,
        called=Card.parse(m["called"]) if m["called"] else None,
        ally=m["ally"],
        hombre_tricks=int(m["tricks"]),
        ally_tricks=int(m["ally_tricks"]) if m["ally_tricks"] is not None else None,
        matadors=matadors,
        premiers=premiers,
        vole=vole,
        spadille=spadille,
        giver=m["giver"],
        favourite=favourite,
    )


@dataclass(frozen=True)
class Expected:
    result: Result
    pool: int
    vole_pool: int
    changes: dict[str, int]
    multiplier: int | None = None


def parse_expected(line: str) -> Expected:
    parts = [p.strip() for p in line.strip().removeprefix("=>").split(";")]
    result = Result(parts[0])
    pool = vole_pool = 0
    multiplier = None
    changes: dict[str, int] = {}
    for part in parts[1:]:
        if part.startswith("×"):
            multiplier = int(part[1:])
        elif part.startswith("pool "):
            pool = int(part.split()[1])
        elif part.startswith("vole pool "):
            vole_pool = int(part.split()[2])
        else:
            for item in part.split(","):
                name, number = item.split()
                changes[name] = int(number)
    return Expected(result, pool, vole_pool, changes, multiplier)


@dataclass
class Scenario:
    players: tuple[str, ...] = ()
    rules: HouseRules = field(default_factory=HouseRules.of)
    deals_agreed: int = 40
    steps: list[tuple[Deal, Expected]] = field(default_factory=list)


def parse_scenario(text: str) -> Scenario:
    scenario = Scenario()
    changes: dict[str, str] = {}
    profile = "quadrille"
    pending: Deal | None = None
    for raw in text.strip().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("players "):
            scenario.players = tuple(line.split()[1:])
        elif line.startswith("profile "):
            profile = line.split()[1]
        elif line.startswith("rules "):
            changes.update(item.split("=") for item in line.split()[1:])  # type: ignore[misc]
        elif line.startswith("agreed "):
            scenario.deals_agreed = int(line.split()[1])
        elif line.startswith("=>"):
            assert pending is not None, f"an => line with no deal before it: {line!r}"
            scenario.steps.append((pending, parse_expected(line)))
            pending = None
        else:
            assert pending is None, f"deal without an => line: {pending}"
            pending = parse_deal(line)
    assert pending is None, "the last deal has no => line"
    scenario.rules = HouseRules.of(profile, changes)
    return scenario


def assert_settles_as(settlement: Settlement, expected: Expected, players: tuple[str, ...]) -> None:
    """The settlement gives what the => line says: result, each player's change, the pools, the multiplier."""
    where = f"deal {settlement.number}"
    assert settlement.result is expected.result, where
    assert {p: settlement.change(p) for p in players} == expected.changes, where
    assert settlement.after.pool == expected.pool, where
    assert settlement.after.vole_pool == expected.vole_pool, where
    if expected.multiplier is not None:
        assert settlement.multiplier == expected.multiplier, where
