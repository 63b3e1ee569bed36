//! The Gomocup (Piskvork) protocol and Yixin-Board's extensions to it: what managers and
//! GUIs talk to.
//!
//! [`protocol`] turns lines into commands and answers into lines; [`session`] holds the
//! game, the clock and the settings and drives the engine; [`ponder`] is the search on
//! the opponent's time, [`hashfile`] the table dump and load, [`dbfile`] the position
//! database's file commands and [`features`] Yixin's *print features* report.

pub mod dbfile;
pub mod features;
pub mod hashfile;
pub mod ponder;
pub mod protocol;
pub mod session;
