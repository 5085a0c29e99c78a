"""``mypyc_attr``, the class options of the compiled build (:mod:`regalia._native`), importable
without mypy: mypyc reads the decorator where it compiles (from ``mypy_extensions``, which mypy
brings); at run time it does nothing, and the pure package does not need ``mypy_extensions``.
And :func:`own_abc_caches`, which a compiled abstract base class needs.

>>> @mypyc_attr(allow_interpreted_subclasses=True)
... class Base:
...     pass
>>> Base.__name__
'Base'
>>> import abc
>>> class Shape(abc.ABC):
...     pass
>>> own_abc_caches(Shape)  # an interpreted ABC has its own already: unchanged
>>> Shape._abc_impl is not abc.ABC._abc_impl
True
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # the pure package, without mypy installed

        def mypyc_attr(*attrs: Any, **kwattrs: Any) -> Any:
            return lambda cls: cls


def own_abc_caches(cls: type) -> None:
    """Give the class ``cls`` (an ``abc.ABCMeta`` class) its own ``isinstance``/``issubclass``
    caches, unless it has them.

    ``ABCMeta.__new__`` makes them (``_abc_impl``), but mypyc builds a compiled class without it:
    the class inherits those of the nearest interpreted ABC (``abc.ABC``'s), which every compiled
    ABC would share. An answer cached for one class would then be given for all: once
    ``issubclass(TwoHeirsState, State)`` is cached true, ``isinstance`` of any Two Heirs state
    against ``SoloState`` is true too (and a cached false answer spreads the same way). ``Game``
    and ``State`` call this for themselves and, from ``__init_subclass__``, for each subclass.
    """
    if "_abc_impl" not in vars(cls):
        abc_init: Callable[[type], None] = getattr(abc, "_abc_init")  # noqa: B009 (not in typeshed)
        abc_init(cls)


__all__ = ["mypyc_attr", "own_abc_caches"]
