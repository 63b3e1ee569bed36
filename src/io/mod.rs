//! What the front ends and tools share for talking to the outside world: the command
//! line's shared options and value checks ([`args`]), a position read from the command
//! line or a file ([`position`]), output lines that survive a closed pipe ([`output`]),
//! JSON ([`json`]), board diagrams ([`display`]), the terminal ([`term`]) and the process's
//! address-space limit ([`process`]).

pub mod args;
pub mod display;
pub mod json;
pub mod output;
pub mod position;
pub mod process;
pub mod term;
