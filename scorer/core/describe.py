"""One deal told in a sentence a player reads at the table: who played what, with whom, and how it ended.

"Hal played an alliance in spades, calling the King of hearts (Bea held it); they took 6 tricks
(Hal 4, Bea 2): won." Each contract is told in its own words: an alliance or a forced spadille
names the called King and the ally, a médiateur the King taken and who gave it, grandissimo and
nemo have no trump suit, the vole is told as announced, revealed or undertaken.

The sentence is made when it is shown, in the reader's language (:func:`~scorer.core.i18n._`).
"""

from __future__ import annotations

from functools import reduce

from .i18n import N_, _
from .model import Card, Contract, Deal, Result, Suit, Vole
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
    Suit.SPADES: N_("in spades"),
    Suit.CLUBS: N_("in clubs"),
    Suit.DIAMONDS: N_("in diamonds"),
    Suit.HEARTS: N_("in hearts"),
}


def result_label(deal: Deal, result: Result) -> str:
    """The result in a word or two, as the ledger, the tally and its PDF name it: the result's own label
    ("won", "remise", "vole lost"), except a vole undertaken after premiers and lost, where Hombre won the game
    (:func:`~scorer.core.outcome.game_won`; P: it "does not bar Hombre from winning the game stake") and only
    the vole failed: "won, the vole failed". A vole announced in the bid and lost stays "vole lost": the game
    is lost with it (P: "Hombre neither wins the game stake nor doubles it")."""
    if result is Result.VOLE_LOST and game_won(deal, result):
        return _("won, the vole failed")
    return result.label


def in_suit(suit: Suit) -> str:
    """"in hearts", in the reader's language."""
    return _(_IN_SUIT[suit])


_THE_RANK = {"K": N_("the King"), "Q": N_("the Queen"), "J": N_("the Knave"), "A": N_("the Ace")}
_OF_SUIT = {
    Suit.SPADES: N_("of spades"),
    Suit.CLUBS: N_("of clubs"),
    Suit.DIAMONDS: N_("of diamonds"),
    Suit.HEARTS: N_("of hearts"),
}


def the_card(card: Card) -> str:
    """"the King of hearts" (the card's name with its article), in the reader's language."""
    rank = _THE_RANK.get(card.rank)
    return f"{_(rank) if rank is not None else 'the ' + card.rank} {_(_OF_SUIT[card.suit])}"


def both(first: str, second: str) -> str:
    """Two things said together: "6 matadors and the vole announced"."""
    return _("{first} and {second}").format(first=first, second=second)


def _trumps(deal: Deal) -> str:
    """" in hearts" (and " (the favourite)" when the deal's favourite suit is trumps), or "" without trumps."""
    if deal.trumps is None:
        return ""
    favourite = _(" (the favourite suit)") if deal.favourite is not None and deal.favourite is deal.trumps else ""
    return f" {in_suit(deal.trumps)}{favourite}"


def _called(deal: Deal) -> str:
    """The called card and who held it: ", calling the King of hearts (Bea held it)"."""
    if deal.called is None:
        return ""
    card = the_card(deal.called)
    if deal.kind.takes_king:
        if deal.giver:
            return _(", taking {card} from {giver}").format(card=card, giver=deal.giver)
        return _(", calling {card}").format(card=card)
    if deal.is_secret_solo:
        return _(", calling {card}, which {hombre} held (played alone)").format(card=card, hombre=deal.hombre)
    if deal.ally:
        return _(", calling {card} ({ally} held it)").format(card=card, ally=deal.ally)
    return _(", calling {card}").format(card=card)


def _played(deal: Deal) -> str:
    """What was played, without the tricks: "Hal played grandissimo (no trumps but the black Aces)"."""
    who, contract = deal.hombre, deal.contract
    trumps = _trumps(deal)
    if contract is Contract.FORCED_SPADILLE:
        return _("{who} held Spadille: forced spadille{trumps}{called}").format(
            who=who, trumps=trumps, called=_called(deal))
    if contract is Contract.VOLE:
        return _("{who} bid the vole{trumps}").format(who=who, trumps=trumps)
    if contract is Contract.GRANDISSIMO:
        return _("{who} played grandissimo (no trumps but the black Aces)").format(who=who)
    if contract is Contract.NEMO:
        return _("{who} played nemo (no trumps but the black Aces; to lose every trick)").format(who=who)
    if contract is Contract.CASCO:
        return _("{who} played casco{trumps}{called}").format(who=who, trumps=trumps, called=_called(deal))
    if contract is Contract.ALLIANCE:
        played = _("{who} played an {contract}{trumps}{called}")
    elif contract is Contract.SOLO:
        played = _("{who} played a {contract}{trumps}{called}")
    else:
        played = _("{who} played {contract}{trumps}{called}")
    return played.format(who=who, contract=contract.label, trumps=trumps, called=_called(deal))


def _tricks(deal: Deal) -> str:
    """The tricks taken: "took 7 tricks", or "together took 6 tricks (Hal 4, Bea 2)"."""
    n = deal.side_tricks
    if n == 0:
        return _("{hombre} took no trick").format(hombre=deal.hombre)
    if deal.has_real_ally:
        took = (_("{hombre} and {ally} took {n} trick ({hombre} {hombre_tricks}, {ally} {ally_tricks})") if n == 1 else
                _("{hombre} and {ally} took {n} tricks ({hombre} {hombre_tricks}, {ally} {ally_tricks})"))
        return took.format(hombre=deal.hombre, ally=deal.ally, n=n, hombre_tricks=deal.hombre_tricks,
                           ally_tricks=deal.ally_tricks or 0)
    took = _("{hombre} took {n} trick") if n == 1 else _("{hombre} took {n} tricks")
    return took.format(hombre=deal.hombre, n=n)


def _extras(deal: Deal) -> list[str]:
    """What was held or undertaken besides: matadors, the vole announced, revealed or undertaken."""
    extras = []
    if deal.matadors:
        extras.append(_("{n} matadors").format(n=deal.matadors))
    if deal.vole is Vole.ANNOUNCED:
        extras.append(_("the vole announced"))
    elif deal.vole is Vole.REVEALED:
        extras.append(_("the vole revealed (the hand shown)"))
    elif deal.vole is Vole.UNDERTAKEN:
        extras.append(_("the vole undertaken after premiers"))
    return extras


def describe(deal: Deal, result: Result) -> str:
    """The deal and its result as one sentence (no trailing space, ends with a full stop)."""
    extras = _extras(deal)
    held = _(", with {extras}").format(extras=reduce(both, extras)) if extras else ""
    outcome = _(_RESULTS[result])
    if deal.premiers and result is Result.WON:
        outcome = _("won, with premiers")
    elif result is Result.VOLE_LOST and deal.vole_in_the_bid:
        # P: "Hombre neither wins the game stake nor doubles it, but leaves it to be carried forward"
        outcome = _("lost, the vole not made")
    elif deal.premiers and result is Result.VOLE_LOST:
        outcome = _("the game won with premiers, the vole lost")
    return _("{played}{held}; {tricks}: {outcome}.").format(
        played=_played(deal), held=held, tricks=_tricks(deal), outcome=outcome)
