//! Services over the [`Engine`](crate::engine::Engine) that answer questions a search
//! alone does not: several best lines side by side ([`multipv`]), the Swap2 opening steps
//! ([`swap2`]), Yixin-Board's Soosorv steps ([`soosorv`]), balanced openings
//! ([`balance`]), the defence against a threat sequence ([`defend`]) and weaker play on
//! purpose ([`strength`]).
//!
//! They take boards and limits and return values; none of them reads or writes text,
//! so the Gomocup session, the command line and the tools all use them the same way.

pub mod balance;
pub mod defend;
pub mod multipv;
pub mod soosorv;
pub mod strength;
pub mod swap2;
