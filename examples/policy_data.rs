//! Training decisions for tools/train_policy.py (docs/search.md "A learned policy"): games
//! the search bot `--bot` plays in every seat (2 players two games in three, else 3; A, C
//! and D sides in turn; chance from `"{seed}:{game}"`, seat p's stream
//! `"{seed}:{game}:bot{p}"`); at every decision with more than one option, a line per
//! option with policy.rs's features and the option's root visits in the bot's search.
//!
//!     cargo run --release --example policy_data -- --bot mcts2400-b1 --games 150 --seed 5 --out decisions.csv
//!
//! It resumes: games already in `--out` are not played again.

use std::collections::BTreeSet;
use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Write};
use std::sync::Arc;

use _core::bots::greedy::Greedy;
use _core::bots::weights::Weights;
use _core::play::{bot_rng, new_game};
use _core::rules::Rules;
use _core::search::bot::{MctsBot, Pricer};
use _core::search::policy::{features, FEATURES};
use _core::search::tree::search;
use _core::stream::Stream;

#[path = "../tests/common/mod.rs"]
mod common;

/// The games `out` already holds (its first column).
fn done(out: &str) -> BTreeSet<u64> {
    let Ok(f) = std::fs::File::open(out) else { return BTreeSet::new() };
    BufReader::new(f).lines().skip(1).filter_map(|l| l.ok()?.split(',').next()?.parse().ok()).collect()
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let flag = |name: &str| -> &str {
        let i = a.iter().position(|x| x == name).unwrap_or_else(|| panic!("{name} is missing"));
        &a[i + 1]
    };
    let bot = MctsBot::from_name(flag("--bot")).expect("a bot's name").expect("a search bot");
    let games: u64 = flag("--games").parse().expect("--games: a number");
    let seed = flag("--seed");
    let out = flag("--out");
    let have = done(out);
    let new = have.is_empty() && std::fs::metadata(out).map(|m| m.len() == 0).unwrap_or(true);
    let mut f = OpenOptions::new().create(true).append(true).open(out).expect("the output file");
    if new {
        writeln!(f, "game,players,sides,decision,kind,option,visits,{}", FEATURES.join(",")).unwrap();
    }
    let all_sides = ["A-A-A-A-A", "C-C-C-C-C", "D-D-D-D-D"];
    let rules: Vec<Arc<Rules>> = all_sides.iter().map(|s| common::rules(s)).collect();
    for game in 0..games {
        if have.contains(&game) {
            continue;
        }
        let k = (game % 3) as usize;
        let players = if (game / 3) % 3 == 2 { 3 } else { 2 };
        let mut g = new_game(&rules[k], players, seed, game, None, false).expect("a new game");
        let mut rngs: Vec<Stream> = (0..players).map(|p| bot_rng(seed, game, p)).collect();
        let mut pricers: Vec<Greedy> = (0..players).map(|_| Greedy::new(Weights::default())).collect();
        let mut lines = String::new();
        while !g.over {
            let p = g.to_move as usize;
            let i = if g.options().len() > 1 {
                let prices = pricers[p].prices(&g).expect("prices");
                let x = features(&g, &prices);
                let priors = bot.priors(&g, Some(&mut pricers[p] as &mut dyn Pricer)).expect("priors");
                let tree = search(&g, p, &mut rngs[p], &bot.settings, priors.as_deref()).expect("a search");
                let visits: Vec<u32> = g.options().iter().map(|o| tree.root_children().find(|(b, _)| b == o).map_or(0, |(_, n)| n)).collect();
                for (j, fs) in x.iter().enumerate() {
                    let fs: Vec<String> = fs.iter().map(|v| format!("{v:.4}")).collect();
                    lines += &format!("{game},{players},{},{},{},{j},{},{}\n", all_sides[k], g.decisions, g.kind, visits[j], fs.join(","));
                }
                tree.best_action(g.options())
            } else {
                0
            };
            g.apply_index(i).expect("a legal option");
        }
        f.write_all(lines.as_bytes()).unwrap();
        f.flush().unwrap();
    }
}
