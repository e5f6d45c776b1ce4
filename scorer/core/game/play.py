"""The play of a deal, card by card: the rank of the cards, what may lawfully be played, who takes
each trick, and what a whole play record proves about the deal.

The sources describe the play completely (P, PG; the renounce and the matadors' privilege also EB):

- **The pack**: 40 cards, A K Q J 7 6 5 4 3 2 of each suit.
- **Trumps** (P, PG), highest first: Spadille (the Ace of spades), Manille (the 2 of a black
  trump suit, the 7 of a red one), Basto (the Ace of clubs), Punto (the Ace of a red trump
  suit), then K Q J 7 6 5 4 3 in black or K Q J 2 3 4 5 6 in red. Spadille and Basto are
  trumps whatever the trump suit. In grandissimo and nemo (Médiateur, P) there is no trump suit:
  the two black Aces alone are trumps, Spadille above Basto.
- **Plain suits**: black K Q J 7 6 5 4 3 2 (the black Aces are trumps), red K Q J A 2 3 4 5 6 7.
- **The play** (P, PG): the eldest hand leads to the first trick; each player follows suit if she
  can, and may play any card if she cannot; the highest trump takes the trick, or else the
  highest card of the suit led; the winner leads next. Play passes to the right, as the deal
  does: the next in the players' list.
- **The matadors' privilege** (P, PG, EB): a player whose only trumps are matadors (Spadille,
  Manille, Basto: "the three first only enjoy the privilege", EB; Punto is not one, P) need not
  play one to a trump lead, unless a *higher* matador was led: then she must play the lower
  matador or another trump (PG: "must play either it or another trump"). P: the forcing applies
  only when the higher matador is *led*, not played second or third. In grandissimo and nemo,
  with no Manille, there are no matadors (as a deal records them) and so no privilege: the app's
  reading, no source speaks of it.

A record stops after six tricks only at a claim of premiers (P: Hombre "may claim her winnings without further
play"; in an alliance "the same rule applies to the partnership if they take the first six between them"); if the
called King was not played by then, its holder "will naturally reveal herself" (P), and the record names her
(``Deal.revealed_ally``) unless the six tricks show her.

:func:`legal_plays` answers what may be played; :func:`judge_play` checks a whole record of the
tricks against a deal and says what it proves: each player's hand, the tricks each took, the
renounces (a card of the suit led, or a trump, held and played later: the proof), the lawful
reneges with a matador, and the deal's inputs as the play proves them. At a table,
:func:`scorer.core.ledger.table_checks.referee` calls it with what the table's settlement system pays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from .. import rules as R
from ..errors import Later, Said, ScorerError, Words, said_of
from ..i18n import N_, _, ngettext
from ..model import SEATS, TRICKS, Card, Deal, Suit, Vole
from ..rules import RuleValues

RANKS = "AKQJ765432"
"""The ranks of the pack, as letters (the 8, 9 and 10 are taken out)."""

PACK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in RANKS)
"""The 40 cards."""

SPADILLE = Card("A", Suit.SPADES)
BASTO = Card("A", Suit.CLUBS)

PLAY_TRICKS = TRICKS
"""Tricks in a whole play record: all ten."""

PREMIERS_TRICKS = 6
"""Premiers are the first six tricks (P): a record may stop there when the side claimed them."""

TRUMP = "trumps"
"""The suit of a trump, whatever suit it is printed in (:meth:`Ranking.suit_of`)."""

SUIT_PLURALS: Mapping[Suit | str, str] = {
    Suit.SPADES: N_("spades"), Suit.CLUBS: N_("clubs"), Suit.DIAMONDS: N_("diamonds"), Suit.HEARTS: N_("hearts"),
    TRUMP: N_("trumps"),
}
"""A suit's name as a sentence says it ("hearts have only 12 trumps", "must follow hearts"), in English:
pass it through ``_`` where it is read."""


class PlayError(ScorerError):
    """A play record that cannot be: a card twice or missing, a trick that is not four cards, a
    card not in the pack, a wrong number of tricks. ``trick`` (from 1) and ``card`` say where."""

    def __init__(self, message: Said, trick: int | None = None, card: str | None = None) -> None:
        super().__init__(Words(N_("trick {number}: {message}"), number=trick, message=message)
                         if trick is not None else message)
        self.trick = trick
        self.card = card


def manille(trumps: Suit) -> Card:
    """The second matador: the 2 of a black trump suit, the 7 of a red one."""
    return Card("7" if trumps.is_red else "2", trumps)


@dataclass(frozen=True)
class Ranking:
    """How the cards rank when ``trumps`` is the trump suit (``None``: grandissimo and nemo)."""

    trumps: Suit | None
    trump_order: tuple[Card, ...]
    """Every trump, highest first."""
    plain_orders: Mapping[Suit, tuple[Card, ...]]
    """Each plain suit's cards, highest first (the trump suit's entry holds no card)."""
    matadors: tuple[Card, ...]
    """The cards that enjoy the privilege, highest first: Spadille, Manille (if any), Basto."""
    trump_rank: Mapping[Card, int]
    """Each trump's place in :attr:`trump_order`, from 0 (Spadille)."""

    def is_trump(self, card: Card) -> bool:
        return card in self.trump_rank

    def suit_of(self, card: Card) -> Suit | str:
        """The suit a card belongs to in play: :data:`TRUMP` for any trump, else its own suit."""
        return TRUMP if card in self.trump_rank else card.suit

    def beats(self, card: Card, best: Card) -> bool:
        """Whether ``card`` takes a trick that ``best`` is winning."""
        if card in self.trump_rank:
            return best not in self.trump_rank or self.trump_rank[card] < self.trump_rank[best]
        if best in self.trump_rank or card.suit != best.suit:
            return False
        order = self.plain_orders[card.suit]
        return order.index(card) < order.index(best)


