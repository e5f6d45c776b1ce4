"""PG's point score: points instead of chips, and a multiplier after lost games.

No pool and no antes: each game writes points to Hombre (and her ally) from
the score sheet, or strikes them off, by contract and result (PG's table);
matadors are ignored. After a lost game (remise, codille, a vole bid and lost) the next counts
double, after two in a row treble, and so on until a game is won.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from .. import rules as R
from ..game.context import DealContext
from ..errors import Said, Words
from ..i18n import N_, _
from ..game.play import beasted_renounces, renounce_said
from ..model import Contract, Deal, Pot, Reason, Result, Settlement, SystemState, TableState, Transfer
from ..game.outcome import pays_solo_premium, remise_rules
from ..rules import RuleValues
from .base import ENTRY_RULES, System


@dataclass(frozen=True)
class PointRow:
    """One column of PG's point table: what a game scores by its result."""

    won: int
    won_with_premiers: int
    vole_won: int
    vole_lost: int
    remise: int
    codille: int


# PG's point table (forced / alliance / solo); a vole announced scores in the solo column.
PG_POINTS: Mapping[str, PointRow] = {
    N_("forced"): PointRow(3, 6, 12, 1, -6, -12),
    N_("alliance"): PointRow(5, 10, 20, 2, -10, -20),
    N_("solo"): PointRow(10, 20, 40, 5, -20, -40),
}


_LOST = (Result.REMISE, Result.CODILLE)


def _column(deal: Deal, rules: RuleValues) -> str:
    """PG's column: a secret solo paid the solo premium (house rules own_king, own_king_forced) scores as a
    solo; one without it as the contract she called (EB: alone, but not paid as a solo)."""
    if deal.has_real_ally or (deal.is_secret_solo and not pays_solo_premium(deal, rules)):
        return "forced" if deal.contract is Contract.FORCED_SPADILLE else "alliance"
    return "solo"


def _bid_vole_lost(deal: Deal, result: Result) -> bool:
    """A vole bid and lost with six tricks or more: a lost game (P: "Hombre neither wins the game stake nor doubles
    it"). PG's "vole lost" row is the vole undertaken "Having won the game and premiers", so PG has no row for it:
    it scores PG's remise row and raises the multiplier like any lost game (the app's reading)."""
    return result is Result.VOLE_LOST and deal.vole_in_the_bid


def _points(row: PointRow, deal: Deal, result: Result) -> int:
    if _bid_vole_lost(deal, result):
        return row.remise
    by_result = {Result.VOLE_WON: row.vole_won, Result.VOLE_LOST: row.vole_lost, Result.REMISE: row.remise,
                 Result.CODILLE: row.codille}
    return by_result.get(result, row.won_with_premiers if deal.premiers else row.won)


def settle_points(deal: Deal, state: TableState, rules: RuleValues, deals_agreed: int) -> Settlement:
    ctx = DealContext.of(deal, state, rules, deals_agreed)
    per_player = rules[R.MULTIPLIER_SCOPE] is R.MultiplierScope.PER_PLAYER
    times = multiplier(state, deal.hombre, per_player)
    column = _column(deal, rules)
    points = _points(PG_POINTS[column], deal, ctx.result) * times
    lost = ctx.result in _LOST or _bid_vole_lost(deal, ctx.result)
    scorers = _scorers(ctx, column, lost)
    transfers, balances = _write(ctx, scorers, points, _what(ctx, column, times))
    beasts = _renounce_beasts(ctx, abs(points), balances)
    after = _after(ctx, balances, points * len(scorers) - sum(t.chips for t in beasts), lost, per_player)
    transfers += beasts
    times_after = multiplier(after, deal.hombre, per_player)
    notes = ((Words(N_("the next game counts ×{multiplier} for {player}"), multiplier=times_after, player=deal.hombre) if per_player
              else Words(N_("the next game counts ×{multiplier} for the table"), multiplier=times_after)),) if lost else ()
    return Settlement(ctx.number, deal, ctx.result, transfers, state, after, 1, 0, notes, times)


def _renounce_beasts(ctx: DealContext, points: int, balances: dict[str, int]) -> tuple[Transfer, ...]:
    """Each renounce the play proves strikes its player off the points the game counted (house rule
    renounce_beast: EB beasts a renouncer; with no pool to beast, the figure is the app's, no source)."""
    beasts = []
    for renounce in beasted_renounces(ctx.deal, ctx.state.players, ctx.rules) if points else ():
        balances[renounce.player] -= points
        beasts.append(Transfer(renounce.player, Pot.SCORE_SHEET, points, Reason.RENOUNCE_BEAST,
                               Words(N_("struck off for {renounce}"), renounce=renounce_said(renounce)), (R.RENOUNCE_BEAST,), "EB"))
    return tuple(beasts)


def _scorers(ctx: DealContext, column: str, lost: bool) -> tuple[str, ...]:
    """Who the game's points are written to or struck from."""
    deal = ctx.deal
    if lost and deal.has_real_ally and column != "forced" and ctx.rules[R.POINTS_ALLY] is R.PointsAlly.LOSSES_IN_FORCED_ONLY:
        return (deal.hombre,)  # PG: a losing score is deducted from the ally only in forced spadille
    return deal.side


def _what(ctx: DealContext, column: str, multiplier: int) -> Words:
    """The transfers' words: the column, the result, and what the game counted."""
    deal, result = ctx.deal, ctx.result
    what = Words(N_("{column} {result}"), column=Words(column), result=result.words)
    if deal.premiers and result is Result.WON:
        what = Words(N_("{what} with premiers"), what=what)
    if _bid_vole_lost(deal, result):
        what = Words(N_("{what}: scored as a remise (the app's reading)"), what=what)
    if multiplier > 1:
        what = Words(N_("{what} (×{multiplier} after {lost} lost game)") if multiplier == 2 else
                     N_("{what} (×{multiplier} after {lost} lost games)"), what=what, multiplier=multiplier, lost=multiplier - 1)
    return what


