//! The search's tunable parameters in one place: the [`Params`] struct every search thread
//! reads, and the table [`PARAMS`] that lists each one's name, default and range.
//!
//! A parameter's name is its field name, everywhere: in `selfplay` player specs and
//! `puzzles --params` (`rfp_margin=80,razor_depth=3`, see [`Params::apply`]) and in the
//! protocol (`INFO rfp_margin 80`, which c-gomoku-cli sends for
//! `-engine ... option.rfp_margin=80`), so a setting can be A/B tested without a
//! rebuild. The defaults are what the engine plays with; the matches that chose them are
//! in the experiment log (docs/strength.md).
//!
//! Scores are in the static evaluation's units (see [`crate::core::eval`]; a five is
//! worth [`crate::core::types::MATE`] = 30 000). Depths are in plies of nominal depth
//! (the depth left to search at a node). A margin of 0 or a depth of 0 switches the
//! feature off where its description says so.

/// One row of [`PARAMS`]: a tunable parameter's name (its field name), its default and
/// the range a setting is held to, and how to read and write it.
#[derive(Clone, Copy)]
pub struct Param {
    pub name: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
    get: fn(&Params) -> i64,
    set: fn(&mut Params, i64),
}

impl Param {
    /// The parameter's value in `p`.
    pub fn get(&self, p: &Params) -> i64 {
        (self.get)(p)
    }
}

impl std::fmt::Debug for Param {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} = {} ({}..={})",
            self.name, self.default, self.min, self.max
        )
    }
}

/// Declares the struct and the table from one list, so a field and its row cannot
/// disagree: `name: type = default, min..=max;`, each with its doc comment.
macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ty = $default:literal, $min:literal..=$max:literal;)*) => {
        /// Search settings (see the module documentation). Every search thread has a
        /// copy; [`crate::engine::Engine::set_params`] sets them for all.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Params {
            $($(#[doc = $doc])* pub $name: $ty,)*
        }

        impl Default for Params {
            fn default() -> Params {
                Params { $($name: $default,)* }
            }
        }

        /// Every tunable parameter: name, default and range (the one table both
        /// [`Params::apply`] and the protocol's `INFO` use).
        pub const PARAMS: &[Param] = &[$(Param {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            get: |p| p.$name as i64,
            set: |p, v| p.$name = v as $ty,
        },)*];
    };
}

search_params! {
    /// Move-count pruning: in non-PV quiet nodes of depth 1 to `move_count_depth`, the
    /// node stops after this many moves times the depth (0 = off). Moves per ply of depth.
    move_count: usize = 4, 0..=64;
    /// Deepest depth where move-count pruning applies (plies; 0 = off).
    move_count_depth: i32 = 2, 0..=16;
    /// Root VCT budget with a clock: solver nodes per millisecond of the hard time limit,
    /// held to 2 000 .. 2 000 000 nodes (the solver does about 1 000 nodes a
    /// millisecond, so 100 is about a tenth of the time). Without a clock the budget
    /// follows the search's node or depth limit instead.
    vct_share: u64 = 100, 0..=1000;
    /// Reverse futility pruning: a non-PV node of depth 1 to `rfp_depth`, where the
    /// opponent has no double three, four-three or better to make, returns its static
    /// score if that beats beta by this much per ply of depth (evaluation units per ply;
    /// 0 = off).
    rfp_margin: i32 = 60, 0..=1000;
    /// Deepest depth where reverse futility pruning applies (plies).
    rfp_depth: i32 = 6, 0..=32;
    /// Singular extension: from this depth on, a table move whose entry is a lower bound
    /// or exact, from a search at most three plies shallower, is searched one ply deeper
    /// when the node without it, searched at half the depth with a null window, stays
    /// below the entry's score minus `se_margin` x depth; if that search reaches beta as
    /// well, the node returns at once (multi-cut). Extensions stop at twice the
    /// iteration's depth in plies. Plies; 0 = off.
    se_depth: i32 = 6, 0..=64;
    /// Margin of the singular extension (evaluation units per ply of depth).
    se_margin: i32 = 2, 0..=100;
    /// Fail-high reduction: in an expected cut node whose static score (where forward
    /// pruning may use it, see `rfp_margin`) beats beta by this much per ply of depth,
    /// plus 90 if the opponent can make a four, every move but a four is searched one ply
    /// shallower (evaluation units per ply; 0 = off).
    fh_margin: i32 = 15, 0..=1000;
    /// Extra late-move reduction in expected cut nodes for moves that are not killers
    /// (quiet killers that make no open three keep the plain reduction). Plies.
    cut_reduction: i32 = 1, 0..=8;
    /// Stale table move in PV nodes: a PV node whose table entry (with a move) comes from a
    /// shallower search is searched this many hundredths of a ply shallower per ply of the
    /// difference, rounded, at most three plies and never below depth 1 (0 = off).
    pv_stale: i32 = 28, 0..=300;
    /// Internal iterative reduction: a node from this depth on with no table move is
    /// searched one ply shallower (plies; 0 = off).
    iir_depth: i32 = 4, 0..=64;
    /// Razoring: a non-PV node of depth 1 to `razor_depth`, where neither side has a
    /// double three, four-three or better to make and the opponent has no four to make,
    /// returns its static score if that is this much per ply of depth below alpha
    /// (evaluation units per ply; 0 = off).
    razor_margin: i32 = 45, 0..=1000;
    /// Deepest depth where razoring applies (plies).
    razor_depth: i32 = 4, 0..=32;
    /// The learned network ([`crate::nn`]) where there is one for the rule: -1 (the
    /// default) as 1 where the network has won its match against the classical search
    /// ([`crate::nn::net::DEFAULT_ON`]: freestyle, exact five and renju on 15x15,
    /// freestyle on 20x20) and as 0 elsewhere; 0 off (the classical evaluation and move
    /// ordering everywhere), 1 its evaluation and its policy (see `policy_weight`), 2 its
    /// policy only, the classical evaluation scoring the positions.
    use_net: i32 = -1, -1..=2;
    /// With the network on, what a policy logit adds to a move's ordering score in quiet
    /// nodes and nodes that answer an open three (ordering units per logit, measured
    /// from the node's best logit; 0 = the policy is not used).
    policy_weight: i32 = 400, 0..=10000;
    /// Policy pruning: with the network's policy, a quiet move in a non-PV node of depth 1
    /// to `policy_prune_depth`, once a move that does not lose has been searched, is
    /// skipped if the policy puts it this far below the node's favourite (tenths of a
    /// logit; 0 = off).
    policy_prune: i32 = 0, 0..=1000;
    /// Deepest depth where policy pruning applies (plies).
    policy_prune_depth: i32 = 3, 0..=32;
    /// Policy reduction: with the network's policy, a late quiet move this far below the
    /// node's favourite is reduced one ply more (tenths of a logit; 0 = off).
    policy_reduce: i32 = 0, 0..=1000;
}