def ranking(trumps: Suit | None) -> Ranking:
    """The rank of every card (P's table) under ``trumps``; ``None`` for grandissimo and nemo."""
    return _RANKINGS[trumps]


def _ranking(trumps: Suit | None) -> Ranking:
    if trumps is None:
        order: tuple[Card, ...] = (SPADILLE, BASTO)
        matadors: tuple[Card, ...] = ()  # no Manille, no matadors (as check_deal says): no privilege either
    else:
        low = "KQJ23456" if trumps.is_red else "KQJ76543"
        punto = (Card("A", trumps),) if trumps.is_red else ()
        matadors = (SPADILLE, manille(trumps), BASTO)
        order = matadors + punto + tuple(Card(r, trumps) for r in low)
    plain = {
        suit: () if suit is trumps else tuple(
            c for c in (Card(r, suit) for r in ("KQJA234567" if suit.is_red else "KQJ765432")) if c not in order)
        for suit in Suit
    }
    return Ranking(trumps, order, plain, matadors, {card: i for i, card in enumerate(order)})


_RANKINGS: dict[Suit | None, Ranking] = {trumps: _ranking(trumps) for trumps in (*Suit, None)}
"""Every ranking there is, made once: one for each suit trumps, and one of no trumps (a table, not a cache)."""


def legal_plays(hand: Sequence[Card], trick: Sequence[Card], trumps: Suit | None) -> frozenset[Card]:
    """The cards of ``hand`` that may lawfully be played to ``trick`` (the cards played to it so far,
    its lead first), with the matadors' privilege and its forcing (see the module's notes)."""
    if not trick:
        return frozenset(hand)
    rank = ranking(trumps)
    led = trick[0]
    suit = rank.suit_of(led)
    following = [c for c in hand if rank.suit_of(c) == suit]
    if not following:
        return frozenset(hand)
    if suit != TRUMP or any(c not in rank.matadors for c in following):
        return frozenset(following)
    # Her only trumps are matadors: privileged, unless the lead is a higher matador than one she holds.
    if led in rank.matadors and any(rank.matadors.index(c) > rank.matadors.index(led) for c in following):
        return frozenset(following)
    return frozenset(hand)


