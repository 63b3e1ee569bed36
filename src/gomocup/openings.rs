//! The opening rules' requests: `SWAP2BOARD` (the Gomocup Swap2 protocol), Yixin-Board's
//! Swap2 steps (`YXSWAP2STEP1` to `3`) and Soosorv steps (`YXSOOSORVSTEP1` to `6`), and its
//! balanced-opening moves (`YXBALANCEONE`, `YXBALANCETWO`).
//!
//! Each request is here whole: the position it is asked about, checked before anything
//! changes; the job that decides (with the services of [`crate::analysis`]); and the
//! answer, which writes the lines the GUI reads and makes the game the position decided on.

use crate::analysis::{balance, soosorv, swap2};
use crate::core::board::Board;
use crate::core::time::Instant;
use crate::core::types::{format_score, Color, Pos, Score, MATE_BOUND};
use crate::engine::{Engine, StopToken};
use crate::gomocup::command::SOOSORV_NAMES;
use crate::gomocup::output::Reporter;
use crate::gomocup::reply;
use crate::gomocup::session::{Answer, Flow, Game, Job, Session};

impl Session {
    /// `SWAP2BOARD` with its 0, 3 or 5 stones (black first, colours alternating): the
    /// game becomes that position, and the engine answers with its Swap2 decision.
    pub(super) fn swap2_board(&mut self, stones: &[(i64, i64)], received: Instant) -> Flow {
        let board = match self.swap2_position(stones) {
            Ok(b) => b,
            Err(e) => return self.error(&format!("SWAP2BOARD: {e}; nothing changed")),
        };
        let limits = self.limits(received);
        if let Some(g) = self.game.as_mut() {
            *g = Game::new(board.clone());
        }
        let search = move |e: &mut Engine, _: &Reporter, stop: &StopToken| {
            let decided = swap2::decide(e, &board, &limits, stop);
            Answer::new(move |s| match decided {
                Ok(reply) => s.apply_swap2(reply),
                Err(e) => {
                    s.error(&format!("SWAP2BOARD: {e}"));
                }
            })
        };
        Flow::Think(Job::new(
            search,
            Answer::error("SWAP2BOARD: the search failed".into()),
        ))
    }

    /// The board a `SWAP2BOARD` block describes.
    fn swap2_position(&self, stones: &[(i64, i64)]) -> Result<Board, String> {
        let squares = self.squares_of(stones)?;
        if ![0, 3, 5].contains(&squares.len()) {
            return Err(format!(
                "{} stones given; swap2 needs 0, 3 or 5",
                squares.len()
            ));
        }
        let g = self.game.as_ref().ok_or("no game; send START first")?;
        let mut board = Board::new(g.board.width(), g.board.height(), self.rule)?;
        for (p, &(x, y)) in squares.iter().zip(stones) {
            if !board.is_empty(*p) {
                return Err(format!("{x},{y} is given twice"));
            }
            board.make(*p);
        }
        Ok(board)
    }

    /// Plays the stones a Swap2 decision put and answers it: the stones, `SWAP`, or our
    /// move after choosing white.
    fn apply_swap2(&mut self, reply: swap2::Reply) {
        let Some(g) = self.game.as_mut() else { return };
        let stones: Vec<Pos> = match reply {
            swap2::Reply::Opening(s) => s.to_vec(),
            swap2::Reply::Swap => Vec::new(),
            swap2::Reply::Stone(p) => vec![p],
            swap2::Reply::Two(a, b) => vec![a, b],
        };
        let mut check = g.board.clone();
        if !Session::legal_stones(&mut check, &stones) {
            self.error("SWAP2BOARD: the engine chose an illegal square");
            return;
        }
        g.board = check;
        g.me = match reply {
            swap2::Reply::Swap => Some(Color::Black),
            swap2::Reply::Stone(_) => Some(Color::White),
            _ => None,
        };
        self.reply(&reply.line());
    }

