"""Rule profiles, and the rules a table plays: a profile and the values it changed.

A :class:`Profile` is a settlement system of the sources: the contracts a table plays, the system that
settles them and the house rule values that differ from the ``quadrille`` defaults, following the source
it is named after. Profiles sit above the rules and the systems: a profile holds its system, and the
built-in profiles below name the built-in systems (nothing registers itself when it is imported). A table
picks a profile and may change any rule of it (:class:`HouseRules`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .. import rules as R
from ..errors import UnknownHouseRule, Words
from ..i18n import N_, _
from ..model import Contract
from ..rules import DEFAULT_PROFILE, HOUSE_RULES, RULES_BY_NAME, HouseRule, RuleValue, RuleValues, house_rule, rule_of
from .base import System
from .chips import HARD_SCORE
from .counters import COUNTERS
from .points import POINT_SCORE

BASIC_CONTRACTS = (Contract.FORCED_SPADILLE, Contract.ALLIANCE, Contract.SOLO, Contract.VOLE)


@dataclass(frozen=True)
class Profile:
    """A settlement system of the sources: its contracts, its system and its rule values."""

    name: str
    english_title: str
    english_description: str
    contracts: tuple[Contract, ...]
    """The contracts a table of this profile plays, lowest bid first."""
    system: System
    """Its settlement system, which the core and the web ask (they never compare its name)."""
    overrides: tuple[RuleValue, ...] = ()
    """Rule values that differ from the quadrille defaults (each a member of its rule's Enum)."""
    vole_bids: tuple[Contract, ...] = ()
    """Contracts that may be bid with the vole announced or revealed (Médiateur)."""
    _defaults: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        reads = getattr(self.system, "reads", None)
        if not isinstance(reads, frozenset) or not reads <= RULES_BY_NAME.keys():
            raise TypeError(f"the settlement system of the profile {self.name} must declare the house rules it reads "
                            "(System.reads: a frozenset of rule keys)")
        defaults = {rule.name: rule.default for rule in HOUSE_RULES}
        changed = [rule_of(value).name for value in self.overrides]
        if len(set(changed)) != len(changed):
            raise UnknownHouseRule(f"the profile {self.name} gives a house rule two values: {', '.join(changed)}")
        defaults.update((name, value.value) for name, value in zip(changed, self.overrides))
        object.__setattr__(self, "_defaults", defaults)

    @property
    def title(self) -> str:
        """The title in the reader's language (English outside a translated request)."""
        return _(self.english_title)

    @property
    def description(self) -> str:
        """The description in the reader's language (English outside a translated request)."""
        return _(self.english_description)

    def default(self, rule_name: str) -> str:
        """The value of the rule called ``rule_name`` at a table of this profile that changed nothing."""
        return self._defaults[house_rule(rule_name).name]  # house_rule refuses a name no rule has

    def applies(self, rule_name: str) -> bool:
        """Whether the house rule called ``rule_name`` can change anything at a table of this profile: its
        settlement system reads it (:attr:`System.reads`) and the profile plays a contract it concerns
        (:attr:`HouseRule.concerns`)."""
        rule = house_rule(rule_name)
        if rule.name not in self.system.reads:
            return False
        if rule.concerns is None:
            return True
        played = set(self.contracts)
        if self.vole_bids:
            played.add(Contract.VOLE)  # a vole announced (or revealed) in the bid, as P's vole bid
        return bool(played & rule.concerns)

    def applicable_rules(self) -> tuple[HouseRule, ...]:
        """The house rules that apply to this profile (:meth:`applies`), in the order of ``HOUSE_RULES``."""
        return tuple(rule for rule in HOUSE_RULES if self.applies(rule.name))


PROFILES: dict[str, Profile] = {
    profile.name: profile
    for profile in (
        Profile(
            "quadrille",
            N_("Quadrille, hard score (P)"),
            N_("Chips and a pool: alliance, solo, vole and forced spadille; matadors, "
               "premiers and the vole; remise and codille beasts; a separate vole pool. "
               "Every default follows Parlett after Quanti (P) where P states the case. Where P is silent: "
               "the codille beast when nothing was taken is PG's double the stake (its sentence, read so); "
               "the beast of a lost alliance is halved as in EB; a renounce the recorded play proves is "
               "beasted as EB says, what is upon the game (P gives no penalty), and several beasts of one "
               "deal go together (EB); where no source speaks, the app chooses (no source)."),
            BASIC_CONTRACTS,
            HARD_SCORE),
        Profile(
            "penguin_chips",
            N_("Penguin settlement in chips (PG)"),
            N_("The simpler settlement of the Penguin Book of Card Games: no solo premium, "
               "each opponent pays each ally, a lost alliance is paid by Hombre alone, the vole "
               "is 2 units each way with no vole pool, premiers are paid in forced spadille too "
               "(and the vole, PG's suggested vole settlement read so), and codille costs only the "
               "beast, double the stake; a favourite suit, if played, wins or loses double (read "
               "here as every payment and the beasts)."),
            BASIC_CONTRACTS,
            HARD_SCORE,
            (R.SoloPremium.NONE, R.BonusFlow.EACH_TO_EACH, R.AllianceLoss.HOMBRE_ALONE, R.CodilleBeast.TWICE_POOL,
             R.CodillePayments.NONE, R.VolePayment.BONUS_ONLY, R.VoleLostPays.VOLE_BONUS,
             R.ForcedSpadilleBonuses.PREMIERS_AND_VOLE, R.FavouriteDoubles.EVERYTHING)),
        Profile(
            "mediateur",
            N_("Médiateur with Quanti's table (P)"),
            N_("Quadrille's richer variant: médiateur, casco, grandissimo and nemo besides the "
               "basic bids; voles announced and revealed with their vole pools; a favourite suit "
               "that doubles the bonuses. Payments follow Quanti's table."),
            (Contract.FORCED_SPADILLE, Contract.ALLIANCE, Contract.MEDIATEUR, Contract.CASCO,
             Contract.SOLO, Contract.GRANDISSIMO, Contract.NEMO),
            HARD_SCORE,
            (R.SoloPremium.TWO_UNITS, R.VolePayment.QUANTI_TABLE, R.AnnouncedVolePremium.NONE, R.FavouriteSuit.HEARTS),
            vole_bids=(Contract.MEDIATEUR, Contract.SOLO, Contract.GRANDISSIMO)),
        Profile(
            "penguin_points",
            N_("Penguin point score (PG)"),
            N_("No chips: each game scores points to Hombre (and her ally) by contract and result, "
               "matadors ignored; after a lost game the next counts double, after two treble, and so "
               "on until a game is won."),
            BASIC_CONTRACTS,
            POINT_SCORE,
            (R.ForcedSpadilleBonuses.PREMIERS_AND_VOLE,)),
        Profile(
            "britannica",
            N_("The Britannica's counters (EB)"),
            N_("Counters, fish and mils: the game, the consolation, sans appeler and the matadors, "
               "a fish extraordinary for médiateur and sans prendre, beasts equal to what is on the "
               "game, the médiateur King bought with a fish, the last deal played double (paulans); "
               "alliance, médiateur and sans prendre. EB says that the favourite suit doubles (two fish "
               "for the médiateur King in it) but not what: the profile doubles everything in it, the "
               "beasts too, as H47 (known here at second hand) is said to: the app's reading."),
            (Contract.FORCED_SPADILLE, Contract.ALLIANCE, Contract.MEDIATEUR, Contract.SOLO),
            COUNTERS,
            # EB does not say what the favourite doubles (FavouriteDoubles.EVERYTHING): the app's reading.
            (R.AllianceRemise.FOUR_TRICKS, R.CodilleBeast.ONCE_POOL, R.CodilleIndivisible.ODD_TO_SPADILLE,
             R.MediateurKing.GIVER_PAID_A_FISH, R.OwnKing.ALONE_NO_PREMIUM, R.Paulans.LAST_DEAL,
             R.FavouriteDoubles.EVERYTHING)),
    )
}
"""The profiles offered to tables, by name: the built-in ones, and any :func:`register_profile` adds."""


def register_profile(new: Profile) -> Profile:
    """Offer a profile (and so its settlement system) to tables: one module and one profile make a system."""
    PROFILES[new.name] = new
    return new


def profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise UnknownHouseRule(Words(N_("there is no rule profile called {name!r} (known: {known})"), name=name,
                                     known=", ".join(PROFILES))) from None


class HouseRules(RuleValues):
    """The rules a table plays: a profile and the values it changed.

    Look a value up with ``rules[SOLO_PREMIUM]`` (a settlement system reads nothing else of them); the
    profile is :attr:`profile`. Instances compare equal when they play the same profile with the same values.
    """

    @classmethod
    def of(cls, profile_name: str = DEFAULT_PROFILE, changes: Mapping[str, str] | None = None) -> HouseRules:
        """The profile's values, with ``changes`` applied (each checked)."""
        prof = profile(profile_name)
        changes = dict(changes or {})
        # the profile's defaults hold every rule, in the order of HOUSE_RULES
        values = tuple((name, changes.pop(name, default)) for name, default in prof._defaults.items())
        for name, value in values:
            if not isinstance(value, str):
                raise UnknownHouseRule(Words(N_("the value of the house rule {rule} must be a name, not {value!r}"),
                                             rule=name, value=value))
        if changes:
            house_rule(next(iter(changes)))  # raises for the unknown name
        return cls(prof.name, values)  # each value checked as it is read (RuleValues)

    @property
    def profile(self) -> Profile:
        return profile(self.profile_name)

    def changes(self) -> dict[str, str]:
        """The values that differ from the profile's defaults."""
        defaults = self.profile._defaults
        return {name: value for name, value in self.values if value != defaults[name]}
