"""What ``scorer settle`` prints: an evening's settlement as JSON or as text."""

from __future__ import annotations

from typing import Any

from ..ledger.evening import Replay, close_evening, left_on_the_table
from ..model import Account, Pot, Settlement, TableState, Transfer
from ..i18n import ngettext
from ..game.outcome import game_won
from ..systems import System


REPORT_FORMAT = "quadrille-settlement/1"


def account_name(account: Account) -> str:
    """A player's name, or ``"pool"`` / ``"vole_pool"``."""
    return account.value if isinstance(account, Pot) else account


def transfer_json(transfer: Transfer) -> dict[str, Any]:
    return {
        "from": account_name(transfer.payer),
        "to": account_name(transfer.payee),
        "chips": transfer.chips,
        "reason": transfer.reason.value,
        "rule": list(transfer.rules),
        "sentence": transfer.sentence,
        "source": transfer.source,
    }


def settlement_json(s: Settlement) -> dict[str, Any]:
    deal = s.deal
    return {
        "number": s.number,
        "dealer": deal.dealer,
        "eldest": s.before.eldest(deal.dealer),
        "hombre": deal.hombre,
        "ally": deal.ally,
        "contract": deal.contract.value,
        "trumps": deal.trumps.value if deal.trumps else None,
        "result": s.result.value,
        "vole": deal.vole.value,
        "won": game_won(deal, s.result),
        "stake": s.stake,
        "unit": s.unit,
        "multiplier": s.multiplier,
        "transfers": [transfer_json(t) for t in s.transfers],
        "pool_before": s.before.pool,
        "pool_after": s.after.pool,
        "vole_pool_after": s.after.vole_pool,
        "balances_after": dict(zip(s.after.players, s.after.balances)),
        "notes": [str(note) for note in s.notes],
    }


def replay_json(replay: Replay, close: bool = False) -> dict[str, Any]:
    final = replay.final
    report: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "players": list(final.players),
        "profile": replay.evening.rules.profile_name,
        "units": replay.evening.rules.profile.system.units,
        "house_rules": dict(replay.evening.rules.values),
        "deals": [settlement_json(s) for s in replay.settlements],
        "balances": replay.balances,
        "pool": final.pool_in_sight,  # before the first deal, what a circle's last evening left
        "vole_pool": final.vole_pool,
        "spadille_reserve": final.spadille_reserve,
        "next_dealer": final.next_dealer,
    }
    if final.beasts_waiting:  # only under beasts_together: greatest_first
        report["beasts_waiting"] = list(final.beasts_waiting)
    if close:
        report["closing"] = closing_json(*close_evening(final, replay.evening.rules))
    return report


def closing_json(transfers: tuple[Transfer, ...], closed: TableState) -> dict[str, Any]:
    """The evening closed: the transfers of the close, the balances after it and what stays on the table for
    the next evening (the pool carried whole or its odd chips, the vole pool, the odd chips for Spadille and
    the beasts waiting, which ``pool_at_end`` does not share out): with the balances they sum to what the evening
    began with (zero, or its ``carried_in``: an evening of a circle before its first deal leaves them all in its pool)."""
    shown: dict[str, Any] = {
        "transfers": [transfer_json(t) for t in transfers],
        "balances": dict(zip(closed.players, closed.balances)),
        "pool": closed.pool_in_sight,
        "vole_pool": closed.vole_pool,
        "spadille_reserve": closed.spadille_reserve,
    }
    if closed.beasts_waiting:  # only under beasts_together: greatest_first
        shown["beasts_waiting"] = list(closed.beasts_waiting)
    return shown


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def replay_text(replay: Replay, close: bool = False) -> str:
    players = replay.final.players
    width = max(8, *(len(p) for p in players))
    rules = replay.evening.rules
    system = rules.profile.system
    lines = [f"Profile: {rules.profile.title}, in {system.units}"]
    changed = rules.changes()
    lines.append("House rules changed: " + (", ".join(f"{k}={v}" for k, v in changed.items()) if changed else "none"))
    lines.append("")
    for s in replay.settlements:
        lines += _deal_text(s, system)
    lines += _table_text(replay, width)
    if close:
        lines += _closing_text(replay, width)
    return "\n".join(lines) + "\n"