    /// Yixin-Board's Swap2 steps. Step 1 starts from an empty board (the GUI sends no
    /// position); steps 2 and 3 take the position of the last `YXBOARD`, which must hold
    /// 3 or 5 stones, in move order from black.
    pub(super) fn swap2_step(&mut self, step: u8, received: Instant) -> Flow {
        let name = format!("YXSWAP2STEP{step}");
        let Some(g) = self.game.as_ref() else {
            return self.error(&format!("{name}: no game; send START first"));
        };
        let (w, h) = (g.board.width(), g.board.height());
        let mut board = match Board::new(w, h, self.rule) {
            Ok(b) => b,
            Err(e) => return self.error(&format!("{name}: {e}")),
        };
        if step > 1 {
            let want = if step == 2 { 3 } else { 5 };
            let n = g.board.move_count();
            if n != want {
                return self.error(&format!(
                    "{name}: {n} stones on the board; this step needs {want} (send YXBOARD first)"
                ));
            }
            for m in g.board.history() {
                board.make(m.pos);
            }
        }
        let limits = if step == 1 {
            self.unwatched_limits(received)
        } else {
            self.limits(received)
        };
        let search = move |e: &mut Engine, _: &Reporter, stop: &StopToken| {
            let decided = swap2::decide(e, &board, &limits, stop);
            Answer::new(move |s| match decided {
                Ok(reply) => s.apply_swap2_step(step, board, reply),
                Err(e) => {
                    s.error(&format!("YXSWAP2STEP{step}: {e}"));
                }
            })
        };
        Flow::Think(Job::new(
            search,
            Answer::error(format!("YXSWAP2STEP{step}: the search failed")),
        ))
    }

    /// Answers a Yixin-Board Swap2 step with the lines it reads
    /// ([`reply::swap2_step_lines`]) and makes the game the position decided on
    /// (`board`, black first) with the stones put played and a colour taken ours.
    fn apply_swap2_step(&mut self, step: u8, board: Board, reply: swap2::Reply) {
        let Some(lines) = reply::swap2_step_lines(step, &reply) else {
            self.error(&format!("YXSWAP2STEP{step}: no answer for this position"));
            return;
        };
        let Some(g) = self.game.as_mut() else { return };
        let stones: Vec<Pos> = match reply {
            swap2::Reply::Opening(s) => s.to_vec(),
            swap2::Reply::Two(a, b) => vec![a, b],
            swap2::Reply::Swap | swap2::Reply::Stone(_) => Vec::new(),
        };
        let mut check = board;
        if !Session::legal_stones(&mut check, &stones) {
            self.error(&format!(
                "YXSWAP2STEP{step}: the engine chose an illegal square"
            ));
            return;
        }
        *g = Game::new(check);
        g.me = match reply {
            swap2::Reply::Swap => Some(Color::Black),
            // Step 2: we stay white and the GUI asks for the fourth stone; step 3: we
            // take white and the GUI asks for the sixth.
            swap2::Reply::Stone(_) => Some(Color::White),
            _ => None,
        };
        for l in lines {
            self.reply(&l);
        }
    }

    /// Yixin-Board's Soosorv steps: step 1 on an empty board, the others on the stones
    /// given (in move order, black first; for step 6 the first four, the rest being
    /// black's offered fifth moves), `n` fifth moves for steps 4 and 5.
    pub(super) fn soosorv(
        &mut self,
        step: u8,
        n: i64,
        stones: &[(i64, i64)],
        received: Instant,
    ) -> Flow {
        let name = SOOSORV_NAMES[usize::from(step - 1)];
        let squares = match self.squares_of(stones) {
            Ok(s) => s,
            Err(e) => return self.error(&format!("{name}: {e}; nothing changed")),
        };
        let Some(g) = self.game.as_ref() else {
            return self.error(&format!("{name}: no game; send START first"));
        };
        let n = if step == 4 || step == 5 {
            if !(1..=soosorv::MAX_FIFTHS as i64).contains(&n) {
                return self.error(&format!(
                    "{name}: {n} is not a number of fifth moves (1 to {})",
                    soosorv::MAX_FIFTHS
                ));
            }
            n as usize
        } else {
            0
        };
        let want = match step {
            1 => 0,
            2 | 3 => 3,
            _ => 4,
        };
        let enough = if step == 6 {
            squares.len() > want
        } else {
            squares.len() == want
        };
        if !enough {
            let need = if step == 6 {
                "4 and the offered fifth moves".to_string()
            } else {
                want.to_string()
            };
            return self.error(&format!(
                "{name}: {} stones given; this step needs {need}",
                squares.len()
            ));
        }
        let mut board = match Board::new(g.board.width(), g.board.height(), self.rule) {
            Ok(b) => b,
            Err(e) => return self.error(&format!("{name}: {e}")),
        };
        for (i, (&p, &(x, y))) in squares.iter().zip(stones).enumerate() {
            let taken = if i < want {
                !board.is_empty(p)
            } else {
                !board.is_empty(p) || squares[want..i].contains(&p)
            };
            if taken {
                return self.error(&format!("{name}: {x},{y} is given twice; nothing changed"));
            }
            if i < want {
                board.make(p);
            }
        }
        let offers = squares[want.min(squares.len())..].to_vec();
        let limits = self.unwatched_limits(received);
        let search = move |e: &mut Engine, _: &Reporter, stop: &StopToken| {
            let decided = soosorv::decide(e, step, &board, n, &offers, &limits, stop);
            Answer::new(move |s| match decided {
                Ok(reply) => s.apply_soosorv(step, board, reply),
                Err(e) => {
                    s.error(&format!("{name}: {e}"));
                }
            })
        };
        Flow::Think(Job::new(
            search,
            Answer::error(format!("{name}: the search failed")),
        ))
    }

