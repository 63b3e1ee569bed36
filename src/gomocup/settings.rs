//! What `INFO key value` sets, as typed values ([`Setting::parse`]), and where the
//! session keeps them: the search's settings ([`Settings`]), the GUI in front and how it
//! names squares ([`Gui`]). The session applies them (`Session::set`, in
//! [`crate::gomocup::dispatch`]) to these, the clock, the rule, the position database's
//! switches and the search's parameters.
//!
//! A setting is checked completely before anything changes: a value that does not parse
//! or is out of range is an `ERROR` line (written before the next other command's reply),
//! and the session is as it was.

use crate::analysis::strength;
use crate::core::types::Rule;
use crate::engine::memory::MemoryLimit;
use crate::engine::memory::MAX_THREADS;
use crate::engine::params;
use crate::engine::search::MAX_DEPTH;
use crate::gomocup::command::{clean, parse_pair};

/// Longest time accepted from `INFO timeout_turn`, `timeout_match` and `time_left` (about
/// 35 years; larger values mean the same and would overflow the time arithmetic).
pub const MAX_TIME_MS: u64 = 1 << 40;

/// What one `INFO` line sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `timeout_turn` (ms).
    TurnTime(u64),
    /// `timeout_match` (ms).
    MatchTime(u64),
    /// `time_left` (ms).
    TimeLeft(u64),
    /// `max_memory` or `hash_size`: what the engine may use; `text` is the line's own
    /// `INFO key value`, for a message that the engine uses less.
    Memory { limit: MemoryLimit, text: String },
    /// `thread_num`, at most [`MAX_THREADS`].
    Threads(usize),
    /// `rule`.
    Rule(Rule),
    /// `max_node` (`None`: no limit).
    MaxNodes(Option<u64>),
    /// `max_depth` (`None`: no limit), at most [`MAX_DEPTH`].
    MaxDepth(Option<i32>),
    /// `show_detail`: what the GUI wants to see of the thinking.
    ShowDetail(u64),
    /// `square_names`.
    SquareNames(SquareNames),
    /// `vcthread`: a setting of Yixin-Board's own engine, which only it sends.
    VcThread,
    /// `pondering`.
    Pondering(bool),
    /// `strength`, 0 to 100 ([`strength::FULL`] is full strength).
    Strength(u8),
    /// `usedatabase`: play stored moves and store results.
    UseDatabase(bool),
    /// `database_readonly`: store nothing.
    DatabaseReadonly(bool),
    /// A search parameter by its name ([`crate::engine::params`]) and its range, with the
    /// value sent (held to the range when set).
    Param {
        name: &'static str,
        min: i64,
        max: i64,
        value: i64,
    },
    /// A key with no meaning for this engine (`game_type`, `folder`, `evaluate`,
    /// Yixin-Board's settings for its own engine, or a key nobody defined), checked
    /// where it has a form and otherwise ignored.
    Ignored,
}

/// `INFO square_names`: how the squares the GUI sends are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareNames {
    /// `0`: `x` is the column.
    Plain,
    /// `1`: transposed, `x` is the row (as Yixin-Board means them).
    Transposed,
    /// `2` (the default): transposed once the GUI has shown itself to be Yixin-Board.
    Auto,
}

