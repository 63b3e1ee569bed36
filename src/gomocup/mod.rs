//! The Gomocup (Piskvork) protocol and Yixin-Board's extensions to it: what managers and
//! GUIs talk to.
//!
//! - [`command`]: what a line says, and the framing that makes whole commands of lines
//!   (a block of squares until `DONE`, a path on the next line, a quoted text);
//! - [`settings`]: `INFO` as typed values, and what the session keeps of them;
//! - [`reply`]: the replies and messages as text; [`output`]: where lines go, and the
//!   search's progress as messages;
//! - [`session`]: the session's state (the game, the clock, the settings, the GUI, the
//!   blocked squares, the database) and what the commands share, a search's job and answer
//!   among it;
//! - [`dispatch`]: each whole command to what carries it out; the game's commands and
//!   `INFO`;
//! - [`clock`]: the move clock the searches' time comes from;
//! - [`jobs`]: the worker thread a search runs on;
//! - [`run`]: the reader thread and the main loop;
//! - [`requests`] and [`openings`]: Yixin-Board's requests (best lines, defences, draw,
//!   resign, features) and the opening rules' steps (Swap2, Soosorv, balance);
//! - [`avoid`]: the squares and paths our answers avoid (`YXBLOCK`, `YXBLOCKPATH`,
//!   `YXFORBID`);
//! - [`database`] and [`dbfile`]: the position database's commands and its file commands;
//! - [`ponder`]: the search on the opponent's time; [`hashfile`]: the table dump and
//!   load; [`features`]: the *print features* report.
//!
//! `docs/architecture.md` follows one `TURN` from the line read to the move written.

pub mod avoid;
pub mod clock;
pub mod command;
#[cfg(feature = "sqlite")]
pub mod database;
#[cfg(feature = "sqlite")]
pub mod dbfile;
pub mod dispatch;
pub mod features;
pub mod hashfile;
pub mod here;
pub mod jobs;
#[cfg(not(feature = "sqlite"))]
mod nodatabase;
pub mod openings;
pub mod output;
pub mod ponder;
pub mod reply;
pub mod requests;
pub mod run;
pub mod session;
pub mod settings;