def why_not(hand: Sequence[Card], trick: Sequence[Card], trumps: Suit | None, card: Card) -> str | None:
    """Why ``card`` may not be played from ``hand`` to ``trick`` ("must follow hearts"), or None if it may."""
    if card in legal_plays(hand, trick, trumps):
        return None
    rank = ranking(trumps)
    suit = rank.suit_of(trick[0])
    if suit == TRUMP and trick[0] in rank.matadors and all(c in rank.matadors for c in hand if rank.is_trump(c)):
        return _("must play a trump: {card} led forces a lower matador").format(card=trick[0].face)
    return _("must follow {suit}").format(suit=_(SUIT_PLURALS[suit]))


def trick_winner(cards: Sequence[Card], trumps: Suit | None) -> int:
    """The index (in playing order) of the card that takes the trick."""
    rank = ranking(trumps)
    best = 0
    for i in range(1, len(cards)):
        if rank.beats(cards[i], cards[best]):
            best = i
    return best


# --- a whole play record --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedCard:
    player: str
    card: Card


@dataclass(frozen=True)
class Trick:
    number: int
    """From 1."""
    leader: str
    cards: tuple[PlayedCard, ...]
    """In the order played, the leader's first."""
    winner: str


@dataclass(frozen=True)
class Renounce:
    """A player who did not follow when she could (EB: "beasted as often as he has renounced")."""

    trick: int
    player: str
    led: Card
    played: Card
    held: Card
    """A card she held that she had to play (the proof: she played it in a later trick)."""


@dataclass(frozen=True)
class Privilege:
    """A lawful renege: a trump led, and her only trumps were matadors she kept (P, PG, EB)."""

    trick: int
    player: str
    kept: Card


class AllyShown(str, Enum):
    """How a record shows who held the called card."""

    CARD = "card"
    """She played it."""
    CLAIM = "claim"
    """The record stops at a claim after six tricks with the card unplayed: she revealed herself (P), named in the
    record's ``revealed_ally``, or she is the only one of the three others who took a trick of the six (at a claim
    the side took them all)."""


@dataclass(frozen=True)
class Derived:
    """The deal's inputs as the play proves them, in the deal's own terms (``None``: not proven)."""

    ally: str | None
    """Who held the called card (Hombre herself when she called her own King); ``None`` in a contract with
    no ally, or at a claim that does not show her (Hombre took the six herself and nobody is named)."""
    hombre_tricks: int
    ally_tricks: int | None
    first_six: bool
    """The contracting side took the first six tricks (premiers, where the contract has them)."""
    premiers: bool
    vole: Vole
    matadors: int | None
    """0, or the unbroken run from Spadille held by the contracting side, 3 up (P); ``None`` when
    the record stops after premiers before the run is proven, or the table's system ignores matadors."""
    ally_shown: AllyShown | None = None
    """How the record shows the ally; ``None`` where the contract has none, or the record does not show her."""
    ally_unknown: bool = False
    """A claim at six in an allied contract, the called card unplayed, that does not show who held it."""
    strangers: tuple[str, ...] = ()
    """Who took one of the first six tricks outside the side as the record shows it (outside Hombre alone when it
    does not show the ally), each once, in the order of her first such trick."""


@dataclass(frozen=True)
class Disagreement:
    field: str
    recorded: object
    from_play: object


@dataclass(frozen=True)
class PlayReport:
    tricks: tuple[Trick, ...]
    hands: Mapping[str, tuple[Card, ...]]
    """Each player's cards, in the order she played them."""
    tricks_won: Mapping[str, int]
    renounces: tuple[Renounce, ...]
    privileges: tuple[Privilege, ...]
    derived: Derived
    disagreements: tuple[Disagreement, ...]


