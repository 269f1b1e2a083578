# The typed layer of cards.py (docs/engine.md "Compiled accelerator"): read by Cython only,
# ignored by pure Python. The card rules the engine runs at every turn (the blue cards'
# options, a card taken) take the game as the cdef Game: its state is read as C fields.
# (Compiled, this module's init fetches the Game type from engine.game, which is already
# loading: game.py imports this module.)
cimport cython

from imhotep_stats.engine.actions cimport Action
from imhotep_stats.engine.game cimport Game

# the card point tables: C fields (no instance dict look-ups at each card taken or scored)
cdef long HAND

cdef class CardPoints:
    cdef public tuple names
    cdef public dict code
    cdef public object statue_table, statue_extra, unused_blue, per_decoration
    cdef public object cargo_capacity, private_quarry_points, private_quarry_stones
    cpdef statues(self, k)

@cython.locals(took=dict, pts=CardPoints)
cpdef gain(Game g, long p, name)
cpdef bint _chisel_playable(Game g, long p)
cpdef bint _lever_playable(Game g, long p)
cpdef bint _hammer_playable(Game g, long p)
@cython.locals(s=long)
cpdef bint _sail_playable(Game g, long p)
cpdef bint _barge_playable(Game g, long p)
@cython.locals(taken=bint, i=long, s=long)
cpdef bint _platform_playable(Game g, long p)
@cython.locals(load=long)
cpdef bint _sail_card_ship(Game g, long s)
@cython.locals(k=long)
cpdef bint _platform_ship(Game g, long p, long s)
cpdef bint _playable(Game g, long p, long j)
@cython.locals(s=long)
cpdef list _sail_card_ships(Game g)
@cython.locals(kinds=long, j=long, mask=long)
cpdef long blue_playable(Game g, long p)
@cython.locals(kinds=long, j=long)
cpdef blue_options(Game g, long p, list opts)
@cython.locals(i=long)
cpdef play_blue(Game g, long p, name)
cpdef _hammer_get(Game g, Action a, long p)
cpdef _place_one(Game g, Action a, long p)
cpdef _chisel_place(Game g, Action a, long p, long left)
@cython.locals(p=long, k=long, pts=CardPoints)
cpdef score_game_end(Game g)
cpdef long held(Game g, long p, name)
@cython.locals(total=long, c=long)
cpdef long held_total(Game g, long p)
@cython.locals(names=tuple, out=dict, c=long, k=long)
cpdef dict hand_of(Game g, long p)
@cython.locals(code=dict, c=long)
cpdef set_hand(Game g, long p, hand)

# typed for their C reads of the game's small counters (game.pxd's C arrays)
cpdef list _platform_options(Game g, long p)
cpdef _barge(Game g, Action a, long p)
cpdef _platform(Game g, Action a, long p)
cpdef _lever_sail(Game g, Action a, long p)
cpdef _sail_sail(Game g, Action a, long p)
