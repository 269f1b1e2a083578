//! The reference bot's experiments (docs/search.md "A learned value"): training positions
//! for tools/train_value.py, and timed head-to-heads written as `ladder play` writes them
//! (the same games: chance from `"{seed}:{game}"`, seat p's stream `"{seed}:{game}:bot{p}"`,
//! seat s of game i playing lineup[(s + i) % m]) plus each seat's CPU seconds in its bot.
//!
//!     cargo run --release --example headtohead -- data --games 6000 --seed 1 --out positions.csv
//!     cargo run --release --example headtohead -- match --players 2 --lineup mcts400-t20-v,mcts400 \
//!         --sides A-A-A-A-A --seed 777 --games 200 --out out.jsonl
//!
//! `data`: games of 2 and 3 players on A, C and D sides, each decision taken by
//! the greedy bot or, one time in four, at random; at about one decision in twelve the
//! position is copied and finished by the greedy bot in every seat, and a line per seat
//! gives value.rs's features there and the seat's win share in the finished copy.
//! `match` resumes: it plays the games `--out` does not have yet, and prints each bot's CPU
//! seconds a seat-game and search iterations a decision.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::sync::Arc;

use _core::bots::greedy::Greedy;
use _core::bots::play::{Bot, Spec};
use _core::bots::weights::Weights;
use _core::game::Game;
use _core::play::{bot_rng, new_game};
use _core::result::result_of;
use _core::rules::Rules;
use _core::search::bot::Pricer;
use _core::search::tree::search;
use _core::search::value::{features, FEATURES};
use _core::stream::Stream;

#[path = "../tests/common/mod.rs"]
mod common;

fn rules(sides: &str) -> Arc<Rules> {
    common::rules(sides)
}

/// This thread's CPU seconds so far (the scheduler's own count).
fn cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").expect("schedstat");
    s.split_whitespace().next().and_then(|x| x.parse::<f64>().ok()).expect("schedstat's first field") / 1e9
}

/// Finish `g` with the greedy bot in every seat; the win shares.
fn finish(mut g: Game, rng: &mut Stream) -> Vec<f64> {
    let mut bot = Greedy::new(Weights::default());
    while !g.over {
        let i = bot.choose(&g, rng).expect("greedy chooses");
        g.apply_index(i).expect("a legal option");
    }
    result_of(&g).expect("a finished game").win_share
}

fn data(games: u64, seed: &str, out: &str) {
    let mut f = File::create(out).expect("the output file");
    writeln!(f, "game,players,sides,decision,seat,{},share", FEATURES.join(",")).unwrap();
    let all_sides = ["A-A-A-A-A", "C-C-C-C-C", "D-D-D-D-D"];
    let rules: Vec<Arc<Rules>> = all_sides.iter().map(|s| rules(s)).collect();
    for game in 0..games {
        let k = (game % 3) as usize;
        let players = 2 + ((game / 3) % 2) as usize;
        let mut g = new_game(&rules[k], players, seed, game, None, false).expect("a new game");
        let mut rng = Stream::from_text(&format!("{seed}:{game}:data"));
        let mut bot = Greedy::new(Weights::default());
        while !g.over {
            if g.options().len() > 1 && rng.random() < 1.0 / 12.0 {
                let shares = finish((*g).clone(), &mut rng);
                let mut copy = (*g).clone();
                let x = features(&mut copy).expect("features");
                for p in 0..players {
                    let fs: Vec<String> = x[p].iter().map(|v| format!("{v:.4}")).collect();
                    writeln!(f, "{game},{players},{},{},{p},{},{:?}", all_sides[k], g.decisions, fs.join(","), shares[p]).unwrap();
                }
            }
            let n = g.options().len();
            let i = if n > 1 && rng.random() < 0.25 {
                (rng.random() * n as f64) as usize
            } else {
                bot.choose(&g, &mut rng).expect("greedy chooses")
            };
            g.apply_index(i).expect("a legal option");
        }
    }
}

fn done_games(out: &str) -> u64 {
    File::open(out).map(|f| BufReader::new(f).lines().count() as u64).unwrap_or(0)
}

