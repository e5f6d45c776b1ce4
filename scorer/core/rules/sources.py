"""The sources the house rules cite, by the tag the app prints beside a value, in a help text and on a
transfer: what each one is, for the rules page (:mod:`scorer.core.words.rules_doc`, ``templates/home/rules.html``).

P, Quanti, W, EB and PG are quoted in the help texts, each quotation in the source's own words. FR and H47
are known to the app only at second hand, from a summary of what they rule: their text is never quoted.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_, _


@dataclass(frozen=True)
class Source:
    """A source of the rules: its tag and what it is (author, title, date)."""

    tag: str
    english_description: str
    """What the source is, in English (marked for the catalogue)."""

    @property
    def description(self) -> str:
        """What the source is, in the reader's language."""
        return _(self.english_description)


SOURCES: tuple[Source, ...] = (
    Source("P", N_('David Parlett, "Quadrille and Médiateur, 18th century", a web page: his description of '
                   'Quadrille based on "Q. Quanti", Quadrille Elucidated (1822), and of Médiateur based on Quanti '
                   'and Les Règles du Médiateur (Paris, 1752), with Quanti\'s table of payments. The rules\' '
                   'primary source.')),
    Source("Quanti", N_('"Q. Quanti", Quadrille Elucidated (1822), a booklet of 96 pages: the primary source of P, '
                        'whose table of payments P gives. Quoted here as P gives it.')),
    Source("W", N_('Wikipedia, "Quadrille (card game)": its rules summarised from Quanti (1822). The copy quoted '
                   'here lacks its list of bids.')),
    Source("EB", N_('Encyclopaedia Britannica, 7th edition (Edinburgh: Adam and Charles Black, 1830–1842), '
                    'volume 18, "Quadrille": the game paid in counters and fish (the game, the consolation, sans '
                    'appeler, the matadors, the beasts), with the médiateur and the favourite suit.')),
    Source("PG", N_('David Parlett, The Penguin Book of Card Games (Penguin, 2008 edition), "Quadrille": a '
                    'simpler settlement in chips, and a point score. The excerpt quoted here breaks off in its '
                    'list of further bids.')),
    Source("FR", N_('A French Jeu de Quadrille of the 1720s to 1740s, with laws LIV to LVII. Known here at second '
                    'hand, from a summary of what it rules: its text is not quoted.')),
    Source("H47", N_('Hoyle\'s Games, the edition of 1847 (its editor signs "G.- H.-"), with a "Lancashire" table. '
                     'Known here at second hand, from a summary of what it rules: its text is not quoted.')),
)
"""Every source a value, a help text or a transfer cites, in the order the rules page lists them."""

SOURCES_INTRO = N_("Every value, help text and transfer cites its sources by these tags.")
READINGS = N_('"No source" marks a value none of the sources gives; "the app\'s reading" marks where the app reads '
              'a source one way among others, or fills a gap the source leaves.')
"""What the two marks of the help texts mean (in English; the rules page shows it in the reader's language)."""
