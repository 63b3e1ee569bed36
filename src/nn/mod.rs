//! The learned evaluation and move policy (issue #42).
//!
//! A small network in the style of the lookup-table networks strong Gomoku engines use:
//! every empty square gets a vector from five table rows (its four lines as the board's
//! line keys see them, four squares each way, and its threat classes: [`features`]),
//! clipped; the vectors summed over the board feed a small head that gives the value
//! (win, draw, loss) and a policy vector whose dot product with each square's vector is
//! that square's policy logit ([`net`]). The [`eval`] module keeps the vectors up to date
//! as the search moves and reads the value and policy.
//!
//! `fivefold-tools train` (`tools::train`) fits the weights to `datagen`'s
//! positions; the weights the engine plays with are built into the binary
//! ([`net::available`]: the built-in networks and `FIVEFOLD_NET`). The search uses them by
//! default where they won their match against the classical search
//! ([`net::DEFAULT_ON`]), and wherever the search parameter `use_net` says; rules
//! without a network (caro) use the classical evaluation.

pub mod eval;
pub mod features;
pub mod net;
pub mod simd;

pub use eval::Evaluator;
pub use net::Net;
