"""Market-card effects (docs/rules.md §3). Counts and points are data (data/cards.toml).

A card gained anywhere (the market, a pyramid, scaffold or temple reward) goes through
:func:`gain`: a red card acts at once, a blue card is held, and so on (docs/rules.md §3.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from imhotep_stats.engine.actions import act
from imhotep_stats.engine.kinds import CODE
from imhotep_stats.rules.board import SITE_INDEX, SITES

if TYPE_CHECKING:
    from imhotep_stats.engine.actions import Action
    from imhotep_stats.engine.game import Game
    from imhotep_stats.rules.board import Board

BLUE = ("chisel", "lever", "hammer", "sail", "barge", "loading_platform")
# The card kinds the rules name, in the order of their codes (a hand's C row, ``Game._hand``:
# seat p's count of the card with code c at ``HAND * p + c``); a board's other deck names
# (a ``same_as`` of its own) follow, sorted (``CardPoints.names``).
KINDS = ("entrance", "sarcophagus", "paved_path", "private_quarry", "pyramid_decoration",
         "temple_decoration", "burial_chamber_decoration", "obelisk_decoration", "statue",
         *BLUE, "cargo_sled", "stone_ornament")
HAND = 32  # card kinds a hand's row holds (game.pxd: _hand is SEATS rows of HAND)
DECORATION_SITE = {
    "pyramid_decoration": 1,
    "temple_decoration": 2,
    "burial_chamber_decoration": 3,
    "obelisk_decoration": 4,
}
RED_SITE = {"entrance": 1, "sarcophagus": 3, "paved_path": 4}
PLAY = {name: act("play", name) for name in BLUE}
BLUE_BIT = {name: 1 << j for j, name in enumerate(BLUE)}  # Game.blue_kinds's bit of a blue card
# Loading Platform: "platform <ship> <site>"; Barge: "deliver <site>" (any site but the Market).
PLATFORM = [[act("platform", s, SITES[i]) for i in range(5)] for s in range(4)]
BARGE_SITES = [act("deliver", SITES[i]) for i in range(1, 5)]
# The blue cards' decision kinds (engine/kinds.py), answered by ``ANSWERS`` below.
CHISEL_PLACE, LEVER_SAIL, HAMMER_GET, HAMMER_PLACE = (
    CODE["chisel_place"], CODE["lever_sail"], CODE["hammer_get"], CODE["hammer_place"])
SAIL_PLACE, SAIL_SAIL, BARGE_SITE, PLATFORM_SAIL = (
    CODE["sail_place"], CODE["sail_sail"], CODE["barge_site"], CODE["platform_sail"])


class CardPoints:
    """Card point tables and the card codes (``names`` by code, ``code`` by name), read once
    per board and shared by its games."""

    def __init__(self, board: Board):
        deck_names = {c.get("same_as", name) for name, c in board.cards.items()}
        self.names = KINDS + tuple(sorted(deck_names - set(KINDS)))
        if len(self.names) > HAND:
            raise ValueError(f"cards: at most {HAND} kinds of card, got {len(self.names)}")
        self.code = {name: c for c, name in enumerate(self.names)}
        statues = board.tables["statue_points"]
        self.statue_table = statues["table"]
        self.statue_extra = statues["extra"]
        self.unused_blue = board.tables["unused_blue_points"]["points"]
        self.per_decoration = board.tables["decoration"]["stones_per_point"]
        cards = board.cards
        self.cargo_capacity = cards["cargo_sled"]["capacity"]
        self.private_quarry_points = cards["private_quarry"]["points"]
        self.private_quarry_stones = cards["private_quarry"]["stones"]

    def statues(self, k: int) -> int:
        if k <= 0:
            return 0
        t = self.statue_table
        return t[k - 1] if k <= len(t) else t[-1] + self.statue_extra * (k - len(t))


def build_deck(board: Board, expansion: bool) -> list[str]:
    """The market deck, unshuffled: 34 base cards, 48 with the expansion's 14."""
    deck: list[str] = []
    for name, c in board.cards.items():
        if c["deck"] == "base" or (expansion and c["deck"] == "expansion"):
            deck.extend([c.get("same_as", name)] * c["count"])
    return deck


def colour(g: Game, name: str) -> str:
    return g.board.cards[name]["colour"]