impl Setting {
    /// The setting of `INFO key value` (`key` in lower case), or the `ERROR` text
    /// (without `ERROR `) when the value does not fit the key.
    pub fn parse(key: &str, value: &str) -> Result<Setting, String> {
        let number = || -> Result<i128, String> {
            value
                .trim()
                .parse::<i128>()
                .map_err(|_| format!("INFO {key}: '{}' is not a number", clean(value)))
        };
        let non_negative = || -> Result<u64, String> {
            let n = number()?;
            if n < 0 {
                return Err(format!("INFO {key}: {n} is negative"));
            }
            Ok(u64::try_from(n).unwrap_or(u64::MAX))
        };
        let text = || format!("INFO {key} {}", value.trim());
        Ok(match key {
            "timeout_turn" => Setting::TurnTime(non_negative()?.min(MAX_TIME_MS)),
            "timeout_match" => Setting::MatchTime(non_negative()?.min(MAX_TIME_MS)),
            "time_left" => Setting::TimeLeft(non_negative()?.min(MAX_TIME_MS)),
            "max_memory" => Setting::Memory {
                limit: MemoryLimit::Total(non_negative()?),
                text: text(),
            },
            "hash_size" => Setting::Memory {
                limit: MemoryLimit::Table(non_negative()?.saturating_mul(1024)),
                text: text(),
            },
            "game_type" => {
                let v = number()?;
                // 0 human opponent, 1 brain, 2 tournament, 3 network tournament: the
                // engine plays the same way against all of them.
                if !(0..=3).contains(&v) {
                    return Err(format!("INFO game_type: {v} is not 0, 1, 2 or 3"));
                }
                Setting::Ignored
            }
            "rule" => {
                let v = number()?;
                let rule = i64::try_from(v).ok().and_then(Rule::from_info).ok_or_else(|| {
                    format!("INFO rule: {v} is not a rule (a bit mask: 1 exact five, 2 continuous game, 4 renju, 8 caro; renju and caro together are impossible; 2 alone is renju)")
                })?;
                Setting::Rule(rule)
            }
            // A folder for persistent files: the engine keeps none.
            "folder" => {
                log::debug!("INFO folder {value}");
                Setting::Ignored
            }
            "thread_num" => {
                let v = number()?;
                if v < 1 {
                    return Err(format!(
                        "INFO thread_num: {v} is not a number of threads (1 or more)"
                    ));
                }
                Setting::Threads(v.min(MAX_THREADS as i128) as usize)
            }
            "evaluate" => {
                parse_pair(value).map_err(|e| format!("INFO evaluate: {e}"))?;
                Setting::Ignored
            }
            "max_node" => {
                let v = number()?;
                Setting::MaxNodes((v > 0 && v < u64::MAX as i128).then_some(v as u64))
            }
            "max_depth" => {
                let v = number()?;
                Setting::MaxDepth((v > 0).then_some(v.min(MAX_DEPTH as i128) as i32))
            }
            "show_detail" => {
                let v = number()?;
                if v < 0 {
                    return Err(format!("INFO show_detail: {v} is negative"));
                }
                Setting::ShowDetail(u64::try_from(v).unwrap_or(u64::MAX))
            }
            "square_names" => Setting::SquareNames(match number()? {
                0 => SquareNames::Plain,
                1 => SquareNames::Transposed,
                2 => SquareNames::Auto,
                v => {
                    return Err(format!(
                        "INFO square_names: {v} is not 0 (x is the column), 1 (transposed, as Yixin-Board means them) or 2 (transposed under Yixin-Board)"
                    ))
                }
            }),
            "vcthread" => Setting::VcThread,
            "pondering" => Setting::Pondering(number()? != 0),
            "strength" => {
                let v = number()?;
                if !(0..=100).contains(&v) {
                    return Err(format!(
                        "INFO strength: {v} is not a strength (0 to 100; 100 is full strength)"
                    ));
                }
                Setting::Strength(v as u8)
            }
            // Yixin-Board's "Use Database" and "Database Readonly" menu items.
            "usedatabase" => Setting::UseDatabase(number()? != 0),
            "database_readonly" => Setting::DatabaseReadonly(number()? != 0),
            // Yixin-Board settings with no meaning for this engine. `caution_factor` (its
            // style slider, 0 rash to 5 cautious) is how far from the stones Rapfi's move
            // generator looks; Fivefold's takes that from the threats on the board and
            // has no such setting.
            "time_increment" | "caution_factor" | "nbestsym" | "nbest_sym" | "checkmate"
            | "thread_split_depth" | "start_depth" => {
                log::debug!("INFO {key} ignored");
                Setting::Ignored
            }
            // The search's tunable parameters, by their names (see engine::params); any
            // other key is ignored.
            _ => match params::find(key) {
                Some(param) => {
                    let v = number()?;
                    let v = i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX });
                    Setting::Param {
                        name: param.name,
                        min: param.min,
                        max: param.max,
                        value: v,
                    }
                }
                None => {
                    log::info!("unknown INFO key '{key}' ignored");
                    Setting::Ignored
                }
            },
        })
    }
}

/// What `INFO` set for the searches.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `INFO max_depth`.
    pub max_depth: Option<i32>,
    /// `INFO max_node`.
    pub max_nodes: Option<u64>,
    /// `INFO max_memory` or `INFO hash_size`, whichever came last: the engine plans its
    /// table and threads under it ([`crate::engine::Engine::configure`]).
    pub memory: MemoryLimit,
    /// Search threads asked for (`INFO thread_num`, else every core); fewer run when
    /// `INFO max_memory` has no room for them (see [`crate::engine::memory::MemoryPlan`]).
    pub threads: usize,
    /// `INFO pondering` (default off): search on after our move until the next line.
    pub ponder: bool,
    /// `INFO strength`, 0 to 100 (the default: full strength, the normal search).
    pub strength: u8,
    /// Seeds the random choices of play below full strength.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            max_depth: None,
            max_nodes: None,
            memory: MemoryLimit::Default,
            // Every core unless the manager says otherwise (INFO thread_num).
            threads: crate::engine::default_threads(),
            ponder: false,
            strength: strength::FULL,
            seed: crate::core::time::seed(),
        }
    }
}

impl Settings {
    /// The seed of the next move below full strength.
    pub fn next_seed(&mut self) -> u64 {
        self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        self.seed
    }
}

