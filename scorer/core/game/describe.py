"""One deal told in a sentence a player reads at the table: who played what, with whom, and how it ended.

"Hal played an alliance in spades, calling the King of hearts (Bea held it); they took 6 tricks
(Hal 4, Bea 2): won." Each contract is told in its own words: an alliance or a forced spadille
names the called King and the ally, a médiateur the King taken and who gave it, grandissimo and
nemo have no trump suit, the vole is told as announced, revealed or undertaken.

The sentence is a message (:class:`~scorer.core.errors.Words`), worded in the reader's language where it is shown.
"""

from __future__ import annotations

from functools import reduce

from ..errors import Joined, Said, Words
from ..i18n import N_
from ..model import Card, Contract, Deal, Result, Suit, Vole
from .outcome import game_won

_RESULTS = {
    Result.WON: N_("won"),
    Result.VOLE_WON: N_("won, with the vole"),
    Result.VOLE_LOST: N_("the game won, the vole lost"),  # undertaken after premiers; announced: :func:`describe`
    Result.REMISE: N_("lost by remise"),
    Result.CODILLE: N_("lost by codille"),
    Result.LOST: N_("lost (the premium only)"),
}

_IN_SUIT = {
    Suit.SPADES: Words(N_("in spades")),
    Suit.CLUBS: Words(N_("in clubs")),
    Suit.DIAMONDS: Words(N_("in diamonds")),
    Suit.HEARTS: Words(N_("in hearts")),
}


def result_label(deal: Deal, result: Result) -> Words:
    """The result in a word or two, as the ledger, the tally and its PDF name it: the result's own label
    ("won", "remise", "vole lost"), except a vole undertaken after premiers and lost, where Hombre won the game
    (:func:`~scorer.core.game.outcome.game_won`; P: it "does not bar Hombre from winning the game stake") and only
    the vole failed: "won, the vole failed". A vole announced in the bid and lost stays "vole lost": the game
    is lost with it (P: "Hombre neither wins the game stake nor doubles it")."""
    if result is Result.VOLE_LOST and game_won(deal, result):
        return Words(N_("won, the vole failed"))
    return result.words


def in_suit(suit: Suit) -> Words:
    """"in hearts"."""
    return _IN_SUIT[suit]


_THE_RANK = {"K": Words(N_("the King")), "Q": Words(N_("the Queen")), "J": Words(N_("the Knave")),
             "A": Words(N_("the Ace"))}
_OF_SUIT = {
    Suit.SPADES: Words(N_("of spades")),
    Suit.CLUBS: Words(N_("of clubs")),
    Suit.DIAMONDS: Words(N_("of diamonds")),
    Suit.HEARTS: Words(N_("of hearts")),
}


def the_card(card: Card) -> Joined:
    """"the King of hearts" (the card's name with its article)."""
    return Joined((_THE_RANK.get(card.rank, f"the {card.rank}"), _OF_SUIT[card.suit]), " ")


def both(first: object, second: object) -> Words:
    """Two things said together: "6 matadors and the vole announced"."""
    return Words(N_("{first} and {second}"), first=first, second=second)


def _trumps(deal: Deal) -> Joined | str:
    """" in hearts" (and " (the favourite)" when the deal's favourite suit is trumps), or "" without trumps."""
    if deal.trumps is None:
        return ""
    favourite = Words(N_(" (the favourite suit)")) if deal.favourite is deal.trumps else ""
    return Joined((" ", in_suit(deal.trumps), favourite), "")


def _called(deal: Deal) -> Said:
    """The called card and who held it: ", calling the King of hearts (Bea held it)"."""
    if deal.called is None:
        return ""
    card = the_card(deal.called)
    if deal.kind.takes_king:
        if deal.giver:
            return Words(N_(", taking {card} from {giver}"), card=card, giver=deal.giver)
    elif deal.is_secret_solo:
        return Words(N_(", calling {card}, which {hombre} held (played alone)"), card=card, hombre=deal.hombre)
    elif deal.ally:
        return Words(N_(", calling {card} ({ally} held it)"), card=card, ally=deal.ally)
    return Words(N_(", calling {card}"), card=card)


_PLAYED = {
    Contract.FORCED_SPADILLE: N_("{who} held Spadille: forced spadille{trumps}{called}"),
    Contract.VOLE: N_("{who} bid the vole{trumps}"),
    Contract.GRANDISSIMO: N_("{who} played grandissimo (no trumps but the black Aces)"),
    Contract.NEMO: N_("{who} played nemo (no trumps but the black Aces; to lose every trick)"),
    Contract.CASCO: N_("{who} played casco{trumps}{called}"),
    Contract.ALLIANCE: N_("{who} played an {contract}{trumps}{called}"),
    Contract.SOLO: N_("{who} played a {contract}{trumps}{called}"),
}
"""What was played, without the tricks, where a contract says it in words of its own (else "{who} played {contract}...")."""


def _played(deal: Deal) -> Words:
    """What was played, without the tricks: "Hal played grandissimo (no trumps but the black Aces)"."""
    played = _PLAYED.get(deal.contract, N_("{who} played {contract}{trumps}{called}"))
    return Words(played, who=deal.hombre, contract=deal.contract.words, trumps=_trumps(deal), called=_called(deal))


def _tricks(deal: Deal) -> Words:
    """The tricks taken: "took 7 tricks", or "together took 6 tricks (Hal 4, Bea 2)"."""
    n = deal.side_tricks
    if n == 0:
        return Words(N_("{hombre} took no trick"), hombre=deal.hombre)
    if deal.has_real_ally:
        took = (N_("{hombre} and {ally} took {n} trick ({hombre} {hombre_tricks}, {ally} {ally_tricks})") if n == 1 else
                N_("{hombre} and {ally} took {n} tricks ({hombre} {hombre_tricks}, {ally} {ally_tricks})"))
        return Words(took, hombre=deal.hombre, ally=deal.ally, n=n, hombre_tricks=deal.hombre_tricks,
                     ally_tricks=deal.ally_tricks or 0)
    return Words(N_("{hombre} took {n} trick") if n == 1 else N_("{hombre} took {n} tricks"), hombre=deal.hombre, n=n)


def _extras(deal: Deal) -> list[Words]:
    """What was held or undertaken besides: matadors, the vole announced, revealed or undertaken."""
    extras = [Words(N_("{n} matadors"), n=deal.matadors)] if deal.matadors else []
    if deal.vole is Vole.ANNOUNCED:
        extras.append(Words(N_("the vole announced")))
    elif deal.vole is Vole.REVEALED:
        extras.append(Words(N_("the vole revealed (the hand shown)")))
    elif deal.vole is Vole.UNDERTAKEN:
        extras.append(Words(N_("the vole undertaken after premiers")))
    return extras


def describe(deal: Deal, result: Result) -> Words:
    """The deal and its result as one sentence (no trailing space, ends with a full stop)."""
    extras = _extras(deal)
    held = Words(N_(", with {extras}"), extras=reduce(both, extras)) if extras else ""
    outcome = _RESULTS[result]
    if deal.premiers and result is Result.WON:
        outcome = N_("won, with premiers")
    elif result is Result.VOLE_LOST and deal.vole_in_the_bid:
        # P: "Hombre neither wins the game stake nor doubles it, but leaves it to be carried forward"
        outcome = N_("lost, the vole not made")
    elif deal.premiers and result is Result.VOLE_LOST:
        outcome = N_("the game won with premiers, the vole lost")
    return Words(N_("{played}{held}; {tricks}: {outcome}."), played=_played(deal), held=held, tricks=_tricks(deal),
                 outcome=Words(outcome))