def gain(g: Game, p: int, name: str) -> None:
    """Player ``p`` takes card ``name`` (docs/rules.md §3)."""
    g._cards_taken[p] += 1
    if g.took is not None:  # for the report's card strength table (a search's copy: None)
        took = g.took[p]
        took[name] = took.get(name, 0) + 1
    site = RED_SITE[name] if name in RED_SITE else None  # compiled: no method look-up by name
    if site is not None or name == "private_quarry":
        # Red: acts at once; discarded, or kept face up with the expansion rules.
        if g.expansion:
            g._red_kept[p] += 1
        else:
            g.discard.append(name)
        if site is not None:
            g.schedule_from_quarry(p, site)
        else:  # Private Quarry (3.2): 1 point and up to 3 stones to the sled
            pts = g.card_points
            g.score(p, "market", pts.private_quarry_points)
            g.sled_to_capacity(p, pts.private_quarry_stones)
        return
    g._hand[HAND * p + g.card_points.code[name]] += 1
    if name in PLAY:
        g._blue[p] += 1
        g._blue_kinds[p] |= BLUE_BIT[name]
    if name == "cargo_sled":
        pts = g.card_points
        g._sled_cap[p] += pts.cargo_capacity


# ------------------------------------------------------------------------ blue cards
# Whether a blue card can be played: its effect can be carried out (docs/rules.md §3).
# Compiled, each is a C function over the game's C fields, with no list built (the turn's
# options check them at every turn a blue card is held).
def _chisel_playable(g: Game, p: int) -> bool:
    return g._sled[p] >= 2 and g.ship_free >= 2


def _lever_playable(g: Game, p: int) -> bool:
    # A ship can sail to a free dock: exactly when the sail options are not empty.
    return bool(g.ships_ready and g.docks_free)


def _hammer_playable(g: Game, p: int) -> bool:
    return g._sled[p] < g._sled_cap[p] and g._quarry[p] > 0


def _sail_playable(g: Game, p: int) -> bool:
    """A stone on the sled, a free dock and a ship ``_sail_card_ship`` accepts."""
    if g._sled[p] < 1 or not g.docks_free:
        return False
    for s in range(4):
        if _sail_card_ship(g, s):
            return True
    return False


def _barge_playable(g: Game, p: int) -> bool:
    return g._sled[p] >= 3


def _platform_playable(g: Game, p: int) -> bool:
    """A stone on the sled and an option of ``_platform_options``: a taken dock and a ship
    ``_platform_ship`` accepts."""
    if g._sled[p] < 1:
        return False
    taken = False
    for i in range(5):
        if g._dock_used[i]:
            taken = True
            break
    if not taken:
        return False
    for s in range(4):
        if _platform_ship(g, p, s):
            return True
    return False


# The play actions, in BLUE's order.
PLAYS = tuple(PLAY[name] for name in BLUE)


def _playable(g: Game, p: int, j: int) -> bool:
    """Whether BLUE[j] can be played by ``p`` (a C switch compiled: no call by name)."""
    if j == 0:
        return _chisel_playable(g, p)
    if j == 1:
        return _lever_playable(g, p)
    if j == 2:
        return _hammer_playable(g, p)
    if j == 3:
        return _sail_playable(g, p)
    if j == 4:
        return _barge_playable(g, p)
    return _platform_playable(g, p)


def _sail_card_ship(g: Game, s: int) -> bool:
    """Ship s is unsailed, has an empty slot and meets its minimum with one more stone."""
    load = g._ship_load[s]  # typed locals (cards.pxd): C compares
    return g._ship_dock[s] < 0 and load < g.ship_sizes[s] and load + 1 >= g._ship_min[s]


def _sail_card_ships(g: Game) -> list[int]:
    """Ships the Sail card can load and send (``_sail_card_ship``)."""
    return [s for s in range(4) if _sail_card_ship(g, s)]


def _platform_ship(g: Game, p: int, s: int) -> bool:
    """Ship s is unsailed, holds its minimum and a stone of ``p`` (``_platform_options``)."""
    if g._ship_dock[s] >= 0 or g._ship_load[s] < g._ship_min[s]:
        return False
    for k in range(g._ship_size[s]):  # compiled, a C loop of C compares
        if g._slots[4 * s + k] == p:
            return True
    return False


def _platform_options(g: Game, p: int) -> list[Action]:
    """Loading Platform (docs/rules.md §3.2): an unsailed ship holding a stone of ``p`` ("al
    menos una de tus piedras") to a site that already received a ship this round ("a un
    emplazamiento al que ya se haya enviado otro barco"), however many it received.

    Ruling: the ship must hold its minimum. The card "envía un barco": it sends a ship as
    the Sail action does, whose condition is the minimum; it changes only the destination."""
    taken = [i for i in range(5) if g._dock_used[i]]
    if not taken:
        return []
    return [
        PLATFORM[s][i]
        for s in range(4)
        if _platform_ship(g, p, s)
        for i in taken
    ]


