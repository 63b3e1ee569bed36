//! Runs the protocol: a reader thread turns input bytes into lines (invalid UTF-8
//! converted lossily, CR and LF both end a line, over-long lines cut) and sends them into
//! a channel; the main loop takes them one at a time, frames them into whole commands and
//! applies them to the [`Session`], runs the searches they ask for on the worker thread
//! ([`crate::gomocup::jobs`]), and, with `INFO pondering 1`, once nothing is waiting after
//! our move, lets the engine search on in the background ([`crate::gomocup::ponder`])
//! until the next line, which stops it before it is handled (a database query does not;
//! after an `INFO` setting it starts again once nothing is waiting). Every output line
//! goes through one [`Output`].

use crate::core::time::Instant;
use crate::engine::params::Params;
use crate::gomocup::jobs::Event;
use crate::gomocup::output::Output;
use crate::gomocup::session::{Flow, Session};
use anyhow::Result;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;

/// Input lines longer than this are cut (the rest of the line is dropped).
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// Reads input lines into the channel until the end of input.
fn read_lines<R: Read>(input: R, tx: &Sender<Event>) {
    let mut reader = BufReader::new(input);
    let mut line: Vec<u8> = Vec::new();
    let send = |line: &[u8]| -> bool {
        let text = String::from_utf8_lossy(line);
        text.split('\r').all(|part| {
            tx.send(Event::Line(part.to_string(), Instant::now()))
                .is_ok()
        })
    };
    loop {
        let (used, end) = match reader.fill_buf() {
            Ok([]) => break,
            Ok(buf) => {
                let (chunk, used, end) = match buf.iter().position(|&c| c == b'\n') {
                    Some(i) => (&buf[..i], i + 1, true),
                    None => (buf, buf.len(), false),
                };
                let room = MAX_LINE_BYTES.saturating_sub(line.len());
                line.extend_from_slice(&chunk[..chunk.len().min(room)]);
                (used, end)
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("cannot read input: {e}");
                break;
            }
        };
        reader.consume(used);
        if end {
            if !send(&line) {
                return;
            }
            line.clear();
        }
    }
    if !line.is_empty() {
        send(&line);
    }
    let _ = tx.send(Event::Eof);
}

/// Runs the protocol on `input` and `output` until `END`, the end of input, or a failed
/// write. Returns when the session is over (a search still running is abandoned).
pub fn run<R, W>(input: R, output: W) -> Result<()>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    run_with(input, output, Params::default())
}

/// [`run`] with search parameters other than the defaults from the start (`INFO` can
/// still change them).
fn run_with<R, W>(input: R, output: W, params: Params) -> Result<()>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let out = Arc::new(Output::new(Box::new(output)));
    let (tx, rx) = mpsc::channel::<Event>();
    {
        let tx = tx.clone();
        std::thread::Builder::new()
            .name("fivefold-input".into())
            .spawn(move || read_lines(input, &tx))?;
    }
    let mut session = Session::new(out.clone());
    session.engine().set_params(params);
    let mut queue: VecDeque<(String, Instant)> = VecDeque::new();
    let mut eof = false;
    // Our move was made and since then only queries and settings came: ponder whenever
    // nothing is waiting (a setting stops it; it starts again after).
    let mut ponder_planned = false;
    loop {
        if out.is_broken() {
            log::info!("output closed; exiting");
            return Ok(());
        }
        let (line, received) = match queue.pop_front() {
            Some(item) => item,
            None if eof => return Ok(()),
            None => {
                // Nothing waiting: pondering runs now if our move asked for it (a
                // no-op when it runs already).
                if ponder_planned {
                    session.start_pondering();
                }
                match rx.recv() {
                    Ok(Event::Line(line, at)) => (line, at),
                    Ok(Event::Eof) | Err(_) => {
                        eof = true;
                        continue;
                    }
                    // Only a running job sends answers, and run_job receives them.
                    Ok(Event::Done(_)) => continue,
                }
            }
        };
        let framed = session.frame(&line);
        // Any line stops pondering first: the engine is then free, and the line's time
        // has run from its arrival (`received`), not from the stop. Only a database
        // query, which Yixin-Board sends after every move, lets it go on.
        if !framed.keeps_pondering() {
            session.stop_pondering();
        }
        // Lines that leave a planned pondering planned: queries and settings (Yixin-Board
        // sends `INFO time_left` and a database query while we think, so they wait in
        // the queue when our move is made).
        let harmless = framed.only_settings();
        match session.handle(framed, received) {
            Flow::Continue => {}
            Flow::Quit => return Ok(()),
            Flow::Think(job) => {
                let our_move = job.our_move;
                if let Flow::Quit = session.run_job(job, &rx, &tx, &mut queue, &mut eof) {
                    return Ok(());
                }
                // Think on while the opponent does, once the lines that came meanwhile
                // are handled.
                ponder_planned = our_move;
                continue;
            }
        }
        if !harmless {
            ponder_planned = false;
        }
    }
}

