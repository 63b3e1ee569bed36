//! Yixin-Board's requests about the position beyond the game's own moves: the best lines
//! (`YXNBEST`), the defences against the opponent's threat (`YXSEARCHDEFEND`), and the
//! command box's `YXDRAW` (the person offers a draw), `YXRESIGN` (the person resigns) and
//! `YXPRINTFEATURE` (the evaluation's view of the position).
//!
//! Each request is here whole: what it checks, the job that searches (with the services
//! of [`crate::analysis`]), the messages it writes and what it answers.

use crate::analysis::{defend, multipv};
use crate::core::rules;
use crate::core::time::Instant;
use crate::core::types::{format_score, Pos, Score};
use crate::engine::time;
use crate::engine::{Engine, StopToken};
use crate::gomocup::features;
use crate::gomocup::output::{lines_reported, Reporter};
use crate::gomocup::reply;
use crate::gomocup::session::{Answer, Flow, Job, Session};
use std::time::Duration;

/// Most lines `YXNBEST` reports.
pub const MAX_NBEST: i64 = 64;
/// `YXDRAW`: the engine accepts a draw when its search gives its own side at most this
/// score (evaluation units; 50 is a win chance of about 56% on the curve of
/// [`reply::win_rate`]), and declines it when its side stands better than that.
pub const DRAW_MARGIN: Score = 50;
/// `YXDRAW`: the longest the decision's search takes (less under a short turn limit:
/// a quarter of the move's time).
const DRAW_SEARCH_MS: u64 = 1000;

impl Session {
    /// `YXNBEST n`: the `n` best moves as messages, then the best as our move.
    pub(super) fn nbest(&mut self, n: i64, received: Instant) -> Flow {
        if n < 1 {
            return self.error(&format!(
                "YXNBEST: {n} is not a number of moves (1 or more)"
            ));
        }
        let Some(g) = self.game.as_mut() else {
            return self.error("YXNBEST: no game; send START first");
        };
        if g.empty_squares() == 0 {
            return self.error("YXNBEST: no empty square left to play");
        }
        let (board, limits, exclude) = self.our_turn(received);
        let n = n.min(MAX_NBEST) as usize;
        let search = move |e: &mut Engine, rep: &Reporter, stop: &StopToken| {
            let want = multipv::Want {
                n,
                exclude: &exclude,
                widen: false,
            };
            let lines = lines_reported(e, &board, &want, &limits, stop, rep);
            Answer::play(lines.lines.first().map_or(Pos::NONE, |l| l.mv))
        };
        Flow::Think(Job::new(search, Answer::play(Pos::NONE)).our_move())
    }

    /// `YXSEARCHDEFEND`: finds the opponent's threat and the moves that stop it (a third
    /// of the time), says so in messages, searches those moves side by side (the rest of
    /// the time) and answers with the best of them as our move ([`defend::search`]).
    pub(super) fn search_defend(&mut self, received: Instant) -> Flow {
        let Some(g) = self.game.as_ref() else {
            return self.error("YXSEARCHDEFEND: no game; send START first");
        };
        if g.empty_squares() == 0 {
            return self.error("YXSEARCHDEFEND: no empty square left to play");
        }
        let (board, limits, exclude) = self.our_turn(received);
        let search = move |e: &mut Engine, rep: &Reporter, stop: &StopToken| {
            let mut found = |d: &defend::Defences, moves: &[Pos]| {
                rep.message(&defences_message(d, moves, &rep.names))
            };
            let mut report = |l: &multipv::Lines| rep.lines(&l.lines, l.nodes, l.elapsed);
            let most = MAX_NBEST as usize;
            let p = defend::search(
                e,
                &board,
                &limits,
                &exclude,
                most,
                stop,
                &mut found,
                &mut report,
            );
            Answer::play(p)
        };
        Flow::Think(Job::new(search, Answer::play(Pos::NONE)).our_move())
    }

