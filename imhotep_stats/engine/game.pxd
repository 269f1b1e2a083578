# The typed layer of game.py (docs/engine.md "Compiled accelerator"): read by Cython only,
# ignored by pure Python. Game is a cdef class: every attribute the .py gives it must be
# declared here (an undeclared one lands in the instance __dict__, kept for modules that add
# their own, such as ``prophecy``). Only C types whose arithmetic is Python's: long for small
# counters, seats, indexes and bitmasks, bint for flags; anything else stays an object.
cimport cython

from imhotep_stats.engine.actions cimport Action, open_places, sail_options
from imhotep_stats.engine.chance cimport fast_shuffle, reshuffle
from imhotep_stats.engine.rows cimport fixed
from imhotep_stats.engine.sites.base cimport Site

# the turn actions' kind codes (engine/actions.py), C longs here
cdef long PLACE_CODE, GET_CODE, PASS_CODE, SAIL_CODE, PLAY_CODE
# the task codes (C longs: _run_task dispatches on them with C compares)
cdef long END_TURN, AFTER_SAIL, UNLOAD_SHIP, UNLOAD_STONE, LEVER_NEXT, DELIVER, ROUND_END, NEXT_ROUND, CALL
# the kind codes the game checks at every decision (engine/kinds.py), C longs here
cdef long NONE, TURN
cdef bint COMPILED
cdef list SHIP_PLACES  # actions.SHIP_PLACES (a C global here: one C index a ship)
cdef dict _SHIPS  # _ships's cache: a C dict, so its look-up is not a method call by name

@cython.final
cdef class Game:
    cdef dict __dict__
    cdef public object board, sides, seed, expansion, prophecies, rounds, rng_reshuffle
    cdef public object scenario, pinned, chance_setup, pinned_reshuffles, reshuffles
    cdef public object stones_total, get_stones, card_points, round_cards, deck_initial
    cdef public object ship_sizes, prophecy
    cdef public tuple get_actions  # (GET,) or Pyramid D's (GET, GET_MOVE): len() in C
    cdef object _options  # the options property's list; None: a turn's, not built yet
    cdef public list deck, discard
    cdef public list events, stack, sites, took
    cdef public tuple turn_start_hooks  # prophecies' functions: a tuple, shared by copies
    # the small counters: C arrays (game.py's Row: their public names are properties)
    cdef long _sled[4]  # SEATS
    cdef long _quarry[4]
    cdef long _sled_cap[4]
    cdef long _blue[4]
    cdef long _totals[4]
    cdef long _blue_kinds[4]
    cdef long _red_kept[4]
    cdef long _cards_taken[4]
    cdef long _ship_min[4]  # SHIPS
    cdef long _ship_load[4]
    cdef long _ship_dock[4]
    cdef long _ship_size[4]
    cdef long _dock_used[5]  # DOCKS
    cdef long _slots[16]  # SLOTS
    cdef long _hand[128]  # SEATS * cards.HAND: each seat's count of each card
    cdef public tuple _round_start_sites, _round_end_sites  # site indexes, in order
    cdef public tuple _context
    cdef public long n, round, current, start_player, passes, last_sailer, decisions, to_move
    cdef public long ship_free, ships_ready, docks_free, sailed, kind_code, open_mask
    cdef public bint round_over, skip_advance, over

    cpdef score(self, long seat, source, long points)
    cpdef ask(self, long kind, long player, options, tuple ctx=*)
    cpdef draw(self)
    @cython.locals(mask=long, keep=long)
    cpdef list empty_slots(self, ships=*)
    @cython.locals(room=long, quarry=long, k=long)
    cpdef sled_to_capacity(self, long p, long stones)
    cpdef schedule_from_quarry(self, long p, long site)
    @cython.locals(load=long, need=long)
    cpdef put_on_ship(self, long p, long s, long k)
    @cython.locals(site=Site, mins=tuple, s=long, k=long, i=long)
    cpdef _start_round(self, long start)
    @cython.locals(stack=list, p=long)
    cpdef _advance(self)
    @cython.locals(opts=list, sled=long, mask=long, s=long)
    cpdef list _turn_options(self, long p)
    @cython.locals(size=long, load=long, stack=list, depth=Py_ssize_t)
    cpdef _sail(self, long p, long s, long site, bint lever)
    @cython.locals(stack=list, i=long)
    cpdef _end_round(self, long next_start)
    @cython.locals(at=Site)
    cpdef _game_end(self)
    @cython.locals(n=long, p=long)
    cpdef list winners(self)
    @cython.locals(k=Py_ssize_t)
    cpdef set_ship_slots(self, long s, slots)


@cython.locals(at=Site)
cpdef _deliver(Game g, long site, long owner)

cpdef tuple _ships(sizes)

@cython.locals(site=long, at=Site)
cpdef _answer(Game g, long kind, a)

cpdef _after_sail(Game g)

@cython.locals(size=long, stack=list, depth=long, k=long, owner=long, at=Site)
cpdef _unload_ship(Game g, long s, long site, long start)

@cython.locals(s=long, k=long, o=long)
cpdef _next_round(Game g, long next_start)

@cython.locals(at=Site, owner=long)
cpdef _unload(Game g, long s, long k, long site)

cpdef _lever_next(Game g, long s, long site, long p)

@cython.locals(code=long, at=Site)
cpdef _run_task(Game g, tuple t)

@cython.locals(n=long)
cpdef _end_turn(Game g)

@cython.locals(legal=bint)
cpdef apply(Game g, a)

cpdef _perform(Game g, Action a)

cpdef options_of(Game g)


@cython.locals(c=long, depth=Py_ssize_t, at=Site)
cpdef _turn(Game g, long p, Action a)

cpdef _then(Game g, Py_ssize_t depth, tuple task)

cpdef bint is_option(options, a)

cpdef play_seats(Game g, list seats, on_decision)