def playable(g: Game, p: int, name: str) -> bool:
    """A blue card can be played when its effect can be carried out (docs/rules.md §3)."""
    return name in PLAY and _playable(g, p, BLUE.index(name))


def blue_playable(g: Game, p: int) -> int:
    """The blue cards ``p`` holds and can play, as a bitmask over BLUE (bit j: BLUE[j]): the
    turn's card options are ``PLAYS[j]`` for its set bits, in BLUE's order."""
    kinds = g._blue_kinds[p]  # bit j: a BLUE[j] card held
    mask = 0
    j = 0
    while kinds:
        if kinds & 1 and _playable(g, p, j):
            mask |= 1 << j
        kinds >>= 1
        j += 1
    return mask


def blue_options(g: Game, p: int, opts: list[Action]) -> None:
    """Append the play actions of the blue cards ``p`` holds and can play, in BLUE's order
    (``blue_playable``'s bits, appended as they are found)."""
    kinds = g._blue_kinds[p]
    j = 0
    while kinds:
        if kinds & 1 and _playable(g, p, j):
            opts.append(PLAYS[j])
        kinds >>= 1
        j += 1


def play_blue(g: Game, p: int, name: str) -> None:
    i = HAND * p + g.card_points.code[name]
    g._hand[i] -= 1
    if not g._hand[i]:
        g._blue_kinds[p] &= ~BLUE_BIT[name]
    g._blue[p] -= 1
    g.discard.append(name)
    if name == "chisel":
        g.ask(CHISEL_PLACE, p, g.empty_slots(), (p, 2))
    elif name == "lever":
        g.ask(LEVER_SAIL, p, g.sail_actions(), (p,))
    elif name == "hammer":
        if len(g.get_actions) > 1:
            # Hammer gets stones "as the action": with Pyramid D the player may also move the
            # Imhotep figure (docs/rules.md §5.4), so they choose `get` or `get move` first.
            g.ask(HAMMER_GET, p, list(g.get_actions), (p,))
        else:
            _hammer_get(g, g.get_actions[0], p)
    elif name == "sail":
        g.ask(SAIL_PLACE, p, g.empty_slots(_sail_card_ships(g)), (p,))
    elif name == "barge":
        # Return 2 sled stones to the quarry, deliver 1 sled stone "directamente en un
        # emplazamiento ... en el siguiente espacio permitido". Ruling (docs/rules.md §3.2):
        # not the Market, which has no space for a stone (a stone there only pays for a card).
        g._sled[p] -= 2
        g._quarry[p] += 2
        g.ask(BARGE_SITE, p, list(BARGE_SITES), (p,))
    elif name == "loading_platform":
        g.ask(PLATFORM_SAIL, p, _platform_options(g, p), (p,))


def _hammer_get(g: Game, a: Action, p: int) -> None:
    """Hammer: get new stones, then place 1 sled stone on a ship if a slot is free."""
    g.sled_to_capacity(p, g.get_stones)
    if a.args:
        g.sites[1].on_get(g, p, a)  # the Pyramid D figure
    slots = g.empty_slots() if g._sled[p] else []
    if slots:  # not optional (docs/rules.md §3.1)
        g.ask(HAMMER_PLACE, p, slots, (p,))


def _place_one(g: Game, a: Action, p: int) -> None:
    g._sled[p] -= 1
    g.put_on_ship(p, a.n0, a.n1)  # a place action: its ship and slot


def _chisel_place(g: Game, a: Action, p: int, left: int) -> None:
    """Chisel: 2 sled stones onto ships, both on one ship or one each on two."""
    _place_one(g, a, p)
    if left > 1:
        g.ask(CHISEL_PLACE, p, g.empty_slots(), (p, left - 1))


def _lever_sail(g: Game, a: Action, p: int) -> None:
    g._sail(p, a.args[0], SITE_INDEX[a.args[1]], True)  # Game.sail's work (a C call)


def _sail_place(g: Game, a: Action, p: int) -> None:
    """Sail card: place 1 sled stone, then sail that same ship."""
    _place_one(g, a, p)
    g.ask(SAIL_SAIL, p, g.sail_actions((a.args[0],)), (p,))


