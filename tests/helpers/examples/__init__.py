"""The worked examples as data, each table beside its sources: single deals and whole evenings written as text
(:mod:`helpers.scenario`), with what each must give. Their own tests read them (tests/test_worked_examples.py,
test_mediateur.py, test_penguin_points.py, test_britannica.py, test_scenarios.py), and so do the checks that run
over every worked example (the deal summary's, tests/test_summary.py; the French sentences', test_french_rules.py)."""
