//! Single-observer information-set MCTS with UCT selection: one determinization an
//! iteration (determinize.rs), a walk down the tree by UCB1 over the actions legal in that
//! sample (availability counts), one node added, a random or greedy rollout (to the end,
//! or `depth` decisions and then the estimate of evaluate.rs), each node credited with the
//! reward of the seat that chose it. Decisions with a single legal action take no node and
//! no draw in the tree. Every draw comes from the search's one stream in a fixed order, so
//! a search is a function of the position and the stream (tests/search_games.txt pins the
//! games it plays).

#![allow(clippy::needless_range_loop)] // seats by index

use crate::action::Action;
use crate::bots::greedy::Greedy;
use crate::bots::weights::Weights;
use crate::game::{Game, SEATS};
use crate::rules::{CoreError, Rules};
use crate::search::determinize::Sampler;
use crate::search::evaluate::{estimate_points, estimate_shares, winner_shares};
use crate::search::value::{features, shares_of, value_shares, weights};
use crate::stream::Stream;

/// Rollouts play to the game's end.
pub const NO_LIMIT: i64 = -1;
/// Points: a 10-point lead earns about 0.88 of the margin reward.
pub const MARGIN_SCALE: f64 = 10.0;
const NIL: u32 = u32::MAX;

/// A search's settings (a bot's spec, bot.rs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub iterations: u32,
    pub exploration: f64,
    /// the rollout's most decisions before the position is scored (NO_LIMIT: to the end)
    pub depth: i64,
    /// weight of the root priors (progressive bias; 0: none)
    pub bias: f64,
    /// weight of the squashed score margin in the reward (0: the win alone)
    pub margin: f64,
    /// end a decision's search once its choice cannot change
    pub stop: bool,
    /// rollouts played by the greedy bot in every seat (else uniformly random)
    pub greedy_rollout: bool,
    /// a truncated rollout is credited with the learned value's win shares (value.rs)
    /// instead of a win for the estimate's leader
    pub value: bool,
}

/// The statistics of one action from one information set: `n` visits, `w` summed reward
/// of the seat that chose it, `avail` times it was legal when its parent was visited.
#[derive(Clone, Debug)]
pub struct Node {
    pub action: Action,
    pub n: u32,
    pub w: f64,
    pub avail: u32,
    /// a root child's prior share (0 without priors or below the root): an action's prior
    /// does not change, so it is looked up once, when the node is added
    prior: f64,
    /// the children, in the order they were added
    children: Vec<u32>,
    /// the options of the node's visits by position, each with its child (NIL: none yet).
    /// A walk looks up every legal action at every node it passes, and a sample mostly
    /// offers the same options in the same order as the last one, so a lookup is mostly
    /// one comparison here instead of a scan of the children. Every entry stays true:
    /// adding a child updates the entries of its action.
    seen: Vec<(Action, u32)>,
}
/// The tree of one decision: nodes in an arena, the root at 0.
pub struct Tree {
    pub nodes: Vec<Node>,
    logs: Logs,
}

/// `ln(k)` for the visit counts a search meets, each worked out once by the same `ln`.
struct Logs(Vec<f64>);

impl Logs {
    #[inline]
    fn ln(&mut self, k: u32) -> f64 {
        let k = k as usize;
        if k >= self.0.len() {
            self.0.extend((self.0.len()..=k).map(|x| (x as f64).ln()));
        }
        self.0[k]
    }
}

impl Tree {
    fn new() -> Tree {
        Tree { nodes: vec![Tree::node(Action::new0(0), 0.0)], logs: Logs(Vec::new()) }
    }

    fn node(action: Action, prior: f64) -> Node {
        Node { action, n: 0, w: 0.0, avail: 1, prior, children: Vec::new(), seen: Vec::new() }
    }

    /// The child of `node` for `a`, if any, by a scan of its children.
    fn child(&self, node: u32, a: &Action) -> u32 {
        let nodes = &self.nodes;
        nodes[node as usize].children.iter().copied().find(|&c| nodes[c as usize].action == *a).unwrap_or(NIL)
    }

