"""The games, one package each; each is declared by id in the ``regalia.games`` entry-point group
(regalia's ``pyproject.toml``), which :mod:`regalia.core.registry` reads.

>>> from regalia.core.registry import game_ids
>>> "two-heirs" in game_ids()
True
"""