    /// Answers a Soosorv step with the lines Yixin-Board reads
    /// ([`reply::soosorv_lines`]) and makes the game the position decided on with the
    /// stones the engine put (the opening, the fourth stone, the fifth move taken) and
    /// the colour it took. Offered fifth moves are not played: the other side picks one.
    fn apply_soosorv(&mut self, step: u8, board: Board, reply: soosorv::Reply) {
        let name = SOOSORV_NAMES[usize::from(step - 1)];
        let Some(lines) = reply::soosorv_lines(step, &reply) else {
            self.error(&format!("{name}: no answer for this position"));
            return;
        };
        let Some(g) = self.game.as_mut() else { return };
        let stones: Vec<Pos> = match &reply {
            soosorv::Reply::Opening(s) => s.to_vec(),
            soosorv::Reply::Fourth(p, _) | soosorv::Reply::Choose(p) => vec![*p],
            soosorv::Reply::Swap(_) | soosorv::Reply::Fifths(_) => Vec::new(),
        };
        let mut check = board;
        if !Session::legal_stones(&mut check, &stones) {
            self.error(&format!("{name}: the engine chose an illegal square"));
            return;
        }
        *g = Game::new(check);
        g.me = match reply {
            // Step 2 asks white, step 4 black, whether to swap.
            soosorv::Reply::Swap(swap) => {
                let asked = if step == 2 {
                    Color::White
                } else {
                    Color::Black
                };
                Some(if swap { asked.opp() } else { asked })
            }
            // The fourth stone is white's; the fifth move taken is black's, taken by white.
            soosorv::Reply::Fourth(..) | soosorv::Reply::Choose(_) => Some(Color::White),
            soosorv::Reply::Fifths(_) => Some(Color::Black),
            soosorv::Reply::Opening(_) => None,
        };
        for l in lines {
            self.reply(&l);
        }
    }

    /// `YXBALANCEONE` / `YXBALANCETWO` on the current position: the move (two moves)
    /// after which the position is closest to `bias` for the side to move now.
    pub(super) fn balance(&mut self, two: bool, bias: i64, received: Instant) -> Flow {
        let name = if two { "YXBALANCETWO" } else { "YXBALANCEONE" };
        let Some(g) = self.game.as_ref() else {
            return self.error(&format!("{name}: no game; send START first"));
        };
        if g.empty_squares() < if two { 2 } else { 1 } {
            return self.error(&format!("{name}: not enough empty squares left"));
        }
        let (board, limits, exclude) = self.our_turn(received);
        let search = move |e: &mut Engine, rep: &Reporter, stop: &StopToken| {
            let bias = bias.clamp(-i64::from(MATE_BOUND) + 1, i64::from(MATE_BOUND) - 1) as Score;
            match balance::balance(e, &board, two, bias, &exclude, &limits, stop) {
                Some(b) => {
                    rep.message(&format!(
                        "balance: {} leaves {} for the side to move (aim {bias}, depth {})",
                        reply::pv_text(&b.moves, &rep.names),
                        format_score(b.score),
                        b.depth
                    ));
                    Answer::new(move |s| s.apply_balance(&b.moves))
                }
                None => Answer::error("YXBALANCE: no legal move".into()),
            }
        };
        Flow::Think(Job::new(
            search,
            Answer::error("YXBALANCE: the search failed".into()),
        ))
    }

    /// Plays the balancing moves on the board (alternating from the side to move) and
    /// answers them: `x,y`, or `x,y x,y` for two.
    fn apply_balance(&mut self, moves: &[Pos]) {
        let Some(g) = self.game.as_mut() else { return };
        let mut check = g.board.clone();
        if !Session::legal_stones(&mut check, moves) {
            self.error("YXBALANCE: the engine chose an illegal square");
            return;
        }
        let mover = g.board.side_to_move();
        g.board = check;
        // One move: ours, as after any move of ours; two: one each, colours open.
        g.me = (moves.len() == 1).then_some(mover);
        let text = moves
            .iter()
            .map(|&p| reply::move_line(p))
            .collect::<Vec<_>>()
            .join(" ");
        self.reply(&text);
    }
}