def parse_tricks(tricks: object) -> tuple[tuple[Card, ...], ...]:
    """A record's tricks from their notation (``[["AS", "2S", "KS", "3S"], ...]``), checked as a
    whole: 10 tricks (or 6, premiers claimed) of four cards of the pack, no card twice, and with
    10 tricks every card of the pack. Raises :class:`PlayError` naming the trick and the card."""
    if not isinstance(tricks, list | tuple):
        raise PlayError(Words(N_("the tricks must be a list of tricks, each a list of four cards")))
    if len(tricks) not in (PREMIERS_TRICKS, TRICKS):
        raise PlayError(Words(N_("a play record has all {all} tricks, or {premiers} when premiers were claimed; "
                                 "this one has {count}"), all=TRICKS, premiers=PREMIERS_TRICKS, count=len(tricks)))
    seen: dict[Card, int] = {}
    parsed = []
    for number, trick in enumerate(tricks, start=1):
        if not isinstance(trick, list | tuple) or len(trick) != SEATS:
            raise PlayError(Words(N_("a trick is four cards, one from each player; this one has {count}"), count=len(trick))
                            if isinstance(trick, list | tuple) else
                            Words(N_("a trick is four cards, one from each player; this one has no")), number)
        cards = []
        for text in trick:
            if not isinstance(text, str):
                raise PlayError(Words(N_("{text!r} is not a card"), text=text), number)
            if text.strip().upper()[:-1] in ("8", "9", "10", "T"):
                raise PlayError(Words(N_("{card} is not in the pack (it has no 8, 9 or 10)"), card=text.strip().upper()),
                                number, text)
            try:
                card = Card.parse(text)
            except ValueError as error:
                raise PlayError(said_of(error), number, text[:10]) from None
            if card in seen:
                raise PlayError(Words(N_("{card} was played already in trick {number}"), card=Later(card, "face"),
                                      number=seen[card]), number, card.code)
            seen[card] = number
            cards.append(card)
        parsed.append(tuple(cards))
    return tuple(parsed)


def play_from_codes(codes: str) -> tuple[tuple[Card, ...], ...]:
    """A play written as its cards' codes one after the other (``AS2SKS3S...``, as the Check-the-play
    page carries it), checked as :func:`parse_tricks` checks a record."""
    if len(codes) > 2 * len(PACK) or len(codes) % 2:
        raise PlayError(Words(N_("a play is whole cards, at most forty of them")))
    cards = [codes[i:i + 2] for i in range(0, len(codes), 2)]
    return parse_tricks([cards[i:i + SEATS] for i in range(0, len(cards), SEATS)])


def format_tricks(tricks: Sequence[Sequence[Card]]) -> list[list[str]]:
    """The notation of :func:`parse_tricks` (its inverse)."""
    return [[card.code for card in trick] for trick in tricks]


def no_bonuses(deal: Deal, rules: RuleValues) -> bool:
    """Nemo, or a forced spadille where the house rule pays neither premiers nor vole: no premiers
    to claim and no vole to undertake."""
    return deal.kind.nemo or (
        deal.kind.forced and rules[R.FORCED_SPADILLE_BONUSES] is R.ForcedSpadilleBonuses.NO_PREMIERS_NO_VOLE
    )


def judge_play(deal: Deal, players: Sequence[str], tricks: Sequence[Sequence[Card]], rules: RuleValues,
               pays_matadors: bool) -> PlayReport:
    """Check a play record (as :func:`parse_tricks` returns it) against ``deal`` at a table of
    ``players`` (in the order of play) under ``rules``: who led and took each trick, each hand, the
    renounces and privileges, and the deal's inputs as the play proves them (premiers and the vole
    only where the contract has them, the matadors only where ``pays_matadors``: the table's system
    pays them), compared with the deal recorded."""
    played, hands = _played(deal, players, tricks)
    renounces, privileges = _renounces(played, hands, deal.trumps)
    derived = _derived(deal, played, hands, no_bonuses(deal, rules), pays_matadors)
    return PlayReport(tuple(played), hands, _won(played, hands), renounces, privileges, derived,
                      _disagreements(deal, derived))


