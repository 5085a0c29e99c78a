"""Alembic migrations of the server's database (run by :func:`regalia.server.store.migrate`)."""
