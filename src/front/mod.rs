//! The front ends: what managers and people talk to. The Gomocup protocol ([`protocol`]
//! parses and formats lines, [`session`] holds the game and drives the engine, [`swap2`]
//! answers the Swap2 steps, [`soosorv`] Yixin-Board's Soosorv steps, [`balance`] and
//! [`defend`] its balance and search-defend commands, [`database`] its position database and [`dbfile`] its file commands, [`renlib`] RenLib's `.lib` files),
//! the terminal game ([`play`]), position analysis
//! ([`analyse`]) and the threat-space solver ([`solve`]).

pub mod analyse;
pub mod balance;
pub mod database;
pub mod dbfile;
pub mod defend;
pub mod play;
pub mod protocol;
pub mod renlib;
pub mod session;
pub mod solve;
pub mod soosorv;
pub mod swap2;