    /// The child of `node` for `a`, option `i` of this visit: from the last visits' option
    /// at `i` when it is `a`, else by a scan (and option `i` remembered).
    #[inline]
    fn child_at(&mut self, node: u32, i: usize, a: &Action) -> u32 {
        if let Some((b, c)) = self.nodes[node as usize].seen.get(i) {
            if b == a {
                return *c;
            }
        }
        let c = self.child(node, a);
        let seen = &mut self.nodes[node as usize].seen;
        if i < seen.len() {
            seen[i] = (*a, c);
        } else {
            // a visit fills its options in order, so a new position is the next one
            seen.push((*a, c));
        }
        c
    }

    /// Add the child `a` (prior `prior`) to `node`; its id.
    fn add(&mut self, node: u32, a: Action, prior: f64) -> u32 {
        let c = self.nodes.len() as u32;
        self.nodes.push(Tree::node(a, prior));
        let parent = &mut self.nodes[node as usize];
        if parent.children.capacity() == 0 {
            // room for every option of the visit at once, not grown one by one
            parent.children.reserve_exact(parent.seen.len());
        }
        parent.children.push(c);
        for (b, x) in parent.seen.iter_mut() {
            if *b == a {
                *x = c;
            }
        }
        c
    }

    /// The root's children: (action, visits), in the order they were added.
    pub fn root_children(&self) -> impl Iterator<Item = (Action, u32)> + '_ {
        self.nodes[0].children.iter().map(|&c| (self.nodes[c as usize].action, self.nodes[c as usize].n))
    }

    /// The most visited of `legal` (ties: the first in the legal order); its index.
    pub fn best_action(&self, legal: &[Action]) -> usize {
        let mut best = 0;
        let mut most: i64 = -1;
        for (i, a) in legal.iter().enumerate() {
            let c = self.child(0, a);
            if c != NIL && self.nodes[c as usize].n as i64 > most {
                most = self.nodes[c as usize].n as i64;
                best = i;
            }
        }
        best
    }

    /// Whether the most visited root action leads the runner-up by more than `left`.
    fn decided(&self, left: u32) -> bool {
        let (mut first, mut second) = (0u32, 0u32);
        for &c in &self.nodes[0].children {
            let n = self.nodes[c as usize].n;
            if n > first {
                second = first;
                first = n;
            } else if n > second {
                second = n;
            }
        }
        first - second > left
    }
}

/// Each seat's margin over its best opponent, squashed into [0, 1] (0.5: level).
fn margin_reward(points: &[f64], scale: f64) -> [f64; SEATS] {
    let n = points.len();
    let mut out = [0.0; SEATS];
    for p in 0..n {
        let mut rival = f64::NEG_INFINITY;
        let mut first = true;
        for q in 0..n {
            if q != p && (first || points[q] > rival) {
                rival = points[q];
                first = false;
            }
        }
        out[p] = 0.5 + 0.5 * ((points[p] - rival) / scale).tanh();
    }
    out
}

/// What each seat is credited with at a rollout's end: the win share, mixed (weight
/// `margin`) with the squashed score margin.
fn reward(d: &mut Game, margin: f64, value: bool) -> Result<[f64; SEATS], CoreError> {
    let n = d.n;
    if margin == 0.0 {
        return match (d.over, value) {
            (true, _) => Ok(shares(d)),
            (false, true) => value_shares(d),
            (false, false) => estimate_shares(d),
        };
    }
    let (win, pts) = if d.over {
        let mut pts = [0.0; SEATS];
        for p in 0..n {
            pts[p] = d.totals[p] as f64;
        }
        (shares(d), pts)
    } else if value {
        let f = features(d)?;
        let mut pts = [0.0; SEATS];
        for p in 0..n {
            pts[p] = f[p][0];
        }
        (shares_of(&f[..n], weights()), pts)
    } else {
        let sled = d.sled;
        let pts = estimate_points(d)?;
        (winner_shares(&pts[..n], &sled[..n]), pts)
    };
    let squash = margin_reward(&pts[..n], MARGIN_SCALE);
    let keep = 1.0 - margin;
    let mut out = [0.0; SEATS];
    for p in 0..n {
        out[p] = keep * win[p] + margin * squash[p];
    }
    Ok(out)
}

