//! Bot weights (bots/weights.py): what a greedy persona values, as plain numbers.

/// The weight keys in bots/weights.py's order, with their defaults.
pub const KEYS: [(&str, f64); 13] = [
    ("pyramid", 1.0),
    ("temple", 1.0),
    ("burial_chamber", 1.0),
    ("obelisk", 1.0),
    ("market", 1.0),
    ("card_statue", 1.0),
    ("card_decoration", 1.0),
    ("card_blue", 1.0),
    ("card_other", 1.0),
    ("prophecy", 1.0),
    ("deny", 0.7),
    ("optimism", 0.7),
    ("stones", 1.0),
];
pub const PYRAMID: usize = 0;
pub const MARKET: usize = 4;
pub const CARD_STATUE: usize = 5;
pub const CARD_DECORATION: usize = 6;
pub const CARD_BLUE: usize = 7;
pub const CARD_OTHER: usize = 8;
pub const PROPHECY: usize = 9;
pub const DENY: usize = 10;
pub const OPTIMISM: usize = 11;
pub const STONES: usize = 12;

/// A site's weight key (site 1..4; the Market's points are its cards').
pub const fn site_key(site: usize) -> usize {
    match site {
        0 => MARKET,
        s => PYRAMID + s - 1,
    }
}

/// A full weight table (every key), by KEYS' index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights(pub [f64; 13]);

impl Default for Weights {
    fn default() -> Weights {
        let mut w = [0.0; 13];
        for (i, (_, v)) in KEYS.iter().enumerate() {
            w[i] = *v;
        }
        Weights(w)
    }
}

impl Weights {
    /// The defaults overlaid with `over` ((key, value) pairs); an unknown key or a value out
    /// of range is an error naming it (bots/weights.py `check_weights`).
    pub fn with(over: &[(&str, f64)]) -> Result<Weights, String> {
        Weights::default().over(over, "weights")
    }

    /// These weights overlaid with `over`; errors name the key as `{where}.{key}`.
    pub fn over(mut self, over: &[(&str, f64)], place: &str) -> Result<Weights, String> {
        for &(k, v) in over {
            let i = KEYS.iter().position(|(n, _)| *n == k).ok_or_else(|| {
                let mut known: Vec<&str> = KEYS.iter().map(|(n, _)| *n).collect();
                known.sort();
                format!("{place}.{k}: unknown weight (known: {})", known.join(", "))
            })?;
            let hi = if k == "optimism" { 1.0 } else { 100.0 };
            if !v.is_finite() || !(0.0..=hi).contains(&v) {
                return Err(format!("{place}.{k}: expected a number from 0 to {hi}, got {v}"));
            }
            self.0[i] = v;
        }
        Ok(self)
    }

    /// A built-in persona's weights (bots/__init__.py BUILTIN_PERSONAS), None for others.
    pub fn persona(name: &str) -> Option<Weights> {
        let over: &[(&str, f64)] = match name {
            "greedy" => &[],
            "balanced" => &[("deny", 0.35)],
            "pyramid" => &[("pyramid", 1.8), ("temple", 0.8), ("burial_chamber", 0.8), ("obelisk", 0.8)],
            "temple" => &[("temple", 1.8), ("pyramid", 0.8), ("burial_chamber", 0.8), ("obelisk", 0.8)],
            "burial" => &[("burial_chamber", 1.8), ("pyramid", 0.8), ("temple", 0.8), ("obelisk", 0.8)],
            "obelisk" => &[("obelisk", 1.8), ("pyramid", 0.8), ("temple", 0.8), ("burial_chamber", 0.8)],
            "market" => &[
                ("market", 1.5), ("card_statue", 1.4), ("card_decoration", 1.2), ("pyramid", 0.8),
                ("temple", 0.8), ("burial_chamber", 0.8), ("obelisk", 0.8),
            ],
            _ => return None,
        };
        Some(Weights::with(over).expect("the built-in personas' weights are valid"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn personas_and_errors() {
        assert_eq!(Weights::persona("greedy").unwrap().0[DENY], 0.7);
        assert_eq!(Weights::persona("market").unwrap().0[CARD_STATUE], 1.4);
        assert!(Weights::persona("nobody").is_none());
        let e = Weights::with(&[("dney", 1.0)]).unwrap_err();
        assert!(e.starts_with("weights.dney: unknown weight"), "{e}");
        assert!(Weights::with(&[("optimism", 1.5)]).is_err());
    }
}
