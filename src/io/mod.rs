//! What the front ends and tools share for talking to the outside world: a position read
//! from the command line or a file ([`position`]), output lines that survive a closed
//! pipe, JSON ([`json`]), board diagrams ([`display`]) and the terminal ([`term`]).

pub mod display;
pub mod json;
pub mod position;
pub mod term;
