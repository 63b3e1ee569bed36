//! The position database, Yixin-Board's opening book: positions with a label, a text and
//! a stored result, kept in one SQLite file ([`store`]); moving them in and out of it and walking it as a
//! tree ([`transfer`]: RenLib `.lib` files, text, merging and splitting databases); and
//! RenLib's file format itself ([`renlib`]). The Yixin-Board commands that drive these
//! are the Gomocup session's (`gomocup::dbfile`).
//!
//! Nothing here searches: the book stores what it is told, and the Gomocup session
//! decides when a stored result answers a move.

pub mod renlib;
#[cfg(feature = "sqlite")]
pub mod store;
#[cfg(feature = "sqlite")]
pub mod transfer;
