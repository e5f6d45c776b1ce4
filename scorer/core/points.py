"""PG's point score: points instead of chips, and a multiplier after lost games.

No pool and no antes: each game writes points to Hombre (and her ally) from
the score sheet, or strikes them off, by contract and result (PG's table);
matadors are ignored. After a lost game (remise or codille) the next counts
double, after two in a row treble, and so on until a game is won.
"""

from __future__ import annotations

from . import rules as R
from .model import Contract, Deal, Pot, Reason, Result, Settlement, TableState, Transfer
from .rules import PG_POINTS, HouseRules, PointRow
from .outcome import result_of


def _column(deal: Deal, rules: HouseRules) -> str:
    if deal.contract is Contract.FORCED_SPADILLE and not deal.is_secret_solo:
        return "forced"
    if deal.has_real_ally:
        return "alliance"
    if deal.is_secret_solo and rules[R.OWN_KING] is R.OwnKing.ALONE_NO_PREMIUM:
        return "alliance"  # EB: alone, but not paid as a solo
    return "solo"


def _points(row: PointRow, deal: Deal, result: Result) -> int:
    if result is Result.VOLE_WON:
        return row.vole_won
    if result is Result.VOLE_LOST:
        return row.vole_lost
    if result is Result.REMISE:
        return row.remise
    if result is Result.CODILLE:
        return row.codille
    return row.won_with_premiers if deal.premiers else row.won


def settle_points(deal: Deal, state: TableState, rules: HouseRules, deals_agreed: int) -> Settlement:
    number = state.deals_played + 1
    per_player = rules[R.MULTIPLIER_SCOPE] is R.MultiplierScope.PER_PLAYER
    multiplier = state.multiplier(deal.hombre, per_player)
    result = result_of(deal, rules)
    column = _column(deal, rules)
    points = _points(PG_POINTS[column], deal, result) * multiplier
    lost = result in (Result.REMISE, Result.CODILLE)

    scorers = list(deal.side)
    if lost and deal.has_real_ally and column != "forced" and rules[R.POINTS_ALLY] is R.PointsAlly.LOSSES_IN_FORCED_ONLY:
        scorers = [deal.hombre]  # PG: a losing score is deducted from the ally only in forced spadille
    times = f" (×{multiplier} after {multiplier - 1} lost game{'s' if multiplier > 2 else ''})" if multiplier > 1 else ""
    what = f"{column} {result.label}{' with premiers' if deal.premiers and result is Result.WON else ''}{times}"
    used = (R.MULTIPLIER_SCOPE,) + ((R.POINTS_ALLY,) if deal.has_real_ally else ())

    balances = dict(zip(state.players, state.balances))
    transfers = []
    for player in scorers:
        balances[player] += points
        if points >= 0:
            transfers.append(Transfer(Pot.SCORE_SHEET, player, points, Reason.POINTS, what, used, "PG"))
        else:
            transfers.append(Transfer(player, Pot.SCORE_SHEET, -points, Reason.POINTS, what, used, "PG"))

    streaks = list(state.losing_streaks or (0,) * len(state.players))
    if per_player:
        seat = state.seat(deal.hombre)
        streaks[seat] = streaks[seat] + 1 if lost else 0
    after = TableState(
        players=state.players,
        balances=tuple(balances[p] for p in state.players),
        score_sheet=state.score_sheet - points * len(scorers),
        losing_streak=state.losing_streak + 1 if lost else 0,
        losing_streaks=tuple(streaks),
        deals_played=number,
        last_dealer=deal.dealer,
    )
    notes = (f"the next game counts ×{after.multiplier(deal.hombre, per_player)} for {deal.hombre if per_player else 'the table'}",) if lost else ()
    return Settlement(number, deal, result, tuple(transfers), state, after, 1, 0, notes, multiplier)
