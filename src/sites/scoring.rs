//! The scoring helpers several sides share: points by rank, a
//! connected group's points, and the connected groups of a grid. Their results are fixed
//! arrays or handed to a callback (a search scores a game's end every iteration).

use arrayvec::ArrayVec;

use crate::game::SEATS;

/// The most cells of a grid `line_groups` reads (a burial board's or a tomb's).
pub const CELLS: usize = 128;

/// Points by rank of `values` (highest first); players below `minimum` score nothing.
/// Tied players add up the points of the ranks they occupy and share them, rounded down
/// (docs/rules.md §7.2, 8.1). Ranks beyond the table are worth 0. Seat p's points are
/// item p (items from `values.len()` on are 0).
pub fn rank_points(values: &[i32], table: &[i32], minimum: i32) -> [i32; SEATS] {
    let mut out = [0; SEATS];
    // highest first, tied players in seat order (a stable insertion sort)
    let mut order = [0usize; SEATS];
    let mut ranked = 0;
    for (p, &v) in values.iter().enumerate() {
        if v >= minimum {
            let mut at = ranked;
            while at > 0 && values[order[at - 1]] < v {
                order[at] = order[at - 1];
                at -= 1;
            }
            order[at] = p;
            ranked += 1;
        }
    }
    let order = &order[..ranked];
    let mut i = 0;
    while i < ranked {
        let mut j = i + 1;
        while j < ranked && values[order[j]] == values[order[i]] {
            j += 1;
        }
        // ranks i..j, as far as the table goes
        let pool: i32 = table.iter().take(j).skip(i).sum();
        let share = pool.div_euclid((j - i) as i32);
        for &p in &order[i..j] {
            out[p] = share;
        }
        i = j;
    }
    out
}

/// A connected group of `size` stones: the table, then `extra` per further stone (no
/// stones, no points).
pub fn group_points(size: usize, table: &[i32], extra: i32) -> i32 {
    if size == 0 || table.is_empty() {
        return 0;
    }
    if size <= table.len() {
        return table[size - 1];
    }
    table[table.len() - 1] + extra * (size - table.len()) as i32
}

/// Orthogonally connected groups of one owner in a grid stored line by line: cell i is
/// place `i % width` of line `i / width`, -1 an empty cell. `(owner, size)` per group, in
/// the order of each group's first cell, each handed to `each` (no list built: a search
/// scores a game's end every iteration).
pub fn line_groups(owners: &[i8], width: usize, mut each: impl FnMut(usize, usize)) {
    let n = owners.len();
    // a counted cell is marked empty (copied whole, not cell by cell)
    let mut cells: ArrayVec<i8, CELLS> = ArrayVec::new();
    cells.try_extend_from_slice(owners).expect("line_groups: at most CELLS cells");
    let mut found: ArrayVec<usize, CELLS> = ArrayVec::new();
    let mut k = 0;
    for start in 0..n {
        let owner = cells[start];
        if owner < 0 {
            continue;
        }
        cells[start] = -1;
        let first = found.len();
        found.push(start);
        while k < found.len() {
            let i = found[k];
            k += 1;
            let r = i % width;
            let mut visit = |j: usize, cells: &mut ArrayVec<i8, CELLS>| {
                if cells[j] == owner {
                    cells[j] = -1;
                    found.push(j);
                }
            };
            // the four neighbours, in Python's order: next place, place before, next line,
            // line before (the order only changes which cells are found first)
            if r + 1 < width && i + 1 < n {
                visit(i + 1, &mut cells);
            }
            if r > 0 {
                visit(i - 1, &mut cells);
            }
            if i + width < n {
                visit(i + width, &mut cells);
            }
            if i >= width {
                visit(i - width, &mut cells);
            }
        }
        each(owner as usize, found.len() - first);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tied_players_share_the_ranks_they_occupy_rounded_down() {
        // docs/rules.md §8.1: ranks 10, 5, 1; seats 0 and 2 tie for first: (10 + 5) / 2 = 7
        // each, seat 1 third: 1; seat 3 has no stone: nothing.
        assert_eq!(rank_points(&[3, 1, 3, 0], &[10, 5, 1], 1), [7, 1, 7, 0]);
        // beyond the table, ranks are worth 0
        assert_eq!(rank_points(&[4, 3, 2, 1], &[2, 1], 1), [2, 1, 0, 0]);
        // three seats: the fourth item is 0; three tied for the first two ranks of a short table
        assert_eq!(rank_points(&[2, 2, 2], &[6, 3], 1), [3, 3, 3, 0]);
    }

    #[test]
    fn groups_score_their_table_then_extra_per_stone() {
        let table = [1, 3, 6, 10, 15];
        assert_eq!(group_points(0, &table, 2), 0);
        assert_eq!(group_points(3, &table, 2), 6);
        assert_eq!(group_points(7, &table, 2), 15 + 2 * 2);
    }

    #[test]
    fn groups_are_orthogonally_connected_cells_of_one_owner() {
        // 3 wide: 0 0 1 / 1 0 1 / -1 -1 1 : seat 0's group of 3, seat 1's of 3 and of 1
        let grid = [0, 0, 1, 1, 0, 1, -1, -1, 1];
        let mut groups = Vec::new();
        line_groups(&grid, 3, |owner, size| groups.push((owner, size)));
        assert_eq!(groups, [(0, 3), (1, 3), (1, 1)]);
    }
}