def _played(deal: Deal, players: Sequence[str],
            tricks: Sequence[Sequence[Card]]) -> tuple[list[Trick], dict[str, tuple[Card, ...]]]:
    """The tricks as played (who led, who played what, who took each) and each player's hand, in the
    order of play."""
    order = tuple(players)
    leader = order[(order.index(deal.dealer) + 1) % SEATS]  # the eldest hand leads first (P)
    played: list[Trick] = []
    for number, cards in enumerate(tricks, start=1):
        start = order.index(leader)
        seats = tuple(order[(start + i) % SEATS] for i in range(SEATS))
        winner = seats[trick_winner(cards, deal.trumps)]
        played.append(Trick(number, leader, tuple(PlayedCard(p, c) for p, c in zip(seats, cards)), winner))
        leader = winner
    return played, {p: tuple(pc.card for t in played for pc in t.cards if pc.player == p) for p in order}


def _renounces(tricks: Sequence[Trick], hands: Mapping[str, tuple[Card, ...]],
               trumps: Suit | None) -> tuple[tuple[Renounce, ...], tuple[Privilege, ...]]:
    """Each card played against the rules of following, proven by the hand the player still held
    (the cards she played from that trick on); and each lawful renege with a matador."""
    rank = ranking(trumps)
    renounces: list[Renounce] = []
    privileges: list[Privilege] = []
    for trick in tricks:
        so_far: list[Card] = []
        for pc in trick.cards:
            held = hands[pc.player][trick.number - 1:]  # her cards from this trick on
            if so_far and pc.card not in legal_plays(held, so_far, trumps):
                lawful = sorted(legal_plays(held, so_far, trumps), key=held.index)
                renounces.append(Renounce(trick.number, pc.player, so_far[0], pc.card, lawful[0]))
            elif so_far and rank.suit_of(so_far[0]) == TRUMP and not rank.is_trump(pc.card):
                kept = [c for c in held if rank.is_trump(c)]
                if kept:
                    privileges.append(Privilege(trick.number, pc.player, kept[0]))
            so_far.append(pc.card)
    return tuple(renounces), tuple(privileges)


def _won(tricks: Sequence[Trick], hands: Mapping[str, tuple[Card, ...]]) -> dict[str, int]:
    """The tricks each player took."""
    return {p: sum(1 for t in tricks if t.winner == p) for p in hands}


def _derived(deal: Deal, tricks: Sequence[Trick], hands: Mapping[str, tuple[Card, ...]], bonusless: bool,
             pays_matadors: bool) -> Derived:
    won = _won(tricks, hands)
    ally, shown = _ally(deal, tricks, hands)
    unknown = deal.kind.allied and deal.called is not None and ally is None
    side = {deal.hombre} | ({ally} if ally is not None else set())
    strangers = tuple(dict.fromkeys(t.winner for t in tricks[:PREMIERS_TRICKS] if t.winner not in side))
    first_six = len(tricks) >= PREMIERS_TRICKS and not strangers
    premiers = first_six and not bonusless
    # P: the vole is undertaken by leading to the seventh trick after premiers (not after a vole bid).
    vole = Vole.UNDERTAKEN if premiers and len(tricks) > PREMIERS_TRICKS and not deal.kind.vole_announced else Vole.NONE
    proven_run = pays_matadors and not unknown  # an ally not shown may hold part of the run
    return Derived(
        ally=ally,
        hombre_tricks=won[deal.hombre],
        ally_tricks=won.get(ally, 0) if ally is not None and ally != deal.hombre else None,
        first_six=first_six,
        premiers=premiers,
        vole=vole,
        matadors=_matadors(deal.trumps, hands, side, complete=len(tricks) == TRICKS) if proven_run else None,
        ally_shown=shown,
        ally_unknown=unknown,
        strangers=strangers,
    )


def _ally(deal: Deal, tricks: Sequence[Trick], hands: Mapping[str, tuple[Card, ...]]) -> tuple[str | None, AllyShown | None]:
    """Who held the called card, and how the record shows it: she played it; or, at a claim after six tricks
    with the card unplayed, she revealed herself (P: "If after six tricks Hombre does not yet know who her ally
    is, the latter will naturally reveal herself"), as the record names her, or as the only one of the three
    others to take a trick of the six (the side took them all: the record is a claim). ``(None, None)``: no
    ally in the contract, or a claim that does not show her."""
    if not deal.kind.allied or deal.called is None:
        return None, None
    holder = next((p for p, cards in hands.items() if deal.called in cards), None)
    if holder is not None:
        return holder, AllyShown.CARD
    if deal.revealed_ally is not None:
        return deal.revealed_ally, AllyShown.CLAIM
    others = tuple(dict.fromkeys(t.winner for t in tricks[:PREMIERS_TRICKS] if t.winner != deal.hombre))
    if len(others) == 1:
        return others[0], AllyShown.CLAIM
    return None, None