fn play_match(lineup: &str, sides: &str, players: usize, games: u64, seed: &str, out: &str) {
    let specs: Vec<Spec> = lineup.split(',').map(|n| Spec::named(n).expect("a bot's name")).collect();
    let rules = rules(sides);
    let m = specs.len().max(players);
    let mut f = OpenOptions::new().create(true).append(true).open(out).expect("the output file");
    let mut totals: std::collections::BTreeMap<String, (f64, u64, u64, u64)> = Default::default();
    for game in done_games(out)..games {
        let seats: Vec<&Spec> = (0..players).map(|s| &specs[((s + game as usize) % m) % specs.len()]).collect();
        let mut bots: Vec<Bot> = seats.iter().map(|s| s.bot()).collect();
        let mut g = new_game(&rules, players, seed, game, None, false).expect("a new game");
        let mut rngs: Vec<Stream> = (0..players).map(|p| bot_rng(seed, game, p)).collect();
        let mut iterations = vec![0u64; players];
        let mut searched = vec![0u64; players];
        let mut spent = vec![0.0; players];
        let mut pricers: Vec<Greedy> = (0..players).map(|_| Greedy::new(Weights::default())).collect();
        while !g.over {
            let p = g.to_move as usize;
            let t = cpu();
            let i = match (&seats[p], g.options().len() > 1) {
                // the search bot's choice as SearchBot makes it, counting its iterations
                (Spec::Search(b), true) => {
                    let priors = b.priors(&g, Some(&mut pricers[p] as &mut dyn Pricer)).expect("priors");
                    let tree = search(&g, p, &mut rngs[p], &b.settings, priors.as_deref()).expect("a search");
                    iterations[p] += tree.root_children().map(|(_, n)| n as u64).sum::<u64>();
                    searched[p] += 1;
                    tree.best_action(g.options())
                }
                _ => bots[p].choose(&g, &mut rngs[p]).expect("a choice"),
            };
            spent[p] += cpu() - t;
            g.apply_index(i).expect("a legal option");
        }
        for p in 0..players {
            let e = totals.entry(seats[p].name().to_string()).or_insert((0.0, 0, 0, 0));
            e.0 += spent[p];
            e.1 += iterations[p];
            e.2 += searched[p];
            e.3 += 1;
        }
        let r = result_of(&g).expect("a finished game");
        let names: Vec<String> = seats.iter().map(|s| format!("{:?}", s.name())).collect();
        let cpu: Vec<String> = spent.iter().map(|t| format!("{t:.4}")).collect();
        let shares: Vec<String> = r.win_share.iter().map(|x| format!("{x:?}")).collect();
        writeln!(
            f,
            "{{\"game\": {game}, \"sides\": \"{sides}\", \"players\": {players}, \"seed\": {seed}, \"bots\": [{}], \"totals\": {:?}, \"ranks\": {:?}, \"win_share\": [{}], \"cpu\": [{}]}}",
            names.join(", "),
            r.totals,
            r.ranks,
            shares.join(", "),
            cpu.join(", ")
        )
        .unwrap();
        f.flush().unwrap();
    }
    for (name, (t, it, dec, n)) in &totals {
        eprintln!(
            "{name}: {n} seat-games, {:.3} CPU s a seat-game, {:.0} searched decisions a seat-game, {:.0} iterations a decision, {:.0} iterations a CPU second",
            t / *n as f64, *dec as f64 / *n as f64, *it as f64 / (*dec).max(1) as f64, *it as f64 / t
        );
    }
}

/// The value of `--name` in `args`.
fn flag<'a>(args: &'a [String], name: &str) -> &'a str {
    let i = args.iter().position(|a| a == name).unwrap_or_else(|| panic!("{name} is missing"));
    &args[i + 1]
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let num = |name: &str| flag(&a, name).parse::<u64>().unwrap_or_else(|e| panic!("{name}: {e}"));
    match a[1].as_str() {
        "data" => data(num("--games"), flag(&a, "--seed"), flag(&a, "--out")),
        "match" => play_match(
            flag(&a, "--lineup"),
            flag(&a, "--sides"),
            num("--players") as usize,
            num("--games"),
            flag(&a, "--seed"),
            flag(&a, "--out"),
        ),
        other => panic!("unknown mode {other:?}: data or match"),
    }
}
