"""One deal told in a sentence a player reads at the table: who played what, with whom, and how it ended.

"Hal played an alliance in spades, calling the King of hearts (Bea held it); they took 6 tricks
(Hal 4, Bea 2): won." Each contract is told in its own words: an alliance or a forced spadille
names the called King and the ally, a médiateur the King taken and who gave it, grandissimo and
nemo have no trump suit, the vole is told as announced, revealed or undertaken.
"""

from __future__ import annotations

from .model import Contract, Deal, Result, Vole

_RESULTS = {
    Result.WON: "won",
    Result.VOLE_WON: "won, with the vole",
    Result.VOLE_LOST: "the game won, the vole lost",
    Result.REMISE: "lost by remise",
    Result.CODILLE: "lost by codille",
    Result.LOST: "lost (the premium only)",
}


def _trumps(deal: Deal) -> str:
    """" in hearts" (and " (the favourite)" when the deal's favourite suit is trumps), or "" without trumps."""
    if deal.trumps is None:
        return ""
    favourite = " (the favourite suit)" if deal.favourite is not None and deal.favourite is deal.trumps else ""
    return f" in {deal.trumps.value}{favourite}"


def _called(deal: Deal) -> str:
    """The called card and who held it: ", calling the King of hearts (Bea held it)"."""
    if deal.called is None:
        return ""
    card = deal.called.name
    if deal.kind.takes_king:
        return f", taking the {card} from {deal.giver}" if deal.giver else f", calling the {card}"
    if deal.is_secret_solo:
        return f", calling the {card}, which {deal.hombre} held (played alone)"
    return f", calling the {card} ({deal.ally} held it)" if deal.ally else f", calling the {card}"


def _played(deal: Deal) -> str:
    """What was played, without the tricks: "Hal played grandissimo (no trumps but the black Aces)"."""
    who, contract = deal.hombre, deal.contract
    if contract is Contract.FORCED_SPADILLE:
        return f"{who} held Spadille: forced spadille{_trumps(deal)}{_called(deal)}"
    if contract is Contract.VOLE:
        return f"{who} bid the vole{_trumps(deal)}"
    if contract is Contract.GRANDISSIMO:
        return f"{who} played grandissimo (no trumps but the black Aces)"
    if contract is Contract.NEMO:
        return f"{who} played nemo (no trumps but the black Aces; to lose every trick)"
    if contract is Contract.CASCO:
        return f"{who} played casco{_trumps(deal)}{_called(deal)}"
    article = "an " if contract is Contract.ALLIANCE else "a " if contract is Contract.SOLO else ""
    return f"{who} played {article}{contract.label}{_trumps(deal)}{_called(deal)}"


def _tricks(deal: Deal) -> str:
    """The tricks taken: "took 7 tricks", or "together took 6 tricks (Hal 4, Bea 2)"."""
    n = deal.side_tricks
    if n == 0:
        return f"{deal.hombre} took no trick"
    plural = "trick" if n == 1 else "tricks"
    if deal.has_real_ally:
        return f"{deal.hombre} and {deal.ally} took {n} {plural} ({deal.hombre} {deal.hombre_tricks}, " \
               f"{deal.ally} {deal.ally_tricks or 0})"
    return f"{deal.hombre} took {n} {plural}"


def _extras(deal: Deal) -> list[str]:
    """What was held or undertaken besides: matadors, the vole announced, revealed or undertaken."""
    extras = []
    if deal.matadors:
        extras.append(f"{deal.matadors} matadors")
    if deal.vole is Vole.ANNOUNCED:
        extras.append("the vole announced")
    elif deal.vole is Vole.REVEALED:
        extras.append("the vole revealed (the hand shown)")
    elif deal.vole is Vole.UNDERTAKEN:
        extras.append("the vole undertaken after premiers")
    return extras


def describe(deal: Deal, result: Result) -> str:
    """The deal and its result as one sentence (no trailing space, ends with a full stop)."""
    extras = _extras(deal)
    held = f", with {' and '.join(extras)}" if extras else ""
    outcome = _RESULTS[result]
    if deal.premiers and result is Result.WON:
        outcome = "won, with premiers"
    elif deal.premiers and result is Result.VOLE_LOST:
        outcome = "the game won with premiers, the vole lost"
    return f"{_played(deal)}{held}; {_tricks(deal)}: {outcome}."