def _matadors(trumps: Suit | None, hands: Mapping[str, tuple[Card, ...]], side: set[str], complete: bool) -> int | None:
    """The unbroken run of trumps from Spadille held by the side (P), as a deal records it: 0 under
    three. ``None`` when the record is not complete and the run ends on a card never played."""
    if trumps is None:
        return 0  # grandissimo and nemo: no Manille, no matadors (see check_deal)
    theirs = {c for p in side for c in hands[p]}
    seen = {c for cards in hands.values() for c in cards}
    run = 0
    for card in ranking(trumps).trump_order:
        if card in theirs:
            run += 1
            continue
        if not complete and card not in seen:
            return None  # the run goes on, or not, in the cards never played
        break
    return run if run >= 3 else 0


def _tricks_json(hombre: int, ally: int | None) -> dict[str, int | None]:
    return {"hombre": hombre, "ally": ally}


def _disagreements(deal: Deal, derived: Derived) -> tuple[Disagreement, ...]:
    """Where the deal as recorded differs from what the play proves, in the deal's own JSON terms (at a claim
    that does not show the ally, neither she nor her tricks: only Hombre's)."""
    pairs: list[tuple[str, object, object]] = []
    if deal.kind.allied and not derived.ally_unknown:
        pairs.append(("ally", deal.ally, derived.ally))
    if derived.ally_unknown:
        pairs.append(("tricks", _tricks_json(deal.hombre_tricks, None), _tricks_json(derived.hombre_tricks, None)))
    else:
        pairs.append(("tricks", _tricks_json(deal.hombre_tricks, deal.ally_tricks if deal.kind.allied else None),
                      _tricks_json(derived.hombre_tricks, derived.ally_tricks)))
    pairs.append(("premiers", deal.premiers, derived.premiers))
    if not deal.vole_in_the_bid:
        pairs.append(("vole", deal.vole.value, derived.vole.value))
    if derived.matadors is not None:
        pairs.append(("matadors", deal.matadors, derived.matadors))
    return tuple(Disagreement(name, recorded, proven) for name, recorded, proven in pairs if recorded != proven)


def report_json(number: int, report: PlayReport) -> dict[str, object]:
    """What the engine says about deal ``number``'s play, as ``scorer play`` prints it (docs/FORMATS.md: "Play records")."""
    d = report.derived
    return {
        "number": number,
        "tricks": [{"leader": t.leader, "cards": [{"player": pc.player, "card": pc.card.code} for pc in t.cards],
                    "winner": t.winner} for t in report.tricks],
        "hands": {p: [c.code for c in h] for p, h in report.hands.items()},
        "tricks_won": dict(report.tricks_won),
        "renounces": [{"trick": r.trick, "player": r.player, "led": r.led.code, "played": r.played.code,
                       "held": r.held.code} for r in report.renounces],
        "privileges": [{"trick": p.trick, "player": p.player, "kept": p.kept.code} for p in report.privileges],
        "derived": {"ally": d.ally, "ally_shown": d.ally_shown.value if d.ally_shown is not None else None,
                    "tricks": _tricks_json(d.hombre_tricks, d.ally_tricks), "premiers": d.premiers,
                    "vole": d.vole.value, "matadors": d.matadors},
        "disagreements": [{"field": x.field, "recorded": x.recorded, "from_play": x.from_play}
                          for x in report.disagreements],
    }


def _in_words(field: str, value: object) -> Said:
    if field == "tricks" and isinstance(value, dict):
        if value.get("ally") is not None:
            return Words(N_("Hombre {hombre} and her ally {ally}"), hombre=value["hombre"], ally=value["ally"])
        return Words(N_("Hombre {hombre}"), hombre=value["hombre"])
    if isinstance(value, bool):
        return Words(N_("yes")) if value else Words(N_("no"))
    return Words(N_("nobody")) if value is None else str(value)


