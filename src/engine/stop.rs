//! Stopping searches from another thread: a [`StopToken`] per piece of work.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A request to stop a piece of work: one search, or a job of several searches (the
/// lines of a multi-line analysis, the candidates of a Swap2 decision). The caller makes
/// one, hands it to [`crate::engine::Engine::think`] (or to the functions that call it)
/// and keeps a clone to raise from any thread; the searches read it every few hundred
/// nodes.
///
/// Once raised, a token stays raised: no search clears it. So a stop raised before a
/// search has started (while the worker thread is still being spawned, or between two
/// searches of one job) stops that search at its first check, and a job that runs several
/// searches is stopped by one raise. New work takes a new token.
///
/// A [`StopToken::child`] is raised with its parent but can also be raised alone: the
/// engine gives one to its helper threads, so that it can stop them when the main thread
/// is done without raising the caller's token.
#[derive(Clone, Debug, Default)]
pub struct StopToken {
    flag: Arc<AtomicBool>,
    /// The token this one follows, if any.
    parent: Option<Arc<StopToken>>,
}

impl StopToken {
    /// A token not raised yet.
    pub fn new() -> StopToken {
        StopToken::default()
    }

    /// Asks every search reading this token (or one of its children) to stop. Never
    /// undone.
    pub fn raise(&self) {
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Whether this token or one of its parents was raised. In a browser, also whether
    /// the page has asked the running search to stop (`core::host`): the page
    /// cannot reach a token in the worker, which is busy searching.
    #[inline]
    pub fn is_raised(&self) -> bool {
        // Relaxed is enough: nothing else is published through the flag, and a store is
        // seen by every later load of the same atomic once it is visible at all.
        let raised = self.flag.load(Ordering::Relaxed)
            || self.parent.as_ref().is_some_and(|p| p.is_raised());
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        let raised = raised || crate::core::host::stop_requested();
        raised
    }

    /// A new token that is raised when this one is, and can also be raised alone
    /// (without raising this one).
    pub fn child(&self) -> StopToken {
        StopToken {
            flag: Arc::new(AtomicBool::new(false)),
            parent: Some(Arc::new(self.clone())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raised_token_stays_raised_and_reaches_its_children() {
        let t = StopToken::new();
        let same = t.clone();
        let child = t.child();
        let grandchild = child.child();
        assert!(!t.is_raised() && !child.is_raised());
        // A child raised alone leaves its parent alone.
        child.raise();
        assert!(child.is_raised() && grandchild.is_raised() && !t.is_raised());
        let other = t.child();
        assert!(!other.is_raised());
        same.raise();
        assert!(t.is_raised() && other.is_raised());
        assert!(
            t.child().is_raised(),
            "a child of a raised token starts raised"
        );
    }
}