def _write(ctx: DealContext, scorers: tuple[str, ...], points: int, what: Words) -> tuple[tuple[Transfer, ...], dict[str, int]]:
    """The points written to (or struck from) each scorer on the score sheet, and the balances after."""
    state = ctx.state
    used: tuple[str, ...] = (R.MULTIPLIER_SCOPE,) + ((R.POINTS_ALLY,) if ctx.deal.has_real_ally else ())
    if ctx.result in _LOST:
        used += remise_rules(ctx.deal)  # alliance_remise, for four tricks between Hombre and her ally
    balances = dict(zip(state.players, state.balances))
    transfers = []
    for player in scorers:
        balances[player] += points
        payer, payee = (Pot.SCORE_SHEET, player) if points >= 0 else (player, Pot.SCORE_SHEET)
        transfers.append(Transfer(payer, payee, abs(points), Reason.POINTS, what, used, "PG"))
    return tuple(transfers), balances


def _after(ctx: DealContext, balances: dict[str, int], written: int, lost: bool, per_player: bool) -> TableState:
    """The table after the deal: the balances, the score sheet, and the losing streaks that set the multiplier."""
    state = ctx.state
    sheet = score_sheet(state)
    streaks = list(sheet.losing_streaks or (0,) * len(state.players))
    if per_player:
        seat = state.seat(ctx.deal.hombre)
        streaks[seat] = streaks[seat] + 1 if lost else 0
    return TableState(
        players=state.players,
        balances=tuple(balances[p] for p in state.players),
        carried=ScoreSheet(sheet.written - written, sheet.losing_streak + 1 if lost else 0, tuple(streaks)),
        deals_played=ctx.number,
        last_dealer=ctx.deal.dealer,
    )


@dataclass(frozen=True, slots=True)
class ScoreSheet(SystemState):
    """What PG's point score carries from game to game."""

    written: int = 0
    """Minus the points written to the players so far (the score sheet's side of every transfer)."""
    losing_streak: int = 0
    """Games lost in a row at the table; the next counts this + 1 times (PG)."""
    losing_streaks: tuple[int, ...] = ()
    """With the multiplier per player: each player's own games lost in a row as Hombre."""

    @property
    def held(self) -> int:
        return self.written

    def multiplier(self, seat: int | None) -> int:
        """What the next game counts (PG): double after a lost game, treble after two, ... (``seat``:
        the player's own count, where each keeps one; ``None``: the table's)."""
        if seat is not None:
            return 1 + (self.losing_streaks[seat] if self.losing_streaks else 0)
        return 1 + self.losing_streak


def score_sheet(state: TableState) -> ScoreSheet:
    """The point score's state (a fresh sheet at the start of the evening)."""
    return state.carried if isinstance(state.carried, ScoreSheet) else ScoreSheet()


def multiplier(state: TableState, hombre: str, per_player: bool) -> int:
    """What ``hombre``'s next game counts."""
    return score_sheet(state).multiplier(state.seat(hombre) if per_player else None)


class PointScore(System):
    """PG's point score: no pool, points to and from a score sheet, a multiplier after lost games."""

    name: ClassVar[str] = "points"
    units: ClassVar[str] = N_("points")
    singular: ClassVar[str] = N_("point")
    reads: ClassVar[frozenset[str]] = ENTRY_RULES | {R.ANNOUNCED_VOLE_SHORT, R.MULTIPLIER_SCOPE, R.POINTS_ALLY}
    settle_up_message: ClassVar[str] = N_("A point score is settled by differences: each player receives from each "
                                          "other player the difference of their scores.")
    has_pool: ClassVar[bool] = False
    asks_matadors: ClassVar[bool] = False  # PG: points for matadors are ignored
    column_title_message: ClassVar[str] = "×"
    column_help_message: ClassVar[str] = N_("the last column is what that game counted")

    def settle(self, deal: Deal, state: TableState, rules: RuleValues, deals_agreed: int) -> Settlement:
        return settle_points(deal, state, rules, deals_agreed)

    def final_figures(self, state: TableState, rules: RuleValues) -> tuple[tuple[Transfer, ...], dict[str, int], int]:
        """PG: not zero-sum; each player settles the difference of scores with each other player,
        so a player's figure is the sum of her differences with the other three."""
        scores = dict(zip(state.players, state.balances))
        return (), {p: sum(s - scores[q] for q in scores) for p, s in scores.items()}, 0

    def column(self, settlement: Settlement) -> str:
        return f"×{settlement.multiplier}"

    def final_column(self, state: TableState) -> str:
        return ""

    def standing(self, state: TableState, rules: RuleValues, eldest: str) -> tuple[tuple[Words, Said], ...]:
        if rules[R.MULTIPLIER_SCOPE] is R.MultiplierScope.PER_PLAYER:
            return ((Words(N_("Next game counts")), Words(N_("per player"))),)
        return ((Words(N_("Next game counts")), f"×{multiplier(state, eldest, False)}"),)

    def multipliers(self, state: TableState, rules: RuleValues) -> dict[str, int]:
        """Each player's own multiplier, where each keeps one (house rule multiplier_scope)."""
        if rules[R.MULTIPLIER_SCOPE] is not R.MultiplierScope.PER_PLAYER:
            return {}
        return {p: multiplier(state, p, True) for p in state.players}

    def summary(self, settlement: Settlement) -> str:
        return _("Counts ×{multiplier}.").format(multiplier=settlement.multiplier)


POINT_SCORE = PointScore()