/// The GUI in front, as far as the engine can tell, and what it wants to see.
#[derive(Clone, Debug)]
pub struct Gui {
    /// `INFO show_detail`: messages for GUIs that display the engine's thinking (not 0),
    /// Yixin-Board's realtime markers (bit 1) and its per-line `INFO` blocks (bit 2).
    pub show_detail: u64,
    /// `INFO square_names`.
    pub square_names: SquareNames,
    /// The GUI sent `YXSHOWINFO` (Yixin-Board does at start-up, and so do other tools
    /// that want Rapfi's GUI messages).
    pub showinfo: bool,
    /// The GUI sent `INFO vcthread`, a setting of Yixin-Board's (for the Yixin engine),
    /// which it sends at start-up (`init_engine`) and other tools do not.
    pub vcthread: bool,
    /// The last `START` gave two sizes (`START w h`), as Yixin-Board 2 always does.
    pub start_pair: bool,
}

impl Default for Gui {
    fn default() -> Gui {
        Gui {
            show_detail: 0,
            square_names: SquareNames::Auto,
            showinfo: false,
            vcthread: false,
            start_pair: false,
        }
    }
}

impl Gui {
    /// Whether squares are Yixin-Board's `row,column` (its own `y,x`): the engine's `x`
    /// is then the GUI's row, and a board of `w` columns and `h` rows is `h` wide in the
    /// engine's `x` and `w` tall in its `y`.
    pub fn transposed(&self) -> bool {
        match self.square_names {
            SquareNames::Plain => false,
            SquareNames::Transposed => true,
            SquareNames::Auto => self.is_yixin_board(),
        }
    }

    /// Whether the GUI has shown itself to be Yixin-Board (`YXSHOWINFO` and `INFO
    /// vcthread`).
    fn is_yixin_board(&self) -> bool {
        self.showinfo && self.vcthread
    }

    /// Whether the GUI is Yixin-Board 2 (accreator/Yixin-Board 2.x): Yixin-Board, whose
    /// `START` lines carry two sizes. Its `init_engine` and every `send_board` send
    /// `START w h` / `start w h`, even for a square board; Yixin-Board 3 sends `START n`.
    /// It cannot read the database loading and saving markers (`MESSAGE DATABASE LOAD
    /// …`, `SAVE …`): it takes them for a square's record and crashes.
    pub fn yixin_board_2(&self) -> bool {
        self.is_yixin_board() && self.start_pair
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_read_into_their_types() {
        assert_eq!(
            Setting::parse("timeout_turn", " 5000 "),
            Ok(Setting::TurnTime(5000))
        );
        assert_eq!(
            Setting::parse("time_left", "99999999999999999999999"),
            Ok(Setting::TimeLeft(MAX_TIME_MS))
        );
        assert_eq!(
            Setting::parse("hash_size", "1024"),
            Ok(Setting::Memory {
                limit: MemoryLimit::Table(1 << 20),
                text: "INFO hash_size 1024".into()
            })
        );
        assert_eq!(Setting::parse("rule", "4"), Ok(Setting::Rule(Rule::Renju)));
        assert_eq!(
            Setting::parse("thread_num", "100000"),
            Ok(Setting::Threads(MAX_THREADS))
        );
        assert_eq!(Setting::parse("max_node", "0"), Ok(Setting::MaxNodes(None)));
        assert_eq!(
            Setting::parse("max_depth", "999"),
            Ok(Setting::MaxDepth(Some(MAX_DEPTH)))
        );
        assert_eq!(
            Setting::parse("square_names", "1"),
            Ok(Setting::SquareNames(SquareNames::Transposed))
        );
        assert_eq!(Setting::parse("evaluate", "7,7"), Ok(Setting::Ignored));
        assert_eq!(Setting::parse("no_such_key", "x"), Ok(Setting::Ignored));
        assert!(matches!(
            Setting::parse("use_net", "2"),
            Ok(Setting::Param {
                name: "use_net",
                value: 2,
                ..
            })
        ));
    }

    #[test]
    fn a_value_that_does_not_fit_says_why() {
        for (key, value, says) in [
            ("timeout_turn", "-1", "INFO timeout_turn: -1 is negative"),
            (
                "timeout_match",
                "soon",
                "INFO timeout_match: 'soon' is not a number",
            ),
            ("game_type", "4", "INFO game_type: 4 is not 0, 1, 2 or 3"),
            ("rule", "12", "INFO rule: 12 is not a rule"),
            (
                "thread_num",
                "0",
                "INFO thread_num: 0 is not a number of threads",
            ),
            ("evaluate", "7", "INFO evaluate: "),
            ("square_names", "3", "INFO square_names: 3 is not 0"),
            ("strength", "101", "INFO strength: 101 is not a strength"),
            ("use_net", "x", "INFO use_net: 'x' is not a number"),
        ] {
            let e = Setting::parse(key, value).expect_err(key);
            assert!(e.starts_with(says), "{key} {value}: {e}");
        }
    }
}