_VOLES = {
    (Vole.UNDERTAKEN.value, Vole.NONE.value): N_("the play proves vole: undertaken, but the deal says none"),
    (Vole.NONE.value, Vole.UNDERTAKEN.value): N_("the play proves vole: none, but the deal says undertaken"),
}
"""A disagreement about the vole (not bid, so none or undertaken), whole: the English keeps the JSON's own words."""

_PROVES = {
    "ally": N_("the play proves ally: {proven}, but the deal says {recorded}"),
    "tricks": N_("the play proves tricks: {proven}, but the deal says {recorded}"),
    "premiers": N_("the play proves premiers: {proven}, but the deal says {recorded}"),
    "matadors": N_("the play proves matadors: {proven}, but the deal says {recorded}"),
}


def disagreement_words(x: Disagreement) -> Words:
    """ "the play proves tricks: Hombre 7, but the deal says Hombre 6", worded when read."""
    vole = _VOLES.get((str(x.from_play), str(x.recorded))) if x.field == "vole" else None
    if vole is not None:
        return Words(vole)
    if x.field not in _PROVES:
        return Words(N_("the play proves {field}: {proven}, but the deal says {recorded}"), field=x.field,
                     proven=_in_words(x.field, x.from_play), recorded=_in_words(x.field, x.recorded))
    return Words(_PROVES[x.field], proven=_in_words(x.field, x.from_play), recorded=_in_words(x.field, x.recorded))


def report_text(number: int, report: PlayReport) -> str:
    """The same as :func:`report_json`, for a reader: one line a trick, then the findings."""
    lines = [f"Deal {number}"]
    for t in report.tricks:
        played = ", ".join(f"{pc.player} {pc.card}" for pc in t.cards)
        lines.append(f"  trick {t.number}: {played}; {t.winner} takes it")
    won = ", ".join(f"{p} {n}" for p, n in report.tricks_won.items())
    lines.append(f"  tricks won: {won}")
    for r in report.renounces:
        lines.append(f"  RENOUNCE in trick {r.trick}: {r.player} played {r.played} to {r.led} led, holding {r.held} "
                     "(she played it later)")
    for p in report.privileges:
        lines.append(f"  privilege in trick {p.trick}: {p.player} kept her matador {p.kept} back, lawfully")
    d = report.derived
    notes = ([f"her ally {d.ally_tricks}"] if d.ally_tricks is not None else []) + (
        ["she revealed herself at the claim"] if d.ally_shown is AllyShown.CLAIM else [])
    noted = f" ({'; '.join(notes)})" if notes else ""
    ally = f", ally {d.ally}{noted}" if d.ally is not None else ""
    if d.ally_unknown:
        ally = ", ally not shown (the called card was not played and nobody is named as revealed at the claim)"
    matadors = "not proven" if d.matadors is None else str(d.matadors)
    tricks = ngettext("{n} trick", "{n} tricks", d.hombre_tricks).format(n=d.hombre_tricks)
    lines.append(f"  the play proves: Hombre {tricks}{ally}, "
                 f"premiers {'yes' if d.premiers else 'no'}, vole {d.vole.value}, matadors {matadors}")
    lines += ([f"  DISAGREES: {disagreement_words(x)}" for x in report.disagreements]
              or ["  agrees with the deal as recorded"])
    return "\n".join(lines) + "\n"


# --- a play entered card by card --------------------------------------------------------------------------


@dataclass(frozen=True)
class Progress:
    """A play entered so far, card by card (the Check-the-play page)."""

    tricks: tuple[Trick, ...]
    """The tricks complete so far."""
    current: tuple[PlayedCard, ...]
    """The cards of the trick being played."""
    next_player: str
    """Who plays the next card (the leader of the next trick once one is complete)."""
    renounces: tuple[Renounce, ...]
    """The renounces the cards so far prove."""
    new: tuple[Renounce, ...]
    """The renounces the last card proves (it shows she held a card she should have played)."""

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(pc.card for t in self.tricks for pc in t.cards) + tuple(pc.card for pc in self.current)

    @property
    def complete(self) -> bool:
        """All ten tricks played."""
        return len(self.tricks) == TRICKS