def _sail_sail(g: Game, a: Action, p: int) -> None:
    g._sail(p, a.args[0], SITE_INDEX[a.args[1]], False)


def _barge(g: Game, a: Action, p: int) -> None:
    g._sled[p] -= 1
    g.schedule_delivery(p, SITE_INDEX[a.args[0]])


def _platform(g: Game, a: Action, p: int) -> None:
    """Loading Platform: return 1 sled stone, sail a ship to an already taken dock."""
    g._sled[p] -= 1
    g._quarry[p] += 1
    g._sail(p, a.args[0], SITE_INDEX[a.args[1]], False)


# Who answers each blue card's questions (engine/game.py's ``_answer``): kind code -> function.
ANSWERS = {
    CHISEL_PLACE: _chisel_place,
    LEVER_SAIL: _lever_sail,
    HAMMER_GET: _hammer_get,
    HAMMER_PLACE: _place_one,
    SAIL_PLACE: _sail_place,
    SAIL_SAIL: _sail_sail,
    BARGE_SITE: _barge,
    PLATFORM_SAIL: _platform,
}


# ------------------------------------------------------------------------ game end
def score_game_end(g: Game) -> None:
    """Decorations, statues, unused blue cards, stone ornaments (docs/rules.md §2.5, 3)."""
    pts = g.card_points
    for p in range(g.n):
        if not held_total(g, p):
            continue
        for name, site in DECORATION_SITE.items():
            k = held(g, p, name)
            if k:
                g.score(p, "card_decoration", k * (g.sites[site].stones() // pts.per_decoration))
        g.score(p, "card_statue", pts.statues(held(g, p, "statue")))
        g.score(p, "card_unused_blue", g._blue[p] * pts.unused_blue)  # blue: BLUE cards held
        g.score(p, "card_ornament", held(g, p, "stone_ornament") * g._sled[p])


# ------------------------------------------------------------------------ hands
# A hand is a C row of the game (``_hand``, a count per card code); these read it by name.
def held(g: Game, p: int, name: str) -> int:
    """How many ``name`` cards seat ``p`` holds."""
    return g._hand[HAND * p + g.card_points.code[name]]


def held_total(g: Game, p: int) -> int:
    """How many cards seat ``p`` holds."""
    total = 0
    for c in range(len(g.card_points.names)):
        total += g._hand[HAND * p + c]
    return total


def hand_of(g: Game, p: int) -> dict[str, int]:
    """Seat ``p``'s held cards by name, in code order (a new dict)."""
    names = g.card_points.names
    out = {}
    for c in range(len(names)):
        k = g._hand[HAND * p + c]
        if k:
            out[names[c]] = k
    return out


def set_hand(g: Game, p: int, hand: dict[str, int]) -> None:
    """Seat ``p`` holds exactly ``hand`` (card name -> count; a scenario's, a test's)."""
    code = g.card_points.code
    unknown = sorted(set(hand) - set(code))
    if unknown:
        raise ValueError(f"hand of seat {p}: unknown card names {unknown}")
    for c in range(len(g.card_points.names)):
        g._hand[HAND * p + c] = 0
    for name, k in hand.items():
        g._hand[HAND * p + code[name]] = k


class Hand(dict):
    """A copy of a seat's hand (``Game.hand``) whose changes go back to the game."""

    __slots__ = ("game", "seat")

    def _back(self) -> None:
        set_hand(self.game, self.seat, self)

    def __setitem__(self, name, k):
        dict.__setitem__(self, name, k)
        self._back()

    def __delitem__(self, name):
        dict.__delitem__(self, name)
        self._back()

    def _in_place(self, *args, **kwargs):
        raise TypeError("a hand is written by name (hand[card] = k, del hand[card]) or whole "
                        "(g.hand[p] = {...}); this change of the copy would not reach the game")

    pop = popitem = clear = update = setdefault = __ior__ = _in_place


class Hands(list):
    """The hands of a game (``Game.hand``): a seat's hand set whole goes back to the game."""

    __slots__ = ("game",)

    def __setitem__(self, p, hand):
        set_hand(self.game, p, hand)
        list.__setitem__(self, p, hand_row(self.game, p))


def hand_row(g: Game, p: int) -> Hand:
    out = Hand(hand_of(g, p))
    out.game = g
    out.seat = p
    return out


def hands(g: Game) -> Hands:
    """``Game.hand``: each seat's :class:`Hand`."""
    out = Hands([hand_row(g, p) for p in range(g.n)])
    out.game = g
    return out
