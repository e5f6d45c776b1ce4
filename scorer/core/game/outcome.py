"""The result of a deal from its tricks: won, remise, codille, the vole (P)."""

from __future__ import annotations

from .. import rules as R
from ..model import TRICKS, Contract, Deal, Result, Suit, Vole
from ..rules import RuleValues


# Enum members read for every deal settled, read once here: Python 3.11 reads an attribute of an Enum class
# (``Result.WON``) through the hook of EnumType.__getattr__, several times slower than a module's global.
_WON, _REMISE, _CODILLE, _NO_VOLE = Result.WON, Result.REMISE, Result.CODILLE, Vole.NONE
_PAID_BY_PREMIUM = (Contract.GRANDISSIMO, Contract.NEMO)
"""The contracts house rule grandissimo_nemo may pay by their premium only."""
_NO_FAVOURITE = R.FavouriteSuit.NONE
_FOUR_TRICKS = R.AllianceRemise.FOUR_TRICKS


def premium_only(deal: Deal, rules: RuleValues) -> bool:
    return deal.contract in _PAID_BY_PREMIUM and rules[R.GRANDISSIMO_NEMO] is R.GrandissimoNemo.PREMIUM_ONLY


def result_of(deal: Deal, rules: RuleValues) -> Result:
    """Won, remise or codille, and the vole, from the tricks taken (P); an alliance's four tricks are a remise
    under house rule alliance_remise (EB)."""
    kind = deal.kind
    tricks = deal.side_tricks
    if kind.nemo:
        # Nemo is won by taking no trick; any trick loses it (a remise, or the premium alone).
        if tricks == 0:
            return _WON
        return Result.LOST if premium_only(deal, rules) else Result.REMISE
    if tricks >= 6:
        if deal.vole is not _NO_VOLE or kind.vole_announced:  # a vole announced, revealed or undertaken
            return Result.VOLE_WON if tricks == TRICKS else Result.VOLE_LOST
        return _WON
    if premium_only(deal, rules):
        return Result.LOST
    if deal.vole_in_the_bid and rules[R.ANNOUNCED_VOLE_SHORT] is R.AnnouncedVoleShort.REMISE:
        return Result.REMISE  # P: "she does pay a remise", however few tricks she took
    if tricks == 5 or (tricks == 4 and deal.has_real_ally and rules[R.ALLIANCE_REMISE] is _FOUR_TRICKS):
        # EB: "if they make only four tricks between them it is a remise; if they make less they lose codill"
        return _REMISE
    return _CODILLE


def remise_rules(deal: Deal) -> tuple[str, ...]:
    """The house rule that decided between remise and codille for a lost deal: alliance_remise, where Hombre and
    her ally took four tricks between them (EB: a remise; P: a codille); else none."""
    return (R.ALLIANCE_REMISE,) if deal.side_tricks == 4 and deal.has_real_ally else ()


def pays_solo_premium(deal: Deal, rules: RuleValues) -> bool:
    """Whether a secret solo (Hombre called a King she held herself) is paid the solo premium: P's "in effect,
    be playing a solo", unless house rule own_king leaves it out (EB: "except the sans appeller"), or, in a
    forced spadille, house rule own_king_forced."""
    if rules[R.OWN_KING] is not R.OwnKing.SECRET_SOLO:
        return False
    return deal.contract is not Contract.FORCED_SPADILLE or rules[R.OWN_KING_FORCED] is R.OwnKingForced.AS_IN_ALLIANCE


def own_king_rules(deal: Deal) -> tuple[str, ...]:
    """The house rules that decide what a secret solo is paid (:func:`pays_solo_premium`)."""
    return (R.OWN_KING, R.OWN_KING_FORCED) if deal.contract is Contract.FORCED_SPADILLE else (R.OWN_KING,)


def in_favourite(deal: Deal, rules: RuleValues) -> bool:
    """Trumps are the favourite suit of the evening, or of this deal (P, Médiateur)."""
    favourite = rules[R.FAVOURITE_SUIT]
    if favourite is _NO_FAVOURITE or deal.trumps is None:
        return False
    suit = deal.favourite if favourite is R.FavouriteSuit.EACH_DEAL else Suit(favourite.value)
    return deal.trumps is suit


def game_won(deal: Deal, result: Result) -> bool:
    """Whether Hombre's side won the game, as every report counts it: won, the vole won, or a vole undertaken
    after premiers and lost (P: it "does not bar Hombre from winning the game stake"); a vole announced in the
    bid and lost is lost however many tricks were taken (P: "Hombre neither wins the game stake nor doubles it")."""
    if result is Result.VOLE_LOST:
        return not deal.vole_in_the_bid
    return result is _WON or result is Result.VOLE_WON