def follow(deal: Deal, players: Sequence[str], cards: Sequence[Card]) -> Progress:
    """The play of ``cards`` (in the order played, no card twice) so far: the tricks, whose turn it is,
    and the renounces proven, the last card's apart."""
    tricks, current, next_player = _tricks_so_far(deal, tuple(players), cards)
    renounces = _renounces_so_far(deal, tuple(players), tricks, current)
    if cards:
        before_tricks, before_current, _ = _tricks_so_far(deal, tuple(players), cards[:-1])
        before = _renounces_so_far(deal, tuple(players), before_tricks, before_current)
    else:
        before = ()
    return Progress(tricks, current, next_player, renounces, tuple(r for r in renounces if r not in before))


def _tricks_so_far(deal: Deal, order: tuple[str, ...],
                   cards: Sequence[Card]) -> tuple[tuple[Trick, ...], tuple[PlayedCard, ...], str]:
    whole = len(cards) - len(cards) % SEATS
    tricks, _hands = _played(deal, order, [cards[i:i + SEATS] for i in range(0, whole, SEATS)])
    start = order.index(tricks[-1].winner if tricks else order[(order.index(deal.dealer) + 1) % SEATS])
    current = tuple(PlayedCard(order[(start + i) % SEATS], card) for i, card in enumerate(cards[whole:]))
    return tuple(tricks), current, order[(start + len(current)) % SEATS]


def _renounces_so_far(deal: Deal, order: tuple[str, ...], tricks: tuple[Trick, ...],
                      current: tuple[PlayedCard, ...]) -> tuple[Renounce, ...]:
    every = list(tricks) + ([Trick(len(tricks) + 1, current[0].player, current, "")] if current else [])
    hands = {p: tuple(pc.card for t in every for pc in t.cards if pc.player == p) for p in order}
    return _renounces(every, hands, deal.trumps)[0]


def proven_deal(deal: Deal, report: PlayReport) -> Deal:
    """``deal`` with what its play proves in place of what was entered (the ally, the tricks, premiers,
    the vole undertaken and, where proven, the matadors); the play itself kept with it, and at a claim before
    the called card fell, who revealed herself as its holder. An ally the play does not show stays as entered."""
    proven = report.derived
    record = tuple(tuple(pc.card for pc in t.cards) for t in report.tricks)
    revealed = proven.ally if proven.ally_shown is AllyShown.CLAIM else None
    corrected = replace(deal, hombre_tricks=proven.hombre_tricks, premiers=proven.premiers, play=record,
                        revealed_ally=revealed)
    if deal.kind.allied and not proven.ally_unknown:
        corrected = replace(corrected, ally=proven.ally, ally_tricks=proven.ally_tricks)
    if not deal.vole_in_the_bid:
        corrected = replace(corrected, vole=proven.vole)
    if proven.matadors is not None:
        corrected = replace(corrected, matadors=proven.matadors)
    return corrected


def renounce_said(renounce: Renounce) -> Words:
    """ "a renounce in trick 3: 6♠ to A♣ led, holding 6♥", worded when read (in a transfer's words)."""
    return Words(N_("a renounce in trick {trick}: {played} to {led} led, holding {held}"), trick=renounce.trick,
                 played=Later(renounce.played, "face"), led=Later(renounce.led, "face"), held=Later(renounce.held, "face"))


def beasted_renounces(deal: Deal, players: Sequence[str], rules: RuleValues) -> tuple[Renounce, ...]:
    """The renounces a deal's kept play proves that the house rule renounce_beast beasts (EB)."""
    if deal.play is None or rules[R.RENOUNCE_BEAST] is R.RenounceBeast.NONE:
        return ()
    played, hands = _played(deal, players, deal.play)
    return _renounces(played, hands, deal.trumps)[0]
