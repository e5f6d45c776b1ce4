"""Deals the tests share: random valid deals and names (hypothesis strategies), a short evening of every rule
profile as quadrille-evening/1 deals, and a deal's summary as a player reads it."""

from __future__ import annotations

from hypothesis import strategies as st

from scorer.core import Card, Contract, Deal, DealSummary, HouseRules, Suit, TableState, Vole, settle, summarise
from scorer.core import rules as R
from scorer.core.errors import ImpossibleDeal
from scorer.core.model import CONTRACT_KINDS
from scorer.core.names import check_players, normalise

from .scenario import parse_deal

PLAYERS = ("Ann", "Bea", "Cat", "Dan")


# --- random deals and names ------------------------------------------------------------------------------


NAMES = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cf", "Cs", "Co", "Cn")), min_size=1, max_size=12)


def _can_sit_together(names: tuple[str, ...]) -> bool:
    try:
        check_players(names)
    except ImpossibleDeal:
        return False
    return True


@st.composite
def players(draw: st.DrawFn) -> tuple[str, ...]:
    """Four names as the forms and files give them to the core: normalised, and a table can tell them apart."""
    return draw(st.lists(NAMES.map(normalise), min_size=4, max_size=4).map(tuple).filter(_can_sit_together))


@st.composite
def valid_deal(draw: st.DrawFn, state: TableState, rules: HouseRules) -> Deal:
    """A deal that could have happened at this table under these rules."""
    table = state.players
    dealer = state.next_dealer or draw(st.sampled_from(table))
    contract = draw(st.sampled_from(rules.profile.contracts))
    kind = CONTRACT_KINDS[contract]
    hombre = draw(st.sampled_from(table))
    trumps = draw(st.sampled_from(list(Suit))) if kind.trumps else None
    favourite = draw(st.sampled_from(list(Suit))) if kind.trumps and rules[R.FAVOURITE_SUIT] is R.FavouriteSuit.EACH_DEAL else None
    hombre_tricks = draw(st.integers(0, 10))
    called = ally = ally_tricks = giver = None
    if kind.calls_king:
        suits = [s for s in Suit if s is not trumps] if contract in (Contract.ALLIANCE, Contract.FORCED_SPADILLE) else list(Suit)
        called = Card(draw(st.sampled_from("KQ")), draw(st.sampled_from(suits)))
    if kind.takes_king:
        giver = draw(st.sampled_from([p for p in table if p != hombre]))
    elif kind.allied:
        own_king_allowed = rules[R.OWN_KING] is not R.OwnKing.FORBIDDEN and contract is not Contract.CASCO
        ally = draw(st.sampled_from([p for p in table if p != hombre or own_king_allowed]))
        if ally != hombre:
            ally_tricks = draw(st.integers(0, 10 - hombre_tricks))
    side_tricks = hombre_tricks + (ally_tricks or 0)

    matadors = 0
    if trumps is not None:
        longest = 4 if (trumps.is_red or rules[R.DOUBLE_MATADORS_SUITS] is R.DoubleMatadorsSuits.ANY_SUIT) else 3
        matadors = draw(st.sampled_from([0, 3] + list(range(4, trumps.trump_count + 1)) if longest == 4 else [0, 3]))

    no_bonuses = kind.nemo or (kind.forced and rules[R.FORCED_SPADILLE_BONUSES] is R.ForcedSpadilleBonuses.NO_PREMIERS_NO_VOLE)
    premiers, vole = False, Vole.NONE
    if contract in rules.profile.vole_bids and draw(st.booleans()):
        vole = draw(st.sampled_from([Vole.ANNOUNCED, Vole.REVEALED]))
    if side_tricks >= 6 and not no_bonuses:
        premiers = side_tricks == 10 or draw(st.booleans())
    if premiers and not kind.vole_announced and vole is Vole.NONE:
        vole = Vole.UNDERTAKEN if side_tricks > 6 else draw(st.sampled_from([Vole.NONE, Vole.UNDERTAKEN]))

    spadille = None
    takers = state.spadille_takers if state.spadille_reserve else ()
    if contract is Contract.FORCED_SPADILLE:
        if takers and hombre not in takers:  # she lost that codille: one of the three takes its odd chips (EB)
            spadille = draw(st.sampled_from(takers))
        else:
            spadille = hombre if draw(st.booleans()) else None
    elif takers:
        spadille = draw(st.sampled_from(takers))
    elif state.spadille_reserve or draw(st.booleans()):
        spadille = draw(st.sampled_from(table))
    return Deal(dealer, hombre, contract, trumps, called, ally, hombre_tricks, ally_tricks, matadors, premiers, vole,
                spadille, giver, favourite)


