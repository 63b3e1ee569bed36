//! The bench signature, pinned: the one-thread fixed-depth bench is the engine's
//! functional fingerprint (see CONTRIBUTING.md). A commit that changes what the search
//! does changes these two numbers, updates them here, and ends its message with
//! `Bench: N`; a commit that only moves code leaves them alone.

use fivefold::cli::bench;

const NODES: &str = "Nodes: 242562";
const SIGNATURE: &str = "Signature: 46f1c97a7cb25650";

#[test]
fn the_bench_signature_is_pinned() {
    let lines = bench::run_search(bench::BENCH_DEPTH);
    let find = |prefix: &str| {
        lines
            .iter()
            .find(|l| l.starts_with(prefix))
            .cloned()
            .unwrap_or_else(|| panic!("no '{prefix}' line in the bench output: {lines:?}"))
    };
    assert_eq!(find("Nodes: "), NODES, "the search's tree changed");
    assert_eq!(
        find("Signature: "),
        SIGNATURE,
        "the search's results changed"
    );
}
