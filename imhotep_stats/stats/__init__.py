"""Statistics for balance reports: intervals, tests, planning, ratings, aggregation.

Pure functions on numbers (``intervals``, ``tests``, ``planning``, ``rating``) and polars
aggregations over the results table (``aggregate``). See each module for the method and
its reference.
"""

from imhotep_stats.stats.aggregate import (
    bot_matrix,
    bot_ratings,
    game_shape,
    points_by_source,
    score_distribution,
    seat_edge,
    win_rates,
    winner_separation,
)
from imhotep_stats.stats.intervals import (
    mean_interval,
    min_detectable_difference,
    paired_difference,
    wilson_interval,
)
from imhotep_stats.stats.planning import games_needed, games_to_detect
from imhotep_stats.stats.rating import Rating, bradley_terry, pairwise_from_ranks
from imhotep_stats.stats.significance import (
    SeatVerdict,
    benjamini_hochberg,
    chi_square_equal_shares,
    deviation_test,
    equivalence_test,
    holm,
    seat_verdict,
    seat_verdicts,
)

__all__ = [
    "Rating",
    "SeatVerdict",
    "benjamini_hochberg",
    "bot_matrix",
    "bot_ratings",
    "bradley_terry",
    "chi_square_equal_shares",
    "deviation_test",
    "equivalence_test",
    "game_shape",
    "games_needed",
    "games_to_detect",
    "holm",
    "mean_interval",
    "min_detectable_difference",
    "paired_difference",
    "pairwise_from_ranks",
    "points_by_source",
    "score_distribution",
    "seat_verdict",
    "seat_verdicts",
    "wilson_interval",
    "win_rates",
    "seat_edge",
    "winner_separation",
]
