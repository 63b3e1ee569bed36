//! How a search evaluates positions, and the choice of that for each search.
//!
//! A searcher scores positions and orders moves with the [`Evaluation`] it is handed: the
//! classical evaluation ([`crate::core::eval`]), or a network's [`Evaluator`], whose
//! policy orders the moves and which also scores the positions where `use_net` is 1 (with
//! 2 the classical evaluation scores them and the network only orders the moves). The
//! searcher does not choose it: before each search the [`Engine`](crate::engine::Engine)
//! (or whoever runs a `Searcher` of its own) hands it the evaluation that
//! [`Networks::choose`] picks for the board's rule and size ([`Params::net_mode`]).
//!
//! The networks' weights are read once and shared by every thread ([`Arc`]); an
//! evaluator is one thread's own, since it changes as that thread's search moves (it
//! keeps every square's sums up to date and a cache of scores). A thread's evaluation
//! therefore goes on with the evaluator it had wherever the same network is chosen
//! again, and keeps it, unused, through the searches that evaluate classically.

use crate::core::board::Board;
use crate::core::eval;
use crate::core::types::Score;
use crate::engine::params::Params;
use crate::nn::{Evaluator, Net};
use std::sync::Arc;

/// What a search uses the network of its [`Evaluation`] for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Use {
    /// Nothing: the classical evaluation scores the positions and no policy orders the
    /// moves.
    #[default]
    Classical,
    /// The network scores the positions and its policy orders the moves (`use_net` 1).
    ScoresAndOrders,
    /// The classical evaluation scores the positions; the network's policy orders the
    /// moves (`use_net` 2).
    OrdersOnly,
}

/// How one search thread evaluates: the classical evaluation or a network, and the
/// evaluator of the network it was last given. Made by [`Networks::choose`]; the default
/// is the classical evaluation, with no evaluator.
#[derive(Default)]
pub struct Evaluation {
    use_net: Use,
    /// The evaluator of the network chosen last (always there while a network is in
    /// use), kept while the classical evaluation is in use so that the same network
    /// chosen again goes on with it.
    evaluator: Option<Evaluator>,
}

impl Evaluation {
    /// The classical evaluation, with no network.
    pub fn classical() -> Evaluation {
        Evaluation::default()
    }

    /// Whether the search evaluates with a network (to order the moves, and perhaps to
    /// score the positions).
    pub fn uses_net(&self) -> bool {
        self.use_net != Use::Classical
    }

    /// The network's evaluator, where the search uses a network; `None` with the
    /// classical evaluation (whatever evaluator it keeps for later).
    #[inline]
    pub fn network(&mut self) -> Option<&mut Evaluator> {
        match self.use_net {
            Use::Classical => None,
            Use::ScoresAndOrders | Use::OrdersOnly => self.evaluator.as_mut(),
        }
    }

    /// The static score of `b` for the side to move: the network's where it scores the
    /// positions, else the classical evaluation's.
    #[inline]
    pub fn score(&mut self, b: &Board) -> Score {
        if self.use_net == Use::ScoresAndOrders {
            if let Some(e) = self.evaluator.as_mut() {
                return e.score(b);
            }
        }
        eval::evaluate(b)
    }
}

/// The networks searches may evaluate with, and the choice among them for each search
/// ([`Networks::choose`]). An engine keeps one for all its search threads.
#[derive(Clone, Debug, Default)]
pub struct Networks {
    /// One per rule at most (one of a rule may be kept for one board size); `None`: the
    /// built-in ones ([`crate::nn::net::available`]), not read until a search wants one.
    nets: Option<Vec<Arc<Net>>>,
}

impl Networks {
    /// The built-in networks (and the one [`crate::nn::net::NET_FILE_VAR`] names), read
    /// the first time a search wants one, so that a classical search never holds them in
    /// memory.
    pub fn built_in() -> Networks {
        Networks { nets: None }
    }

    /// These networks in place of the built-in ones.
    pub fn new(nets: Vec<Arc<Net>>) -> Networks {
        Networks { nets: Some(nets) }
    }

