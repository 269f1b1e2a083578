//! A finished game's outcome (engine/result.py): scores by source and by round, ranks, win
//! shares, the lead changes and the margin.

use crate::game::{Event, Game, SEATS};
use crate::rules::{CoreError, SOURCES};

/// The seats with the most points, then the most stones on the sled: the winners when
/// `points` are the totals (docs/rules.md §2.5).
pub fn best_seats<T: PartialOrd + Copy>(points: &[T], sled: &[i32]) -> Vec<usize> {
    let mut best = points[0];
    let mut most = sled[0];
    for p in 1..points.len() {
        let x = points[p];
        if x > best || (x == best && sled[p] > most) {
            best = x;
            most = sled[p];
        }
    }
    (0..points.len()).filter(|&p| points[p] == best && sled[p] == most).collect()
}

/// Each seat's share of the win: 1/k for each of k tied winners, 0 for the others.
pub fn win_shares(winners: &[usize], n: usize) -> Vec<f64> {
    let share = 1.0 / winners.len() as f64;
    let mut out = vec![0.0; n];
    for &p in winners {
        out[p] = share;
    }
    out
}

/// Per seat the points by source (SOURCES' order) and by round (game end last), and how
/// often the sole leader on the score track changed, from the score events in order.
pub fn tally(events: &[Event], n: usize, rounds: usize) -> (Vec<[i32; SOURCES.len()]>, Vec<Vec<i32>>, u32) {
    let mut by_source = vec![[0; SOURCES.len()]; n];
    let mut by_round = vec![vec![0; rounds + 1]; n];
    let mut running = [0i32; SEATS];
    let mut leader: i32 = -1; // the last sole leader on the score track
    let mut changes = 0;
    let mut best = 0;
    for e in events {
        let seat = e.seat as usize;
        by_source[seat][e.source as usize] += e.points;
        by_round[seat][e.round as usize - 1] += e.points;
        running[seat] += e.points;
        let r = running[seat];
        if e.points > 0 {
            if r > best {
                // strictly ahead of everyone: the sole leader
                best = r;
                if seat as i32 != leader {
                    changes += (leader != -1) as u32;
                    leader = seat as i32;
                }
            }
        } else {
            // a penalty can hand the lead to someone else: the sole best, if any
            best = running[0];
            let mut top = 0;
            let mut ties = 1;
            for (q, &x) in running.iter().enumerate().take(n).skip(1) {
                if x > best {
                    best = x;
                    top = q;
                    ties = 1;
                } else if x == best {
                    ties += 1;
                }
            }
            if ties == 1 && top as i32 != leader {
                changes += (leader != -1) as u32;
                leader = top as i32;
            }
        }
    }
    (by_source, by_round, changes)
}

/// A finished game's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    pub players: usize,
    pub totals: Vec<i32>,
    pub by_source: Vec<[i32; SOURCES.len()]>,
    pub by_round: Vec<Vec<i32>>,
    pub sled: Vec<i32>,
    pub winners: Vec<usize>,
    /// 1 = winner; tied players share the better rank
    pub ranks: Vec<u32>,
    pub win_share: Vec<f64>,
    pub decisions: u32,
    pub lead_changes: u32,
    pub margin: i32,
    /// per seat: market cards taken, by card code (Rules.cards.names)
    pub took: Vec<Vec<u16>>,
}

pub fn result_of(g: &Game) -> Result<GameResult, CoreError> {
    if !g.over {
        return Err(CoreError::value("the game is not over".into()));
    }
    let n = g.n;
    let (by_source, by_round, lead_changes) = tally(&g.events, n, g.rounds);
    let totals = g.totals[..n].to_vec();
    let sled = g.sled[..n].to_vec();
    // rank: 1 + the seats ahead on (total, sled), the winners' key (docs/rules.md §2.5)
    let ranks: Vec<u32> = (0..n)
        .map(|p| {
            1 + (0..n).filter(|&q| totals[q] > totals[p] || (totals[q] == totals[p] && sled[q] > sled[p])).count() as u32
        })
        .collect();
    let winners: Vec<usize> = (0..n).filter(|&p| ranks[p] == 1).collect();
    let w = winners[0];
    let others = (0..n).filter(|&p| p != w).map(|p| totals[p]).max().unwrap_or(0);
    Ok(GameResult {
        players: n,
        margin: totals.iter().copied().max().unwrap() - others,
        win_share: win_shares(&winners, n),
        totals,
        by_source,
        by_round,
        sled,
        winners,
        ranks,
        decisions: g.decisions,
        lead_changes,
        took: (0..n).map(|p| g.took[p][..g.rules.cards.names.len()].to_vec()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_points_then_most_stones_on_the_sled() {
        // docs/rules.md §2.5: the most points wins; a tie goes to the most stones on the sled
        assert_eq!(best_seats(&[30, 32, 31], &[5, 0, 5]), vec![1]);
        assert_eq!(best_seats(&[32, 32, 31], &[1, 2, 5]), vec![1]);
        // still tied: they share the win
        assert_eq!(best_seats(&[32, 32, 32], &[2, 2, 1]), vec![0, 1]);
        assert_eq!(win_shares(&[0, 1], 3), vec![0.5, 0.5, 0.0]);
    }

    #[test]
    fn the_lead_changes_when_a_new_seat_is_alone_ahead() {
        let ev = |seat: u8, points: i32| Event { seat, source: 1, points, round: 1 };
        // 0 leads, 1 ties (no change), 1 ahead (change), a penalty puts 0 ahead (change)
        let events = [ev(0, 3), ev(1, 3), ev(1, 1), ev(1, -2)];
        let (by_source, by_round, changes) = tally(&events, 2, 6);
        assert_eq!(changes, 2);
        assert_eq!(by_source[1][1], 2);
        assert_eq!(by_round[0][0], 3);
    }
}