/// Runs the protocol on standard input and output.
pub fn run_stdio() -> Result<()> {
    run(std::io::stdin(), std::io::stdout())
}

/// [`run_stdio`] with search parameters other than the defaults.
pub fn run_stdio_with(params: Params) -> Result<()> {
    run_with(std::io::stdin(), std::io::stdout(), params)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::{Color, Pos};
    use crate::engine::time;
    use crate::gomocup::session::Answer;
    use crate::gomocup::settings::MAX_TIME_MS;
    use std::sync::Mutex;
    use std::time::Duration;

    /// Output collected in memory.
    #[derive(Clone, Default)]
    struct Collect(Arc<Mutex<Vec<u8>>>);

    impl Write for Collect {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_stop_read_before_the_search_starts_is_not_lost() {
        // No time limit to speak of, and the stop comes in the same read as the command
        // that starts the search: it is taken while the worker thread is still starting.
        // The input then ends, and the session waits for the answer, which only the stop
        // can bring. (The session used to repeat its stop every 5 ms for this.)
        for (threads, stop) in [(1, "YXSTOP"), (2, "STOP"), (3, "YXSTOP"), (1, "STOP")] {
            let script = format!(
                "START 15\nINFO timeout_turn {MAX_TIME_MS}\nINFO timeout_match {MAX_TIME_MS}\n\
                 INFO hash_size 1024\nINFO thread_num {threads}\n\
                 BOARD\n7,7,1\n8,8,2\n8,6,1\nDONE\n{stop}\n"
            );
            let out = Collect::default();
            let (tx, rx) = mpsc::channel();
            {
                let out = out.clone();
                std::thread::spawn(move || {
                    let _ = tx.send(run(std::io::Cursor::new(script.into_bytes()), out).is_ok());
                });
            }
            let ok = rx
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("{threads} threads, {stop}: the stop was lost"));
            assert!(ok);
            let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
            let last = text.lines().last().unwrap_or_default();
            let (x, y) = last.split_once(',').expect("a move last");
            let mv = (x.parse::<usize>().unwrap(), y.parse::<usize>().unwrap());
            assert!(![(7, 7), (8, 8), (8, 6)].contains(&mv), "{text}");
        }
    }

    /// A session writing into a buffer, after `lines`, each of which must need no answer
    /// from a search.
    fn session_after(lines: &[&str]) -> (Session, Collect) {
        let out = Collect::default();
        let mut s = Session::new(Arc::new(Output::new(Box::new(out.clone()))));
        let now = Instant::now();
        for l in lines {
            assert!(matches!(s.handle_line(l, now), Flow::Continue), "{l}");
        }
        (s, out)
    }

    #[test]
    fn what_the_manager_charges_beyond_the_thinking_is_learnt_from_time_left() {
        // A manager whose clock falls by 400 ms for each move the engine answers at once,
        // and one that sends no time_left.
        for reports in [true, false] {
            let (mut s, _) = session_after(&[
                "START 15",
                "INFO timeout_turn 5000",
                "INFO timeout_match 60000",
            ]);
            let now = Instant::now();
            let first = s.limits(Instant::now()).budget.expect("a clock").soft;
            let mut left = 60_000;
            for i in 0..6 {
                if reports {
                    let l = format!("INFO time_left {left}");
                    assert!(matches!(s.handle_line(&l, now), Flow::Continue));
                }
                let turn = format!("TURN {},0", 2 * i);
                assert!(matches!(
                    s.handle_line(&turn, Instant::now()),
                    Flow::Think(_)
                ));
                s.finish(true, Answer::play(Pos::new(2 * i, 14)), Instant::now());
                left -= 400;
            }
            if reports {
                let l = format!("INFO time_left {left}");
                assert!(matches!(s.handle_line(&l, now), Flow::Continue));
                assert!(
                    s.clock.overhead.per_move_ms() > 300,
                    "{:?}",
                    s.clock.overhead
                );
                // Kept back for every move that may still come: the target for a move
                // falls from the whole turn to a share of what is left after that.
                let later = s.limits(Instant::now()).budget.expect("a clock").soft;
                assert!(later < first / 2, "{first:?} -> {later:?}");
            } else {
                assert_eq!(s.clock.overhead.per_move_ms(), time::least_overhead_ms());
            }
        }
    }

    #[test]
    fn pondering_runs_only_when_asked_and_takes_no_clock_time() {
        for on in [false, true] {
            let (mut s, out) = session_after(&[
                "START 15",
                "INFO hash_size 256",
                "INFO thread_num 1",
                "INFO timeout_match 100000",
            ]);
            let now = Instant::now();
            let pondering = if on {
                "INFO pondering 1"
            } else {
                "INFO pondering 0"
            };
            assert!(matches!(s.handle_line(pondering, now), Flow::Continue));
            assert!(matches!(s.handle_line("TURN 7,7", now), Flow::Think(_)));
            s.finish(true, Answer::play(Pos::new(8, 8)), Instant::now());
            let spent = s.clock.spent_ms;
            let usage = s.engine().hash_usage();
            // Ponder for a while, several times over if the machine is slow to fill the
            // table (the engine is locked while pondering, so it is looked at between).
            let mut after = usage;
            for round in 1..=10u64 {
                s.start_pondering();
                assert_eq!(s.pondering.is_some(), on);
                std::thread::sleep(Duration::from_millis(200 * round));
                let t = Instant::now();
                s.stop_pondering();
                assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
                assert!(s.pondering.is_none());
                after = s.engine().hash_usage();
                if after > usage || (!on && round == 2) {
                    break;
                }
            }
            // The table filled only while pondering; the clock saw none of it.
            if on {
                assert!(after > usage, "{usage} -> {after}");
            } else {
                assert_eq!(after, usage);
            }
            assert_eq!(s.clock.spent_ms, spent);
            // Only our move was written.
            let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
            assert_eq!(text, "OK\n8,8\n");
            // Never while it is our turn.
            assert!(matches!(s.handle_line("TURN 9,9", now), Flow::Think(_)));
            s.start_pondering();
            assert!(s.pondering.is_none());
        }
    }

    #[test]
    fn a_database_query_leaves_pondering_running() {
        let (mut s, out) = session_after(&["START 15", "INFO hash_size 256", "INFO pondering 1"]);
        let now = Instant::now();
        assert!(matches!(s.handle_line("TURN 7,7", now), Flow::Think(_)));
        s.finish(true, Answer::play(Pos::new(6, 7)), Instant::now());
        s.start_pondering();
        assert!(s.pondering.is_some());
        // What Yixin-Board sends right after our move while "Use Database" is on (no
        // database open here: it is answered as empty), handled as the input loop does.
        for l in [
            "yxquerydatabaseallt",
            "7,7",
            "6,7",
            "done",
            "YXQUERYDATABASEONE",
            "done",
        ] {
            let framed = s.frame(l);
            assert!(framed.keeps_pondering(), "{l}");
            assert!(matches!(s.handle(framed, now), Flow::Continue), "{l}");
            assert!(s.pondering.is_some(), "{l}");
        }
        // Anything else stops it: an edit of the database, a setting, the opponent's move.
        for l in [
            "yxedittextdatabase",
            "yxsetbestmovedatabase",
            "INFO time_left 5000",
            "yxboard",
            "TURN 8,9",
        ] {
            assert!(!s.framer.clone().push(l).keeps_pondering(), "{l}");
        }
        s.stop_pondering();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert!(
            text.contains(
                "MESSAGE DATABASE REFRESH\nMESSAGE DATABASE TEXT \"\"\nMESSAGE DATABASE DONE\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn session_without_io() {
        let out = Arc::new(Output::new(Box::new(std::io::sink())));
        let mut s = Session::new(out);
        let now = Instant::now();
        assert!(matches!(s.handle_line("START 15", now), Flow::Continue));
        assert!(matches!(s.handle_line("TURN 7,7", now), Flow::Think(j) if j.our_move && j.timed));
        let g = s.game.as_ref().unwrap();
        assert_eq!(g.me, Some(Color::White));
        assert_eq!(g.board.stone(Pos::new(7, 7)), Some(Color::Black));
        // Bad input leaves the game alone.
        for l in [
            "TURN 7,7",
            "TURN 15,0",
            "TURN x",
            "TAKEBACK 1,1",
            "PLAY -1,2",
        ] {
            assert!(matches!(s.handle_line(l, now), Flow::Continue), "{l}");
            assert_eq!(s.game.as_ref().unwrap().board.move_count(), 1, "{l}");
        }
        assert!(matches!(s.handle_line("END", now), Flow::Quit));
    }
}