    /// The evaluation for a search of `b` under `params`: the network for its rule and
    /// size ([`crate::nn::net::pick`]) where [`Params::use_net`] is on for them
    /// ([`Params::net_mode`]) and there is one, else the classical evaluation. `previous`
    /// is what the same thread evaluated with last: its evaluator goes on where the same
    /// network is chosen, and is kept, unused, where the classical evaluation is; another
    /// network gets an evaluator of its own.
    pub fn choose(&mut self, params: &Params, b: &Board, previous: Evaluation) -> Evaluation {
        let mut evaluation = Evaluation {
            use_net: Use::Classical,
            evaluator: previous.evaluator,
        };
        let mode = params.net_mode(b.rule(), b.width(), b.height());
        if mode == 0 {
            return evaluation;
        }
        let nets = self
            .nets
            .get_or_insert_with(|| crate::nn::net::available().to_vec());
        let Some(net) = crate::nn::net::pick(nets, b.rule(), b.width(), b.height()) else {
            return evaluation;
        };
        if evaluation
            .evaluator
            .as_ref()
            .is_none_or(|e| !Arc::ptr_eq(e.net(), net))
        {
            evaluation.evaluator = Some(Evaluator::new(net.clone()));
        }
        evaluation.use_net = if mode == 1 {
            Use::ScoresAndOrders
        } else {
            Use::OrdersOnly
        };
        evaluation
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::{Pos, Rule};
    use crate::nn::eval::tests::random_net;

    fn board(rule: Rule) -> Board {
        let mut b = Board::square(15, rule).unwrap();
        for (x, y) in [(7, 7), (8, 8), (7, 8)] {
            b.make(Pos::new(x, y));
        }
        b
    }

    fn params(spec: &str) -> Params {
        let mut p = Params::default();
        p.apply(spec).unwrap();
        p
    }

    #[test]
    fn use_net_says_what_the_network_does() {
        let mut nets = Networks::new(vec![Arc::new(random_net(Rule::Freestyle, 5))]);
        let b = board(Rule::Freestyle);
        let classical = eval::evaluate(&b);
        let mut e = nets.choose(&params("use_net=0"), &b, Evaluation::classical());
        assert!(!e.uses_net() && e.network().is_none());
        assert_eq!(e.score(&b), classical);
        // Ordering only: the classical evaluation still scores.
        let mut e = nets.choose(&params("use_net=2"), &b, e);
        assert!(e.uses_net() && e.network().is_some());
        assert_eq!(e.score(&b), classical);
        let mut e = nets.choose(&params("use_net=1"), &b, e);
        let net_score = Evaluator::new(e.network().unwrap().net().clone()).score(&b);
        assert_eq!(e.score(&b), net_score);
        // No network for caro: the classical evaluation.
        let c = board(Rule::Caro);
        let e = nets.choose(&params("use_net=1"), &c, e);
        assert!(!e.uses_net());
    }

    #[test]
    fn a_thread_goes_on_with_its_evaluator_while_its_network_stays() {
        let freestyle = Arc::new(random_net(Rule::Freestyle, 5));
        let renju = Arc::new(random_net(Rule::Renju, 6));
        let mut nets = Networks::new(vec![freestyle.clone(), renju.clone()]);
        let (f, r) = (board(Rule::Freestyle), board(Rule::Renju));
        let on = params("use_net=1");
        let mut e = nets.choose(&on, &f, Evaluation::classical());
        e.score(&f);
        let restarts = e.network().unwrap().restarts();
        assert!(restarts > 0);
        // The same network again, also after a classical search: the same evaluator,
        // which has counted its restarts.
        let e = nets.choose(&on, &f, e);
        let e = nets.choose(&params("use_net=0"), &f, e);
        let mut e = nets.choose(&on, &f, e);
        assert!(Arc::ptr_eq(e.network().unwrap().net(), &freestyle));
        assert_eq!(e.network().unwrap().restarts(), restarts);
        // Another network: a new evaluator.
        let mut e = nets.choose(&on, &r, e);
        assert!(Arc::ptr_eq(e.network().unwrap().net(), &renju));
        assert_eq!(e.network().unwrap().restarts(), 0);
    }
}
