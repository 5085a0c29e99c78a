"""The games, one package each; every one is registered by id in :mod:`regalia.core.registry`.

>>> from regalia.core.registry import game_ids
>>> "two-heirs" in game_ids()
True
"""
