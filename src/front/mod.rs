//! The front ends: what managers and people talk to. The Gomocup protocol ([`protocol`]
//! parses and formats lines, [`session`] holds the game and drives the engine, [`swap2`]
//! answers the Swap2 steps, [`soosorv`] Yixin-Board's Soosorv steps, [`balance`] and
//! [`defend`] its balance and search-defend commands, [`features`] its *print features*, [`hashfile`] its table dump and
//! load, [`ponder`] the search on the opponent's time, [`strength`] weaker play,
//! [`database`] its position database, [`dbfile`] its file commands and [`renlib`]
//! RenLib's `.lib` files),
//! the terminal game ([`play`]), position analysis
//! ([`analyse`]) and the threat-space solver ([`solve`]).

pub mod analyse;
pub mod balance;
pub mod database;
pub mod dbfile;
pub mod defend;
pub mod features;
pub mod hashfile;
pub mod play;
pub mod ponder;
pub mod protocol;
pub mod renlib;
pub mod session;
pub mod solve;
pub mod soosorv;
pub mod strength;
pub mod swap2;
