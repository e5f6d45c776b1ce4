"""What the test files share, in one place: no test module imports from another (tests/test_package_shape.py
holds it so); the fixtures they share are in tests/conftest.py.

- :mod:`.web`: a table and a circle through Flask's test client, as phones use them (start, record, correct, import).
- :mod:`.store`: circles and tables in the store, no Flask.
- :mod:`.racing`: the race harness (two phones, a barrier, the evidence rule) and the forms a race fires.
- :mod:`.browser`: a phone in a real browser (Playwright), its checks and its screenshots.
- :mod:`.deals`: random valid deals (hypothesis), a short evening of every profile, a deal summarised.
- :mod:`.plays`: plays of the cards written as text, and played at random.
- :mod:`.markup`: pages parsed as a browser parses them, and a refused form's error summary.
- :mod:`.scenario`: deals and evenings written as text, with what they must give.
- :mod:`.examples`: the worked examples as data (each profile's tables, the evenings).
- :mod:`.hostile_files`, :mod:`.largest_table`: the files an import must refuse, and the largest it must take.
"""