def _deal_text(s: Settlement, system: System) -> list[str]:
    """One deal: who played what and how it ended, its transfers and notes, the pool."""
    deal = s.deal
    ally = f" with {deal.ally}" if deal.has_real_ally else (" (her own King: alone)" if deal.is_secret_solo else "")
    called = f", called {deal.called.code}" if deal.called else ""
    lines = [
        f"Deal {s.number}: {deal.dealer} deals, {s.before.eldest(deal.dealer)} is eldest. "
        f"{deal.hombre} plays {deal.contract.label}{' in ' + deal.trumps.value if deal.trumps else ''}{called}{ally}: "
        f"{s.result.label}, {ngettext('{n} trick', '{n} tricks', deal.side_tricks).format(n=deal.side_tricks)}. "
        + system.summary(s)
    ]
    for t in s.transfers:
        rule = f"  [{', '.join(t.rules)}]" if t.rules else ""
        lines.append(f"    {t.sentence}{rule}")
    for note in s.notes:
        lines.append(f"    * {note}")
    if system.has_pool:
        lines.append(f"    pool {s.before.pool} -> {s.after.pool}, vole pool {s.after.vole_pool}")
    lines.append("")
    return lines


def _table_text(replay: Replay, width: int) -> list[str]:
    """The table of changes deal by deal, the totals, and what is carried forward."""
    final = replay.final
    players = final.players
    system = replay.evening.rules.profile.system
    header = "  ".join(p.rjust(width) for p in players)
    lines = [f"{'Deal':>5}  {header}  {'pool':>6}"]
    for s in replay.settlements:
        row = "  ".join(_signed(s.change(p)).rjust(width) for p in players)
        lines.append(f"{s.number:>5}  {row}  {s.after.pool:>6}")
    total = "  ".join(_signed(b).rjust(width) for b in final.balances)
    lines.append(f"{'Total':>5}  {total}  {final.pool_in_sight:>6}")
    if final.vole_pool or final.spadille_reserve:
        lines.append(f"Vole pool {final.vole_pool}; reserved for Spadille {final.spadille_reserve}")
    if final.beasts_waiting:
        lines.append(f"Beasts waiting {_beasts(final)} (each joins a later pool, the greatest first)")
    if system.balance_note(0):
        lines.append("In mils, fish and counters: " + "; ".join(
            f"{p} {system.balance_note(b)}" for p, b in zip(players, final.balances)))
    if final.next_dealer:
        lines.append(f"Next to deal: {final.next_dealer}")
    return lines


def _closing_text(replay: Replay, width: int) -> list[str]:
    """The evening closed: what the pool's sharing-out moves, and the final balances."""
    transfers, closed = close_evening(replay.final, replay.evening.rules)
    lines = ["", "Closing the evening:"]
    lines += [f"    {t.sentence}" for t in transfers]
    final = "  ".join(_signed(b).rjust(width) for b in closed.balances)
    lines.append(f"{'Final':>5}  {final}  {closed.pool_in_sight:>6}")
    left = left_on_the_table(closed)
    if left:
        said = ", ".join(f"{pot.label} {_beasts(closed) if pot is Pot.BEASTS_WAITING else chips}" for pot, chips in left)
        lines.append(f"Left on the table for the next evening: {said}")
    if closed.beasts_waiting:
        lines.append("    (pool_at_end shares out or carries the pool; the beasts waiting stay for a later pool, as the vole pool does)")
    return lines


def _beasts(state: TableState) -> str:
    """The beasts waiting, greatest first: "8 + 4", or "4"."""
    return " + ".join(str(b) for b in state.beasts_waiting)
