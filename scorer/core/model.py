"""The things a deal of Quadrille is made of, as frozen values.

Seating: players are kept in the order of play. Deal, bidding and play
pass to the right (P: "rotate from left to right"), so each player's
right-hand neighbour is the next one in the list: the eldest hand is the
player after the dealer, and the next deal is dealt by the eldest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple
from enum import Enum

from .accounts import RESERVED_NAMES as RESERVED_NAMES
from .accounts import SEATS as SEATS
from .accounts import Account as Account
from .accounts import Pot as Pot
from .errors import ImpossibleDeal, Words
from .i18n import N_, _, filled
from .names import check_players as check_players

TRICKS = 10


class Suit(str, Enum):
    SPADES = "spades"
    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"

    @property
    def letter(self) -> str:
        return self.value[0].upper()

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def symbol(self) -> str:
        """The suit's sign, as a card shows it: "♠", "♣", "♦", "♥"."""
        return _SUIT_SYMBOLS[self.value]

    @property
    def trump_count(self) -> int:
        """Trumps in the suit: 12 when red (with Punto), 11 when black (P)."""
        return 12 if self.is_red else 11


_SUIT_SYMBOLS = {"spades": "♠", "clubs": "♣", "diamonds": "♦", "hearts": "♥"}
_SUITS_BY_LETTER = {suit.letter: suit for suit in Suit}

RANK_NAMES = {"K": "King", "Q": "Queen", "J": "Knave", "A": "Ace"}
_FACE_LETTERS = {"K": N_("K"), "Q": N_("Q"), "J": N_("J")}
"""The court cards' letters as a card shows them, in the reader's language (R, D, V in French); the Ace's and the
pips' are the same in every language."""


@dataclass(frozen=True, order=True)
class Card:
    """A card named by rank letter and suit letter, as ``KS`` or ``QH``."""

    rank: str
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        text = text.strip().upper()
        if len(text) != 2:
            shown = text if len(text) <= 10 else text[:10] + "…"  # a file may hold a card of a million letters
            raise ValueError(Words(N_("{text!r} is not a card: write it as rank and suit letters, e.g. KS"), text=shown))
        rank, suit_letter = text[0], text[1]
        if rank not in "KQJA765432":
            raise ValueError(Words(N_("{text!r} is not a card: unknown rank {rank!r}"), text=text, rank=rank))
        suit = _SUITS_BY_LETTER.get(suit_letter)
        if suit is None:
            raise ValueError(Words(N_("{text!r} is not a card: the suit letter must be S, C, D or H"), text=text))
        return cls(rank, suit)

    @property
    def code(self) -> str:
        """Rank and suit letters, "6H": the card as files, the command line and a pasted play write it."""
        return f"{self.rank}{self.suit.letter}"

    @property
    def face(self) -> str:
        """Rank and suit sign, "6♥", "K♠" ("R♠" in French): the card as every page shows it to a player."""
        letter = _FACE_LETTERS.get(self.rank)
        return f"{self.rank if letter is None else _(letter)}{self.suit.symbol}"

    @property
    def name(self) -> str:
        return f"{RANK_NAMES.get(self.rank, self.rank)} of {self.suit.value}"

    def __str__(self) -> str:
        return self.code


class Contract(str, Enum):
    """What Hombre undertook. The profile says which of these a table plays."""

    FORCED_SPADILLE = "forced_spadille"
    ALLIANCE = "alliance"
    MEDIATEUR = "mediateur"  # calls a King into her own hand, then plays alone (P, Médiateur)
    CASCO = "casco"  # both black Aces shown; the called King's holder names trumps and plays with her
    SOLO = "solo"
    VOLE = "vole"  # the basic game's bid: a solo with the vole announced in the auction
    GRANDISSIMO = "grandissimo"  # a solo with no trumps but the two black Aces
    NEMO = "nemo"  # devole: to lose every trick, no trumps but the black Aces

    @property
    def label(self) -> str:
        """Its name in the reader's language (English outside a translated request)."""
        return _(_CONTRACT_LABELS[self])

    @property
    def words(self) -> Words:
        """Its name as a message, worded when read (in a transfer's words, a deal's note)."""
        return _CONTRACT_WORDS[self]


_CONTRACT_LABELS = {
    Contract.FORCED_SPADILLE: N_("forced spadille"),
    Contract.ALLIANCE: N_("alliance"),
    Contract.MEDIATEUR: N_("médiateur"),
    Contract.CASCO: N_("casco"),
    Contract.SOLO: N_("solo"),
    Contract.VOLE: N_("vole announced"),
    Contract.GRANDISSIMO: N_("grandissimo"),
    Contract.NEMO: N_("nemo"),
}
_CONTRACT_WORDS = {contract: Words(label) for contract, label in _CONTRACT_LABELS.items()}