# --- a short evening of every profile --------------------------------------------------------------------


def deal(dealer: str, hombre: str, contract: str, trumps: str | None, tricks: int, *, called: str | None = None,
         ally: str | None = None, ally_tricks: int | None = None, matadors: int = 0, premiers: bool = False,
         vole: str = "none", giver: str | None = None) -> dict[str, object]:
    data: dict[str, object] = {"dealer": dealer, "hombre": hombre, "contract": contract, "trumps": trumps, "called": called,
                               "ally": ally, "tricks": {"hombre": tricks, "ally": ally_tricks}, "matadors": matadors,
                               "premiers": premiers, "vole": vole}
    if giver:
        data["giver"] = giver
    return data


EVENINGS = {
    "penguin_chips": [
        deal("Ann", "Bea", "solo", "hearts", 6, matadors=3),
        deal("Bea", "Cat", "alliance", "spades", 3, called="KH", ally="Dan", ally_tricks=2),
        deal("Cat", "Dan", "forced_spadille", "clubs", 4, called="KD", ally="Ann", ally_tricks=3),
        deal("Dan", "Ann", "vole", "diamonds", 10, premiers=True),
    ],
    "mediateur": [
        deal("Ann", "Bea", "forced_spadille", "spades", 3, called="KH", ally="Cat", ally_tricks=3),
        deal("Bea", "Cat", "alliance", "hearts", 4, called="KS", ally="Dan", ally_tricks=3, matadors=3),
        deal("Cat", "Dan", "mediateur", "clubs", 6, called="KH", giver="Ann"),
        deal("Dan", "Ann", "casco", "diamonds", 2, called="KC", ally="Bea", ally_tricks=2),
        deal("Ann", "Bea", "solo", "hearts", 10, premiers=True, vole="announced"),
        deal("Bea", "Cat", "grandissimo", None, 7),
        deal("Cat", "Dan", "nemo", None, 0),
        deal("Dan", "Ann", "mediateur", "spades", 10, called="KD", giver="Cat", premiers=True, vole="revealed"),
    ],
    "penguin_points": [
        deal("Ann", "Bea", "solo", "hearts", 5),
        deal("Bea", "Cat", "alliance", "spades", 2, called="KH", ally="Dan", ally_tricks=2),
        deal("Cat", "Dan", "forced_spadille", "clubs", 3, called="KD", ally="Ann", ally_tricks=3, premiers=True),
        deal("Dan", "Ann", "vole", "diamonds", 10, premiers=True),
    ],
    "britannica": [
        deal("Ann", "Bea", "forced_spadille", "spades", 3, called="KH", ally="Cat", ally_tricks=3),
        deal("Bea", "Cat", "alliance", "hearts", 4, called="KS", ally="Dan", ally_tricks=3, matadors=3),
        deal("Cat", "Dan", "mediateur", "clubs", 6, called="KH", giver="Ann"),
        deal("Dan", "Ann", "solo", "diamonds", 4),
    ],
}


def evening_deals(profile: str) -> list[dict[str, object]]:
    """A short evening of the profile that plays each of its contracts (quadrille plays the Penguin's)."""
    return EVENINGS.get(profile, EVENINGS["penguin_chips"])


# --- a deal summarised -----------------------------------------------------------------------------------


def net_line(summary: DealSummary) -> str:
    """The nets and what the table carries as one line: "Ann −21 · Bea +63 · Cat −21 · Dan −21 · pool 0, vole pool 0"."""
    nets = " · ".join(f"{net.player} {net.signed}" for net in summary.nets)
    carried = ", ".join(f"{label} {value}" for label, value in summary.carried)
    return f"{nets} · {carried}" if carried else nets


def summary_of(line: str, profile: str = "quadrille", changes: dict[str, str] | None = None, pool: int = 0) -> list[str]:
    """The summary as a player reads it: headline, net line, unit sentence, the group lines, the notes."""
    rules = HouseRules.of(profile, changes or {})
    settlement = settle(parse_deal(line), TableState(players=PLAYERS, balances=(0,) * 4, pool=pool), rules)
    summary = summarise(settlement, rules)
    said = [*([summary.unit_sentence] if summary.unit_sentence else []), *(g.sentence for g in summary.groups)]
    return [str(summary.headline), net_line(summary), *map(str, said), *map(str, summary.notes)]
