//! A finished game's outcome (engine/result.py): the winners.

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
    }
}