@dataclass(frozen=True, slots=True)
class ContractKind:
    """What a contract is, as data: the settlement reads these, not the contract's name."""

    allied: bool
    """A called King's holder plays with Hombre (alliance, forced spadille, casco)."""
    loss: str
    """Who pays a loss: "alone", "shared" (always half each), or "three_trick_rule" (house rule alliance_loss)."""
    trumps: bool
    """Hombre names a trump suit (grandissimo and nemo have none but the black Aces)."""
    calls_king: bool
    """A card is called: the ally's King, or the médiateur King taken into Hombre's hand."""
    takes_king: bool = False
    """Médiateur: the called King's holder gives it to Hombre and plays against her."""
    nemo: bool = False
    """Won by losing every trick."""
    vole_announced: bool = False
    """The basic game's "vole" bid: a solo with the vole announced."""
    forced: bool = False


CONTRACT_KINDS: dict[Contract, ContractKind] = {
    Contract.FORCED_SPADILLE: ContractKind(allied=True, loss="shared", trumps=True, calls_king=True, forced=True),
    Contract.ALLIANCE: ContractKind(allied=True, loss="three_trick_rule", trumps=True, calls_king=True),
    Contract.MEDIATEUR: ContractKind(allied=False, loss="alone", trumps=True, calls_king=True, takes_king=True),
    Contract.CASCO: ContractKind(allied=True, loss="shared", trumps=True, calls_king=True),
    Contract.SOLO: ContractKind(allied=False, loss="alone", trumps=True, calls_king=False),
    Contract.VOLE: ContractKind(allied=False, loss="alone", trumps=True, calls_king=False, vole_announced=True),
    Contract.GRANDISSIMO: ContractKind(allied=False, loss="alone", trumps=False, calls_king=False),
    Contract.NEMO: ContractKind(allied=False, loss="alone", trumps=False, calls_king=False, nemo=True),
}


class Vole(str, Enum):
    """The vole: none, undertaken after premiers, or (Médiateur) announced or revealed in the bid."""

    NONE = "none"
    UNDERTAKEN = "undertaken"
    ANNOUNCED = "announced"
    REVEALED = "revealed"  # announced, playing with the hand face up (P, Médiateur)

    @property
    def in_the_bid(self) -> bool:
        return self in _IN_THE_BID


_IN_THE_BID = (Vole.ANNOUNCED, Vole.REVEALED)
"""Read once: Python 3.11 reads an attribute of an Enum class (``Vole.ANNOUNCED``) through the hook of
EnumType.__getattr__, several times slower than a module's global, and this is read for every deal settled."""


class Result(str, Enum):
    WON = "won"
    VOLE_WON = "vole_won"
    VOLE_LOST = "vole_lost"
    REMISE = "remise"
    CODILLE = "codille"
    LOST = "lost"  # grandissimo or nemo paid by premium only

    @property
    def label(self) -> str:
        """Its name in the reader's language (English outside a translated request)."""
        return _(_RESULT_LABELS[self])

    @property
    def words(self) -> Words:
        """Its name as a message, worded when read (in a transfer's words)."""
        return _RESULT_WORDS[self]


_RESULT_LABELS = {
    Result.WON: N_("won"),
    Result.VOLE_WON: N_("vole won"),
    Result.VOLE_LOST: N_("vole lost"),
    Result.REMISE: N_("remise"),
    Result.CODILLE: N_("codille"),
    Result.LOST: N_("lost"),
}
_RESULT_WORDS = {result: Words(label) for result, label in _RESULT_LABELS.items()}


class Reason(str, Enum):
    """Why a transfer happened; each has a short code for files and tests."""

    ANTE = "ante"
    VOLE_STAKE = "vole_stake"
    POOL_SWEPT = "pool_swept"
    POOL_SHARED = "pool_shared"
    CODILLE_SHARE = "codille_share"
    REMISE_BEAST = "remise_beast"
    CODILLE_BEAST = "codille_beast"
    GAME_PREMIUM = "game_premium"
    MATADORS = "matadors"
    PREMIERS = "premiers"
    VOLE_BONUS = "vole_bonus"
    VOLE_PREMIUM_LOST = "vole_premium_lost"
    MEDIATEUR_KING = "mediateur_king"
    VOLE_POOL_WON = "vole_pool_won"
    VOLE_POOL_LOST = "vole_pool_lost"
    ODD_CHIPS_SET_ASIDE = "odd_chips_set_aside"
    ODD_CHIPS_TO_SPADILLE = "odd_chips_to_spadille"
    POOL_SPLIT_AT_END = "pool_split_at_end"
    POINTS = "points"
    GAME = "game"
    CONSOLATION = "consolation"
    SANS_APPELER = "sans_appeler"
    FISH_EXTRAORDINARY = "fish_extraordinary"
    RENOUNCE_BEAST = "renounce_beast"
    BEAST_WAITS = "beast_waits"
    BEAST_JOINS_POOL = "beast_joins_pool"
    POOL_CARRIED_IN = "pool_carried_in"


