"""``mypyc_attr``, the class options of the compiled build (:mod:`regalia._native`), importable
without mypy: mypyc reads the decorator where it compiles (from ``mypy_extensions``, which mypy
brings); at run time it does nothing, and the pure package does not need ``mypy_extensions``.

>>> @mypyc_attr(allow_interpreted_subclasses=True)
... class Base:
...     pass
>>> Base.__name__
'Base'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # the pure package, without mypy installed

        def mypyc_attr(*attrs: Any, **kwattrs: Any) -> Any:
            return lambda cls: cls


__all__ = ["mypyc_attr"]