/// The row of `name` in [`PARAMS`].
pub fn find(name: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|p| p.name == name)
}

impl Params {
    /// The default parameters with the network off everywhere (`use_net` 0): the
    /// classical search, whatever the rule and size.
    pub fn classical() -> Params {
        Params {
            use_net: 0,
            ..Params::default()
        }
    }

    /// What [`Params::use_net`] means for a board of `rule` and this size: 0 (the
    /// classical search), 1 (the network's value and policy) or 2 (its policy only).
    /// Whether a network plays the rule is for
    /// [`crate::engine::evaluation::Networks::choose`] to find.
    pub fn net_mode(&self, rule: crate::core::types::Rule, width: usize, height: usize) -> i32 {
        match self.use_net {
            -1 => i32::from(crate::nn::net::on_by_default(rule, width, height)),
            m => m,
        }
    }

    /// Sets parameter `name` to `value` held to its range; returns the value set, or an
    /// error for a name that is not a parameter.
    pub fn set(&mut self, name: &str, value: i64) -> Result<i64, String> {
        let p = find(name).ok_or_else(|| format!("unknown search parameter '{name}'"))?;
        let v = value.clamp(p.min, p.max);
        (p.set)(self, v);
        Ok(v)
    }

    /// The value of parameter `name`, if there is one of that name.
    pub fn get(&self, name: &str) -> Option<i64> {
        find(name).map(|p| p.get(self))
    }

    /// Applies `name=value` settings separated by commas (`rfp_margin=80,razor_depth=3`),
    /// as `selfplay` player specs and `puzzles --params` give them. An unknown name, a
    /// value that is not a number or one outside the parameter's range is an error
    /// (a tuning run should not silently run another setting); the settings before it
    /// stay applied.
    pub fn apply(&mut self, spec: &str) -> Result<(), String> {
        for kv in spec.split(',').filter(|s| !s.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("'{kv}' is not name=value"))?;
            let n: i64 = v.parse().map_err(|_| format!("'{v}' is not a number"))?;
            let p = find(k).ok_or_else(|| format!("unknown search parameter '{k}'"))?;
            if !(p.min..=p.max).contains(&n) {
                return Err(format!(
                    "{k}={n} is outside its range {}..={}",
                    p.min, p.max
                ));
            }
            self.set(k, n)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_matches_the_defaults_and_every_name_is_a_field() {
        let d = Params::default();
        let mut names: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
        for p in PARAMS {
            assert_eq!(p.get(&d), p.default, "{}", p.name);
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(
                p.name.bytes().all(|c| c.is_ascii_lowercase() || c == b'_'),
                "{}",
                p.name
            );
            // Each row writes its own field: setting one changes no other.
            let mut q = d.clone();
            let other = if p.default == p.max { p.min } else { p.max };
            assert_eq!(q.set(p.name, other), Ok(other));
            for r in PARAMS {
                let want = if r.name == p.name { other } else { r.default };
                assert_eq!(r.get(&q), want, "setting {} moved {}", p.name, r.name);
            }
        }
        names.sort();
        names.dedup();
        assert_eq!(names.len(), PARAMS.len(), "a name twice");
        // The Debug output names every field: none is missing from the table.
        let fields = format!("{d:?}").matches(": ").count();
        assert_eq!(fields, PARAMS.len());
    }

    #[test]
    fn set_holds_a_value_to_its_range_and_apply_refuses_it() {
        let mut p = Params::default();
        assert_eq!(p.set("rfp_margin", 5_000), Ok(1000));
        assert_eq!(p.rfp_margin, 1000);
        assert_eq!(p.set("rfp_margin", -3), Ok(0));
        assert_eq!(p.get("rfp_margin"), Some(0));
        assert!(p.set("rfp", 10).is_err());
        assert_eq!(p.get("rfp"), None);

        let mut p = Params::default();
        p.apply("rfp_margin=80,razor_depth=3").unwrap();
        assert_eq!((p.rfp_margin, p.razor_depth), (80, 3));
        assert!(p.apply("rfp_margin=1001").is_err());
        assert!(p.apply("nmp=4").is_err());
        assert!(p.apply("rfp_margin=x").is_err());
        assert!(p.apply("rfp_margin").is_err());
        assert_eq!(p.rfp_margin, 80);
        p.apply("").unwrap();
    }
}
