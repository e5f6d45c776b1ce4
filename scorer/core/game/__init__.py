"""The game as it is played: the cards and their ranks, the play of ten tricks refereed card by card
(:mod:`.play`), what a deal's result is (:mod:`.outcome`), what a deal's entry must hold to be a deal of
Quadrille (:mod:`.checks`), the figures a settlement reads of a deal once (:mod:`.context`) and a deal told in
a line (:mod:`.describe`). It knows the house rules, not the settlement systems."""