/// Each seat's share of the win of a finished game (shared wins split).
fn shares(d: &Game) -> [f64; SEATS] {
    let mut pts = [0.0; SEATS];
    for p in 0..d.n {
        pts[p] = d.totals[p] as f64;
    }
    winner_shares(&pts[..d.n], &d.sled[..d.n])
}

/// Play uniformly random legal actions until the game ends or `limit` decisions (a draw
/// at every decision, forced ones included); the draws come from the game's own stream.
/// A turn's options are drawn by index, not built (Game::lazy_turns).
fn random_rollout(d: &mut Game, rules: &Rules, mut limit: i64) -> Result<(), CoreError> {
    d.lazy_turns = true;
    if limit == NO_LIMIT {
        // the loop of most searches, without a count to keep
        while !d.over {
            random_step(d, rules)?;
        }
        return Ok(());
    }
    while !d.over && limit != 0 {
        random_step(d, rules)?;
        limit -= 1;
    }
    Ok(())
}

/// One decision of a random rollout, drawn from the game's own stream.
#[inline(always)]
fn random_step(d: &mut Game, rules: &Rules) -> Result<(), CoreError> {
    let x = d.rng_reshuffle.as_mut().expect("a sample's stream").random();
    d.apply_drawn_in(rules, x)
}

/// Every seat plays the greedy bot (default weights) until the game ends or `limit`
/// decisions (forced ones included, taken without asking the bot), drawing from the
/// game's own stream. The bot's contexts are
/// built at each seat's first real choice and dropped after the rollout.
fn greedy_rollout(d: &mut Game, rules: &Rules, bot: &mut Greedy, mut limit: i64) -> Result<(), CoreError> {
    bot.new_game();
    while !d.over && limit != 0 {
        let i = if d.options.len() == 1 {
            0
        } else {
            let mut rng = d.rng_reshuffle.take().expect("a sample's stream");
            let i = bot.choose(d, &mut rng);
            d.rng_reshuffle = Some(rng);
            i.map_err(CoreError::value)?
        };
        d.apply_index_in(rules, i)?;
        limit -= 1;
    }
    Ok(())
}

/// Run the search from `g` (seat `me` to move) with `rng` as its stream (it goes on as if
/// it had made the draws itself); the tree. `priors` (one share per option of `g`, at the
/// root): untried root actions are tried best first and each root action's value gets
/// `bias` x prior / (visits + 1).
pub fn search(g: &Game, me: usize, rng: &mut Stream, s: &Settings, priors: Option<&[f64]>) -> Result<Tree, CoreError> {
    let sampler = Sampler::new(g, me);
    let root_options = g.options.clone();
    let mut tree = Tree::new();
    let mut d = g.clone();
    d.rng_reshuffle = None;
    // every sample shares `g`'s rules: held once, not counted at each decision
    let rules = g.rules.clone();
    let mut stream = Some(Box::new(rng.clone()));
    let mut path: Vec<(u32, usize)> = Vec::with_capacity(64);
    let mut untried: Vec<usize> = Vec::with_capacity(64);
    let mut result = Ok(());
    let mut roller = s.greedy_rollout.then(|| Greedy::new(Weights::default()));
    for it in 0..s.iterations {
        sampler.deal_into(&mut d, stream.take().expect("the search's stream"));
        path.clear();
        let walked = walk(&mut tree, &mut d, &rules, s, priors, &root_options, &mut path, &mut untried);
        let walked = walked.and_then(|_| match (&mut roller, d.over) {
            (_, true) => Ok(()),
            (Some(bot), false) => greedy_rollout(&mut d, &rules, bot, s.depth),
            (None, false) => random_rollout(&mut d, &rules, s.depth),
        });
        let credit = walked.and_then(|_| reward(&mut d, s.margin, s.value));
        stream = d.rng_reshuffle.take();
        let credit = match credit {
            Ok(c) => c,
            Err(e) => {
                result = Err(e);
                break;
            }
        };
        for &(c, p) in &path {
            let node = &mut tree.nodes[c as usize];
            node.n += 1;
            node.w += credit[p];
        }
        if s.stop && it % 16 == 15 && tree.decided(s.iterations - it - 1) {
            break;
        }
    }
    *rng = *stream.expect("the search's stream");
    result.map(|_| tree)
}

