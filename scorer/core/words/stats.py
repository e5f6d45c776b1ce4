"""What players ask of a run of deals: who played Hombre, what, and how it went.

:func:`statistics` reads replayed evenings (one, or a circle's season) and counts, for each player,
the deals she played as Hombre and by contract, how they ended (won, remise, codille, or lost with
the pool neither won nor doubled: a vole announced and lost with six tricks or more, grandissimo and
nemo where they are paid by their premium only), the voles her side won, the deals in which her side
held matadors, and her result per evening (its average, best and worst); and, for the evenings
together, each contract played and how often it was won. Only the settled deals count.

A game is won as :func:`~scorer.core.game.outcome.game_won` says: a vole undertaken after premiers and lost
still wins the game (P: it "does not bar Hombre from winning the game stake"); a vole announced in the
bid and lost does not, however many tricks were taken (P: "Hombre neither wins the game stake nor
doubles it").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..ledger.evening import Replay
from ..model import Contract, Result
from ..game.outcome import game_won


@dataclass(frozen=True)
class PlayerStats:
    player: str
    as_hombre: int
    """Deals she played as Hombre."""
    contracts: Mapping[Contract, int]
    """Of those, how many of each contract (only the contracts she played)."""
    won: int
    remise: int
    codille: int
    lost: int
    """Lost with the pool neither won nor doubled: a vole announced and lost with six tricks or more (P: "Hombre
    neither wins the game stake nor doubles it"), grandissimo and nemo where they are paid by their premium only
    (house rule grandissimo_nemo)."""
    voles: int
    """Voles won by her side (as Hombre or as the ally)."""
    matadors: int
    """Deals in which her side held matadors."""
    evenings: tuple[int, ...]
    """Her result in each evening she sat in, in order (chips, points or counters)."""

    @property
    def best(self) -> int | None:
        return max(self.evenings) if self.evenings else None

    @property
    def worst(self) -> int | None:
        return min(self.evenings) if self.evenings else None

    @property
    def average(self) -> float | None:
        """Her mean result an evening, where she sat in one."""
        return sum(self.evenings) / len(self.evenings) if self.evenings else None


@dataclass(frozen=True)
class ContractStats:
    contract: Contract
    played: int
    won: int


@dataclass(frozen=True)
class Statistics:
    players: tuple[PlayerStats, ...]
    """Everyone who sat in one of the evenings, in the order they first appear."""
    contracts: tuple[ContractStats, ...]
    """Each contract played, in the order of :class:`Contract`."""
    deals: int


def statistics(replays: Sequence[Replay], results: Sequence[Mapping[str, int]] | None = None) -> Statistics:
    """The statistics of these replayed evenings (each counted up to its last settled deal).

    ``results`` are each evening's figures per player where they are not the balances after its
    last deal: a season's, after each evening's close (:attr:`SeasonEvening.results`)."""
    tallies = {name: _Tally() for replayed in replays for name in replayed.evening.players}  # in order of appearance
    played: Counter[Contract] = Counter()
    won: Counter[Contract] = Counter()
    for replayed in replays:
        for settlement in replayed.settlements:
            deal, result = settlement.deal, settlement.result
            game = game_won(deal, result)
            tallies[deal.hombre].count(deal.contract, result, game)
            played[deal.contract] += 1
            won[deal.contract] += game
            for member in deal.side:
                tallies[member].voles += result is Result.VOLE_WON
                tallies[member].matadors += deal.matadors > 0
    for n, replayed in enumerate(replays):
        for player in replayed.evening.players:
            tallies[player].evenings.append(results[n][player] if results is not None else replayed.final.balance(player))
    return Statistics(
        tuple(tally.freeze(name) for name, tally in tallies.items()),
        tuple(ContractStats(c, played[c], won[c]) for c in Contract if c in played),
        sum(len(replayed.settlements) for replayed in replays),
    )


class _Tally:
    """One player's counts while the deals are read."""

    def __init__(self) -> None:
        self.contracts: Counter[Contract] = Counter()
        self.ended: Counter[Result | None] = Counter()
        """How her games ended: None for won, else the result (a vole announced and lost counted as
        :attr:`Result.LOST`)."""
        self.voles = self.matadors = 0
        self.evenings: list[int] = []

    def count(self, contract: Contract, result: Result, won: bool) -> None:
        self.contracts[contract] += 1
        # a vole announced and lost with six tricks or more: neither remise nor codille (P)
        self.ended[None if won else Result.LOST if result is Result.VOLE_LOST else result] += 1

    def freeze(self, player: str) -> PlayerStats:
        ended = self.ended
        return PlayerStats(player, self.contracts.total(), {c: self.contracts[c] for c in Contract if c in self.contracts},
                           ended[None], ended[Result.REMISE], ended[Result.CODILLE], ended[Result.LOST], self.voles,
                           self.matadors, tuple(self.evenings))
