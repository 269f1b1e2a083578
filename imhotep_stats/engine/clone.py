"""A fast, independent copy of a game (``clone``), for search bots.

A clone shares everything immutable with the original (the board and its side data, card
point tables, interned actions, module functions) and copies everything a move can change:
the game's lists and dicts, the sites and module states (``STATEFUL``), the task stack and
the pending question, whose bound methods are re-bound to the clone's own sites. Playing the
clone never touches the original, and the clone plays on exactly as the original would
(its chance streams are copied with their state).

Generic over the attributes, so a field added to the game or a site is copied without a
change here: the game's attributes are its instance dict plus, compiled, the typed slots
that ``game.pxd`` declares (read from the class's descriptors once).
"""

from __future__ import annotations

import random
from types import BuiltinMethodType, MethodType

from imhotep_stats.engine.actions import Action
from imhotep_stats.engine.game import Game
from imhotep_stats.engine.prophecies import Prophecies
from imhotep_stats.engine.sites.base import Site

# Objects with state of their own that a move can change: copied attribute by attribute.
STATEFUL = (Site, Prophecies)
# Values a clone shares with its original (immutable, or never changed during a game).
_ATOMIC = frozenset({int, str, float, bool, type(None), Action, frozenset, type})


def _slots(cls: type) -> tuple[str, ...]:
    """The typed attributes of a compiled class (pure Python: none, all are in __dict__)."""
    names = []
    for klass in cls.__mro__:
        for name, member in vars(klass).items():
            if type(member).__name__ in ("getset_descriptor", "member_descriptor") \
                    and not name.startswith("__"):
                names.append(name)
    return tuple(names)


_GAME_SLOTS = _slots(Game)
_STREAMS = -1  # the memo's key for the stream replacing every chance stream (no id is < 0)
_SOURCE = -2  # the memo's key for the game being copied


# How a value of each type is copied, decided once per type (``_kind``).
_SHARE, _STATE, _METHOD, _STREAM, _SET = range(5)
_KINDS: dict[type, int] = {}


def _kind(t: type) -> int:
    k = _KINDS.get(t)
    if k is None:
        if issubclass(t, STATEFUL):
            k = _STATE
        elif t is MethodType or t is BuiltinMethodType:
            k = _METHOD
        elif t is random.Random:
            k = _STREAM
        elif t is set:
            k = _SET
        else:
            k = _SHARE  # boards, side data, card tables, functions: shared
        _KINDS[t] = k
    return k


def _copy(x, memo: dict):
    t = type(x)
    if t in _ATOMIC:
        return x
    if t is tuple:
        for e in x:
            if type(e) not in _ATOMIC:
                break
        else:
            return x  # nothing inside can change: share it
        return tuple([e if type(e) in _ATOMIC else _copy(e, memo) for e in x])
    key = id(x)
    done = memo.get(key)
    if done is not None:
        return done
    if t is list:
        out: list = []
        memo[key] = out
        for e in x:
            out.append(e if type(e) in _ATOMIC else _copy(e, memo))
        return out
    if t is dict:
        out = {}
        memo[key] = out
        for k, v in x.items():
            out[k] = v if type(v) in _ATOMIC else _copy(v, memo)
        return out
    k = _kind(t)
    if k == _SHARE:
        return x
    if k == _STATE:
        out = object.__new__(t)
        memo[key] = out
        out.__dict__.update({k: v if type(v) in _ATOMIC else _copy(v, memo)
                             for k, v in x.__dict__.items()})
        return out
    if k == _METHOD:
        owner = x.__self__
        if isinstance(owner, STATEFUL) or owner is memo.get(_SOURCE):
            return getattr(_copy(owner, memo), x.__name__)
        return x
    if k == _STREAM:
        out = memo.get(_STREAMS)
        if out is None:  # an exact copy, with the stream's state
            out = random.Random.__new__(random.Random)
            out.setstate(x.getstate())
        memo[key] = out
        return out
    out = set(x)  # _SET
    memo[key] = out
    return out


def clone(g: Game, streams: random.Random | None = None) -> Game:
    """An independent copy of ``g`` that plays on exactly as ``g`` would; with ``streams``,
    every chance stream of the copy is that one instead (a search's own)."""
    memo: dict = {}
    if streams is not None:
        memo[_STREAMS] = streams
    new = Game.__new__(Game)
    memo[id(g)] = new
    memo[_SOURCE] = g
    for name in _GAME_SLOTS:
        v = getattr(g, name)
        setattr(new, name, v if type(v) in _ATOMIC else _copy(v, memo))
    d = new.__dict__
    for k, v in g.__dict__.items():
        d[k] = v if type(v) in _ATOMIC else _copy(v, memo)
    return new
