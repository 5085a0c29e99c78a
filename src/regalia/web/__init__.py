"""The browser client: static files served by ``regalia serve`` (docs/server.md).

>>> from importlib import resources
>>> sorted(p.name for p in resources.files("regalia.web").iterdir() if p.name.endswith(".html"))
['index.html', 'match.html']
"""