/// One walk down the tree from the root of the sample `d`, adding one node; `path` gets
/// each node chosen with the seat that chose it. `untried`: scratch, the positions of the
/// options without a node. `rules`: the sample's own.
#[allow(clippy::too_many_arguments)]
fn walk(
    tree: &mut Tree,
    d: &mut Game,
    rules: &Rules,
    s: &Settings,
    priors: Option<&[f64]>,
    root_options: &[Action],
    path: &mut Vec<(u32, usize)>,
    untried: &mut Vec<usize>,
) -> Result<(), CoreError> {
    let mut node = 0u32;
    while !d.over {
        let k = d.options.len();
        if k == 1 {
            d.apply_index_in(rules, 0)?;
            continue;
        }
        let p = d.to_move as usize;
        let boost = if node == 0 { priors.is_some() } else { false };
        let mut best = NIL;
        let mut best_i = 0;
        let mut score = -1.0;
        untried.clear();
        let seen = &mut tree.nodes[node as usize].seen;
        if seen.capacity() == 0 {
            seen.reserve_exact(k);
        }
        for i in 0..k {
            let c = tree.child_at(node, i, &d.options[i]);
            if c == NIL {
                untried.push(i);
                continue;
            }
            let child = &mut tree.nodes[c as usize];
            child.avail += 1;
            // once an option has no node, the walk adds one: the values are not needed
            if untried.is_empty() {
                let n = child.n as f64;
                let mut value = child.w / n + s.exploration * (tree.logs.ln(child.avail) / n).sqrt();
                if boost {
                    value += s.bias * child.prior / (child.n + 1) as f64;
                }
                if value > score {
                    score = value;
                    best = c;
                    best_i = i;
                }
            }
        }
        if !untried.is_empty() {
            let i = match (node, priors) {
                (0, Some(b)) => best_prior(untried, b, root_options, &d.options),
                _ => {
                    // int(random() * len), as drawn by `random_index`
                    untried[d.rng_reshuffle.as_mut().expect("a sample's stream").random_index(untried.len())]
                }
            };
            let a = d.options[i];
            let prior = match (node, priors) {
                (0, Some(b)) => prior_of(b, root_options, i, &a),
                _ => 0.0,
            };
            let c = tree.add(node, a, prior);
            d.perform_in(rules, a)?;
            path.push((c, p));
            return Ok(());
        }
        d.apply_index_in(rules, best_i)?;
        path.push((best, p));
        node = best;
    }
    Ok(())
}

/// The prior of `a`, option `i` of a sample's root: its share at the real root (0 for an
/// action the real root does not offer). A sample's root offers the real root's options,
/// mostly in their order, so position `i` is tried first.
#[inline]
fn prior_of(priors: &[f64], root_options: &[Action], i: usize, a: &Action) -> f64 {
    if root_options.get(i) == Some(a) {
        return priors[i];
    }
    root_options.iter().position(|x| x == a).map_or(0.0, |j| priors[j])
}

/// The first of the `untried` options (their positions in `options`) with the highest
/// prior; its position.
fn best_prior(untried: &[usize], priors: &[f64], root_options: &[Action], options: &[Action]) -> usize {
    let mut best = untried[0];
    let mut top = prior_of(priors, root_options, best, &options[best]);
    for &u in untried {
        let v = prior_of(priors, root_options, u, &options[u]);
        if v > top {
            top = v;
            best = u;
        }
    }
    best
}