@dataclass(frozen=True, slots=True)
class Deal:
    """What happened in one deal, as a player enters it.

    The contracting side is Hombre and, in an alliance or forced spadille,
    the holder of the called card (her ally). When Hombre called a King
    she held herself, ``ally`` is Hombre: a secret solo (P, EB).
    """

    dealer: str
    """Who dealt this deal."""
    hombre: str
    """Who won the auction (in forced spadille: who held Spadille)."""
    contract: Contract
    trumps: Suit | None
    """The trump suit; ``None`` for grandissimo and nemo (no trumps but the black Aces)."""
    called: Card | None = None
    """The King (or Queen, if Hombre held every King) called for an ally."""
    ally: str | None = None
    """Who held the called card; Hombre herself for a secret solo."""
    hombre_tricks: int = 0
    """Tricks taken by Hombre herself, 0-10."""
    ally_tricks: int | None = None
    """Tricks taken by the ally (``None`` when there is no ally)."""
    matadors: int = 0
    """Matadors held by the contracting side: 0, or the unbroken run from Spadille (3, 4, ...)."""
    premiers: bool = False
    """The contracting side took the first six tricks straight off."""
    vole: Vole = Vole.NONE
    """Whether the vole was undertaken after premiers (not for an announced vole)."""
    spadille: str | None = None
    """Who held Spadille; needed only when odd codille chips await its holder (EB)."""
    giver: str | None = None
    """Médiateur: who gave Hombre the called King."""
    favourite: Suit | None = None
    """The favourite suit drawn for this deal, where the table draws one each deal."""
    play: tuple[tuple[Card, ...], ...] | None = None
    """The tricks as played, each its four cards from its leader on (:mod:`scorer.core.game.play`):
    10 tricks, or 6 when premiers were claimed; ``None`` when the play was not recorded."""
    revealed_ally: str | None = None
    """Part of a play record of six tricks (premiers claimed) whose called card was never played: who held
    it, as she revealed herself at the claim (P: "If after six tricks Hombre does not yet know who her ally
    is, the latter will naturally reveal herself"); Hombre's own name when she held it. ``None`` otherwise."""

    @property
    def kind(self) -> ContractKind:
        return CONTRACT_KINDS[self.contract]

    @property
    def vole_in_the_bid(self) -> bool:
        """A vole announced (or revealed) in the auction, in either game."""
        return self.kind.vole_announced or self.vole.in_the_bid

    @property
    def has_real_ally(self) -> bool:
        """An ally other than Hombre herself."""
        return self.ally is not None and self.ally != self.hombre

    @property
    def is_secret_solo(self) -> bool:
        return self.ally is not None and self.ally == self.hombre

    @property
    def side_tricks(self) -> int:
        """Tricks taken by the contracting side together."""
        ally_tricks = (self.ally_tricks or 0) if self.has_real_ally else 0
        return self.hombre_tricks + ally_tricks

    @property
    def side(self) -> tuple[str, ...]:
        return (self.hombre, self.ally) if self.has_real_ally and self.ally is not None else (self.hombre,)


class Transfer(NamedTuple):
    """One movement of chips, with the reason and the house rules behind it.

    An immutable named tuple rather than a frozen dataclass: a deal makes a
    dozen of these, and a tuple is built several times faster, which keeps
    replaying a long evening quick.
    """

    payer: Account
    payee: Account
    chips: int
    reason: Reason
    what: Words
    """What it is for, in a few words ("solo premium", "ante"), worded when read; its value ``label``, where it has
    one, is the shorter words a deal's summary uses (the contract of a premium, the first clause of a long one)."""
    rules: tuple[str, ...] = ()
    """Names of the house rules that decided this transfer (may be empty for a fixed law)."""
    source: str = "P"
    """Tags of the sources the transfer follows (P, W, EB, PG, FR, H47)."""

    @property
    def sentence(self) -> str:
        """A short sentence a player reads: "Cat pays Bea 4 — solo premium", in the reader's language."""
        payer, payee, chips, what = self.payer, self.payee, self.chips, self.what
        if payer is Pot.SCORE_SHEET:
            return _("{payee} scores {chips} — {what}").format(payee=payee, chips=chips, what=what)
        if payee is Pot.SCORE_SHEET:
            return _("{payer} loses {chips} — {what}").format(payer=payer, chips=chips, what=what)
        if isinstance(payer, Pot) and isinstance(payee, Pot):
            return filled(_("{chips} go from {payer} to {payee} — {what}"),
                          {"chips": chips, "payer": payer.label, "payee": payee.label, "what": what})
        if isinstance(payer, Pot):
            return _("{payee} takes {chips} from {payer} — {what}").format(
                payee=payee, chips=chips, payer=payer.label, what=what)
        if isinstance(payee, Pot):
            return _("{payer} puts {chips} into {payee} — {what}").format(
                payer=payer, chips=chips, payee=payee.label, what=what)
        return _("{payer} pays {payee} {chips} — {what}").format(payer=payer, payee=payee, chips=chips, what=what)


