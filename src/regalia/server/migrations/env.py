"""Alembic's environment: migrations run on the connection :func:`regalia.server.store.migrate`
hands over (no alembic.ini)."""

from alembic import context

from regalia.server.store import connection_for_alembic, metadata

connection = connection_for_alembic(context.config)
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