    /// `YXDRAW`: the person offers a draw. With no move left to play (a full board, or
    /// only renju fouls for the side to move) the engine accepts at once; on a board with
    /// a five the game is over and nothing is decided; otherwise a short search of the
    /// position as it stands decides ([`DRAW_MARGIN`]): a quarter of the move's time, at
    /// most [`DRAW_SEARCH_MS`], stopped by `STOP`/`YXSTOP` like any search. Nothing in
    /// the game changes, and the time is not counted against the engine's clock.
    pub(super) fn draw(&mut self, received: Instant) -> Flow {
        let Some(g) = self.game.as_ref() else {
            return self.error("YXDRAW: no game; send START first");
        };
        match rules::game_end(&g.board) {
            Some(rules::GameEnd::Five(c, _)) => {
                self.reply(&format!(
                    "MESSAGE draw: the game is over ({} has five); nothing to decide",
                    c.name()
                ));
                return Flow::Continue;
            }
            Some(_) => {
                self.reply("MESSAGE draw: accepted (no move is left to play)");
                return Flow::Continue;
            }
            None if g.empty_squares() == 0 => {
                self.reply("MESSAGE draw: accepted (no move is left to play)");
                return Flow::Continue;
            }
            None => {}
        }
        let me = g.my_color();
        let board = g.board.clone();
        let mut limits = self.limits(received);
        let cap = Duration::from_millis(DRAW_SEARCH_MS);
        limits.budget = limits.budget.map(|b| {
            let t = (b.hard / 4).min(cap);
            time::Budget { soft: t, hard: t }
        });
        let search = move |e: &mut Engine, _: &Reporter, stop: &StopToken| {
            let r = e.think(&board, &limits, stop, &mut |_| {});
            let ours = if board.side_to_move() == me {
                r.score
            } else {
                -r.score
            };
            Answer::say(format!("MESSAGE {}", draw_answer(ours, r.depth)))
        };
        let failed = Answer::say("MESSAGE draw: declined (the search failed)".into());
        Flow::Think(Job::new(search, failed).untimed())
    }

    /// `YXRESIGN`: the person resigns; the engine's side wins. The message names the
    /// winner; pondering stops (the line has already stopped it, and nothing starts it
    /// again before the next move of ours); the board is kept, so the person may take
    /// moves back or go on. The position database records no games' results (only
    /// searched moves and a person's edits), so nothing is written there either.
    pub(super) fn resign(&mut self) -> Flow {
        self.stop_pondering();
        let Some(g) = self.game.as_ref() else {
            return self.error("YXRESIGN: no game; send START first");
        };
        let me = g.my_color();
        self.reply(&format!(
            "MESSAGE resign: {} resigns, {} ({}) wins",
            me.opp().name(),
            me.name(),
            reply::ABOUT.name
        ));
        Flow::Continue
    }

    /// `YXPRINTFEATURE`: the evaluation's view of the position ([`features::lines`]).
    pub(super) fn print_features(&mut self) -> Flow {
        let Some(g) = self.game.as_ref() else {
            return self.error("YXPRINTFEATURE: no game; send START first");
        };
        let lines = features::lines(&g.board, &g.walls, &self.names(), self.engine().params());
        for l in lines {
            self.reply(&l);
        }
        Flow::Continue
    }
}

/// What `YXSEARCHDEFEND` found, as its message says it: the opponent's threat and the
/// defences, or that no move stops it and every move is searched.
fn defences_message(d: &defend::Defences, moves: &[Pos], names: &reply::Names) -> String {
    let line = |v: &[Pos]| reply::pv_text(v, names);
    let threat = match &d.threat {
        defend::Threat::Vcf(l) => format!("the opponent has a VCF: {}", line(l)),
        defend::Threat::Vct(l) => format!("the opponent has a VCT: {}", line(l)),
        defend::Threat::None => "no forced win found for the opponent".to_string(),
    };
    if d.moves.is_empty() {
        return format!("defend: {threat}; no move stops it, every move searched");
    }
    let what = if d.threat == defend::Threat::None {
        "moves"
    } else {
        "defences"
    };
    format!("defend: {threat}; {} {what}: {}", moves.len(), line(moves))
}

/// The answer to `YXDRAW` for the engine's score `ours` from a search to `depth`:
/// accepted unless the engine's side stands better than [`DRAW_MARGIN`].
fn draw_answer(ours: Score, depth: i32) -> String {
    let verdict = if ours <= DRAW_MARGIN {
        "accepted"
    } else {
        "declined"
    };
    format!(
        "draw: {verdict} (score {} for the engine, depth {depth})",
        format_score(ours)
    )
}