@dataclass(frozen=True, slots=True)
class SystemState:
    """What a settlement system carries from deal to deal beyond what every pool-based system shares.
    A system that needs more subclasses it (the point score's :class:`~scorer.core.systems.points.ScoreSheet`)."""

    @property
    def held(self) -> int:
        """Chips (points, counters) this state holds outside the balances and the pots: counted so that
        every deal conserves them."""
        return 0


NOTHING_CARRIED = SystemState()


@dataclass(frozen=True, slots=True)
class TableState:
    """Everything carried from one deal to the next.

    Balances are chips won (positive) or paid out (negative) since the
    start of the evening. Chips are conserved: balances, the pool, the
    vole pool and the odd chips reserved for Spadille always sum to what the
    evening began with (zero, or what a circle's last evening left).
    """

    players: tuple[str, ...]
    balances: tuple[int, ...]
    pool: int = 0
    vole_pool: int = 0
    spadille_reserve: int = 0
    """Odd codille chips that go to whoever holds Spadille next deal (EB)."""
    spadille_takers: tuple[str, ...] = ()
    """Who may take them: the three who won that codille (EB: "him of the three"), never its loser."""
    beasts_waiting: tuple[int, ...] = ()
    """Beasts that wait to join a later pool, one a deal, the greatest first (EB, house rule beasts_together)."""
    circle_pool: int = 0
    """Chips a circle's last evening left on the table, which join this evening's first pool."""
    carried: SystemState = field(default_factory=lambda: NOTHING_CARRIED)
    """What the table's settlement system carries from deal to deal besides the balances and the pots
    (the point score: its score sheet and losing streaks); each system owns its own kind."""
    deals_played: int = 0
    last_dealer: str | None = None

    @classmethod
    def start(cls, players: tuple[str, ...] | list[str]) -> TableState:
        players = tuple(players)
        check_players(players)
        return cls(players=players, balances=(0,) * len(players))

    def balance(self, player: str) -> int:
        return self.balances[self.seat(player)]

    def seat(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise ImpossibleDeal(Words(N_("{name!r} is not one of the players at this table ({players})"), name=player,
                                       players=", ".join(self.players))) from None

    def right_of(self, player: str) -> str:
        """The player to the right, who plays (and deals) next."""
        return self.players[(self.seat(player) + 1) % len(self.players)]

    def eldest(self, dealer: str) -> str:
        return self.right_of(dealer)

    @property
    def next_dealer(self) -> str | None:
        """Whose deal is next (``None`` before the first deal: any player may deal first)."""
        return None if self.last_dealer is None else self.right_of(self.last_dealer)

    def order_from(self, player: str) -> tuple[str, ...]:
        """All players in order of play, starting with ``player``."""
        i = self.seat(player)
        return self.players[i:] + self.players[:i]

    @property
    def pool_in_sight(self) -> int:
        """The pool as the table sees it: before an evening's first deal, what a circle's last evening left on the
        table, which that deal's pool begins with (:attr:`circle_pool`); after it, the pool."""
        return self.pool + self.circle_pool

    @property
    def total(self) -> int:
        """Balances plus every pot: zero whenever chips are conserved, else what an evening of a circle began with."""
        return (sum(self.balances) + self.pool + self.vole_pool + self.spadille_reserve + sum(self.beasts_waiting)
                + self.circle_pool + self.carried.held)


@dataclass(frozen=True, slots=True)
class Settlement:
    """The outcome of settling one deal: the result, every transfer, and the state after."""

    number: int
    deal: Deal
    result: Result
    transfers: tuple[Transfer, ...]
    before: TableState
    after: TableState
    unit: int
    """Chips per unit in this deal (a quarter of the stake, or as the house rules say)."""
    stake: int
    """The pool in play: what was in it after this deal's antes."""
    notes: tuple[Words, ...] = field(default=())
    """Remarks on this deal a player should see (a pool left in place, a rule with no source), worded when read."""
    multiplier: int = 1
    """Point score only: what this game counted (PG)."""

    def change(self, player: str) -> int:
        """How much this deal changed the player's balance."""
        return self.after.balance(player) - self.before.balance(player)
