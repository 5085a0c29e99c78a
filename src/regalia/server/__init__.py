"""The game server: ``regalia serve`` (docs/server.md).

Needs the ``server`` extra (FastAPI, uvicorn, SQLAlchemy, Alembic): ``pip install 'regalia[server]'``;
PostgreSQL needs the ``postgres`` extra too. :mod:`regalia.server.store` keeps the matches,
:mod:`regalia.server.service` plays them, :mod:`regalia.server.app` is the HTTP and WebSocket front.

>>> from regalia.server.service import digest
>>> len(digest("a seat's token"))  # what the store keeps of a token: its SHA-256
64
"""
