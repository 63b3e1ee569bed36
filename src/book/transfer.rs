//! Moving positions in and out of the database, and walking it as a tree: a snapshot of
//! the stored rows and the moves between them ([`Snapshot`]), RenLib `.lib` files
//! ([`Database::import_lib`], [`Database::export_lib`]), tab-separated text
//! ([`Database::to_text`], [`Database::from_text`]), move lists
//! ([`Database::to_positions`]), copying between database files
//! ([`Database::merge_from`], [`Database::split_into`]), deleting what follows a
//! position ([`Database::delete_after`]) and repairing a file ([`Database::fix`]).
//!
//! Every write is one transaction: a bad file changes nothing.

use crate::book::store::{board_symmetries, map, parse_key, put_label, Database, Key};
use crate::core::board::Board;
use crate::core::types::{mate_plies, Color, Pos, Score};
use anyhow::{bail, Context, Result};
use rusqlite::params;

/// One stored position, as read for a walk through the tree or a copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub best: Option<i64>,
    pub by_user: bool,
    pub score: Option<i64>,
    pub depth: i64,
    pub bound: i64,
    pub tag: i64,
    pub text: String,
}

/// Every position and label of one rule and board size (or of all), in memory, for the
/// commands that walk the tree of positions (export, delete after a position).
pub struct Snapshot {
    pub rows: std::collections::BTreeMap<String, Row>,
    /// Key -> (square in the key's frame, label).
    pub labels: std::collections::BTreeMap<String, Vec<(i64, String)>>,
    /// Key of a position -> the squares (in its key's frame) of the moves from it to a
    /// stored position: every stored position less one stone of the side that moved last.
    children: std::collections::HashMap<String, Vec<i64>>,
}

/// For each symmetry of a `w`x`h` board, where each square (`y*w+x`) goes.
fn permutations(w: usize, h: usize) -> Vec<Vec<usize>> {
    board_symmetries(w, h)
        .into_iter()
        .map(|s| {
            (0..w * h)
                .map(|i| {
                    let (x, y) = map(s, w, h, i % w, i / w).expect("a symmetry of this board");
                    y * w + x
                })
                .collect()
        })
        .collect()
}

/// The smallest image of `cells` under `perms` (as [`Key::of`] chooses it) and the
/// permutation that gives it.
fn smallest_image<'a>(cells: &[u8], perms: &'a [Vec<usize>]) -> (Vec<u8>, &'a [usize]) {
    let mut best: Option<(Vec<u8>, &[usize])> = None;
    let mut image = vec![b'.'; cells.len()];
    for perm in perms {
        for (i, &c) in cells.iter().enumerate() {
            image[perm[i]] = c;
        }
        if best.as_ref().is_none_or(|(b, _)| image < *b) {
            best = Some((image.clone(), perm));
        }
    }
    best.expect("the identity is a symmetry")
}

/// The entries of [`Snapshot::children`] for the stored key `key`.
fn parent_links(
    key: &str,
    perms: &mut std::collections::HashMap<(usize, usize), Vec<Vec<usize>>>,
    out: &mut std::collections::HashMap<String, Vec<i64>>,
) {
    let parts: Vec<&str> = key.split(':').collect();
    let [rule, size, side, cells] = parts.as_slice() else {
        return;
    };
    let Some((w, h)) = size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse::<usize>().ok()?, h.parse::<usize>().ok()?)))
    else {
        return;
    };
    if w * h != cells.len() || w * h > 32 * 32 {
        return;
    }
    let (mover, parent_side) = match *side {
        "b" => (b'o', 'w'),
        "w" => (b'x', 'b'),
        _ => return,
    };
    let perms = perms.entry((w, h)).or_insert_with(|| permutations(w, h));
    let mut parent = cells.as_bytes().to_vec();
    for i in 0..parent.len() {
        if parent[i] != mover {
            continue;
        }
        parent[i] = b'.';
        let (image, perm) = smallest_image(&parent, perms);
        let text = format!(
            "{rule}:{size}:{parent_side}:{}",
            String::from_utf8_lossy(&image)
        );
        out.entry(text).or_default().push(perm[i] as i64);
        parent[i] = mover;
    }
}

impl Snapshot {
    /// The moves from `board` (`side` to move) that lead somewhere in the database: a
    /// square with a label, the position's best move, and the moves to a stored position
    /// (one square for each position, on a symmetric board); row by row, each with its
    /// label.
    pub fn moves(&self, board: &Board, side: Color) -> Vec<(Pos, Option<String>)> {
        let key = Key::of(board, side);
        let mut found: std::collections::BTreeMap<(usize, usize), Option<String>> =
            Default::default();
        for (sq, label) in self.labels.get(&key.text).into_iter().flatten() {
            if let Some(p) = key.from_stored(*sq).filter(|&p| board.is_empty(p)) {
                found.insert((p.y(), p.x()), Some(label.clone()));
            }
        }
        if let Some(p) = self
            .rows
            .get(&key.text)
            .and_then(|r| r.best)
            .and_then(|i| key.from_stored(i))
            .filter(|&p| board.is_empty(p))
        {
            found.entry((p.y(), p.x())).or_insert(None);
        }
        for &sq in self.children.get(&key.text).into_iter().flatten() {
            if let Some(p) = key.from_stored(sq).filter(|&p| board.is_empty(p)) {
                found.entry((p.y(), p.x())).or_insert(None);
            }
        }
        found
            .into_iter()
            .map(|((y, x), l)| (Pos::new(x, y), l))
            .collect()
    }
}

/// Which positions `YXDELETEDATABASEALL` deletes after a position, as Yixin-Board's
/// "delete all" menu sends it (`w`, `l`, `wl`, `nonwl`, `wlnostep`, `wlinstep n`, each
/// also with `recursive` appended). Win and loss are as the GUI shows the move into the
/// position: for the side that played it (the tag's first letter, `w` or `l`, or else a
/// proven win or loss in the stored score).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeleteFilter {
    All,
    Win,
    Loss,
    WinLoss,
    NonWinLoss,
    /// A win or loss without the number of plies to the five.
    WinLossNoStep,
    /// A win or loss in at most this many plies.
    WinLossInStep(i64),
}

impl DeleteFilter {
    /// The filter and whether it is `recursive` (the walk stops at a position the filter
    /// keeps, instead of looking on past it). Empty text: every position.
    pub fn parse(text: &str) -> Result<(DeleteFilter, bool)> {
        let mut words = text.split_whitespace();
        let Some(word) = words.next() else {
            return Ok((DeleteFilter::All, false));
        };
        let word = word.to_ascii_uppercase();
        let (name, recursive) = match word.strip_suffix("RECURSIVE") {
            Some(n) => (n, true),
            None => (word.as_str(), false),
        };
        let filter = match name {
            "W" => DeleteFilter::Win,
            "L" => DeleteFilter::Loss,
            "WL" => DeleteFilter::WinLoss,
            "NONWL" => DeleteFilter::NonWinLoss,
            "WLNOSTEP" => DeleteFilter::WinLossNoStep,
            "WLINSTEP" => {
                let n = words
                    .next()
                    .and_then(|w| w.parse::<i64>().ok())
                    .context("wlinstep needs the number of plies")?;
                DeleteFilter::WinLossInStep(n)
            }
            _ => bail!("'{word}' is not a filter (w, l, wl, nonwl, wlnostep, wlinstep n, each with or without recursive)"),
        };
        if let Some(extra) = words.next() {
            bail!("'{extra}' after the filter");
        }
        Ok((filter, recursive))
    }

    /// Whether the filter deletes a position with this record (`None`: no record).
    fn matches(self, row: Option<&Row>) -> bool {
        if self == DeleteFilter::All {
            return true;
        }
        // (win: true / loss: false, plies to the five if known), for the mover.
        let result = row.and_then(|r| {
            let mut tag = Vec::new();
            let mut t = r.tag;
            while t > 0 {
                tag.push((t % 256) as u8);
                t /= 256;
            }
            tag.reverse();
            let plies_of_score = r
                .score
                .and_then(|s| mate_plies(-(s.clamp(-32_000, 32_000) as Score)));
            match tag.first().map(u8::to_ascii_lowercase) {
                Some(c @ (b'w' | b'l')) => {
                    let n = std::str::from_utf8(&tag[1..])
                        .ok()
                        .and_then(|n| n.parse::<i64>().ok());
                    Some((c == b'w', n.or(plies_of_score.map(|p| i64::from(p.abs())))))
                }
                _ => plies_of_score.map(|p| (p > 0, Some(i64::from(p.abs())))),
            }
        });
        match self {
            DeleteFilter::All => true,
            DeleteFilter::Win => matches!(result, Some((true, _))),
            DeleteFilter::Loss => matches!(result, Some((false, _))),
            DeleteFilter::WinLoss => result.is_some(),
            DeleteFilter::NonWinLoss => result.is_none(),
            DeleteFilter::WinLossNoStep => matches!(result, Some((_, None))),
            DeleteFilter::WinLossInStep(n) => matches!(result, Some((_, Some(k))) if k <= n),
        }
    }
}

/// What a `.lib` import did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LibImport {
    /// Nodes with a move that were stored.
    pub nodes: usize,
    /// Positions that had no record before.
    pub new_positions: usize,
    pub texts: usize,
    pub labels: usize,
    /// Nodes left out: a move off the board or on a stone, a move-less node inside the
    /// tree, and everything below them.
    pub skipped: usize,
}

/// The most characters a label keeps (as `YXEDITLABELDATABASE` allows).
const LABEL_CHARS: usize = 64;

struct LibItem {
    key: String,
    comment: String,
    /// Parent key, square in its frame, label.
    label: Option<(String, i64, String)>,
}

fn collect_lib(
    nodes: &[crate::book::renlib::Node],
    board: &mut Board,
    side: Color,
    items: &mut Vec<LibItem>,
    skipped: &mut usize,
) {
    for node in nodes {
        let Some((x, y)) = node.square else {
            if board.move_count() == 0 {
                // Old files: a node for the empty board above the first moves.
                collect_lib(&node.children, board, side, items, skipped);
            } else {
                *skipped += node.count();
            }
            continue;
        };
        let Some(p) = board.pos(x as i64, y as i64).filter(|&p| board.is_empty(p)) else {
            *skipped += node.count();
            continue;
        };
        let parent = Key::of(board, side);
        board.make_color(p, side);
        board.set_side_to_move(side.opp());
        let label = node
            .board_text
            .chars()
            .take(LABEL_CHARS)
            .collect::<String>();
        items.push(LibItem {
            key: Key::of(board, side.opp()).text,
            comment: node.comment.clone(),
            label: (!label.is_empty()).then(|| (parent.text.clone(), parent.to_stored(p), label)),
        });
        collect_lib(&node.children, board, side.opp(), items, skipped);
        board.unmake();
        board.set_side_to_move(side);
    }
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

fn unescape(s: &str) -> Result<String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next() {
            Some('\\') => '\\',
            Some('n') => '\n',
            Some('r') => '\r',
            Some('t') => '\t',
            other => bail!(
                "'\\{}' is not an escape (\\\\, \\n, \\r, \\t)",
                other.unwrap_or(' ')
            ),
        });
    }
    Ok(out)
}

/// Plays `moves` on a copy of `board`, black first and the colours alternating, calling
/// `each` with every position reached and its side to move; returns the last position
/// (its side to move set) and that side. A square played twice is an error.
fn replay(
    board: &Board,
    moves: &[Pos],
    mut each: impl FnMut(&Board, Color),
) -> Result<(Board, Color)> {
    let mut b = board.clone();
    let mut side = Color::Black;
    for &p in moves {
        if !b.is_empty(p) {
            bail!("{},{} is played twice", p.x(), p.y());
        }
        b.make_color(p, side);
        side = side.opp();
        each(&b, side);
    }
    b.set_side_to_move(side);
    Ok((b, side))
}

/// Stores a whole row, replacing the one under `key`.
fn put_row(tx: &rusqlite::Transaction<'_>, key: &str, r: &Row) -> rusqlite::Result<usize> {
    tx.execute(
        "INSERT INTO position (key, best, by_user, score, depth, bound, tag, text)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT(key) DO UPDATE SET best=?2, by_user=?3, score=?4, depth=?5,
             bound=?6, tag=?7, text=?8",
        params![
            key,
            r.best,
            r.by_user as i64,
            r.score,
            r.depth,
            r.bound,
            r.tag,
            r.text
        ],
    )
}

/// The first line of the text form.
pub const TEXT_HEADER: &str =
    "# Fivefold position database as text (YXDBTOTXT; YXTXTTODB reads it back)";

impl Database {
    /// Every position and label whose key starts with `prefix` ("" for all).
    pub fn snapshot(&self, prefix: &str) -> Result<Snapshot> {
        let mut rows = std::collections::BTreeMap::new();
        let mut children = std::collections::HashMap::new();
        let mut perms = std::collections::HashMap::new();
        let mut stmt = self.conn.prepare(
            "SELECT key, best, by_user, score, depth, bound, tag, text FROM position
             WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key",
        )?;
        let mut q = stmt.query([prefix])?;
        while let Some(r) = q.next()? {
            let key: String = r.get(0)?;
            parent_links(&key, &mut perms, &mut children);
            rows.insert(
                key,
                Row {
                    best: r.get(1)?,
                    by_user: r.get::<_, i64>(2)? != 0,
                    score: r.get(3)?,
                    depth: r.get(4)?,
                    bound: r.get(5)?,
                    tag: r.get(6)?,
                    text: r.get(7)?,
                },
            );
        }
        let mut labels: std::collections::BTreeMap<String, Vec<(i64, String)>> = Default::default();
        let mut stmt = self.conn.prepare(
            "SELECT key, square, label FROM label
             WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key, square",
        )?;
        let mut q = stmt.query([prefix])?;
        while let Some(r) = q.next()? {
            labels
                .entry(r.get::<_, String>(0)?)
                .or_default()
                .push((r.get(1)?, r.get(2)?));
        }
        Ok(Snapshot {
            rows,
            labels,
            children,
        })
    }

    /// Imports a RenLib tree whose first level are moves from `start` (an empty board
    /// of the rule and size to import for): each node's position gets a record (an
    /// empty one if it had none), the node's comment becomes (or is added on a new line
    /// to) the position's text, its board text the label of its square in the position
    /// before it. All in one transaction: an error leaves the database as it was.
    pub fn import_lib(
        &mut self,
        nodes: &[crate::book::renlib::Node],
        start: &Board,
    ) -> Result<LibImport> {
        let mut items = Vec::new();
        let mut stats = LibImport::default();
        let mut board = start.clone();
        let side = board.side_to_move();
        collect_lib(nodes, &mut board, side, &mut items, &mut stats.skipped);
        stats.nodes = items.len();
        self.write(|tx| {
            for item in &items {
                stats.new_positions += tx.execute(
                    "INSERT OR IGNORE INTO position (key) VALUES (?1)",
                    [&item.key],
                )?;
                if !item.comment.is_empty() {
                    let old: String =
                        tx.query_row("SELECT text FROM position WHERE key=?1", [&item.key], |r| {
                            r.get(0)
                        })?;
                    if !old.contains(&item.comment) {
                        let text = if old.is_empty() {
                            item.comment.clone()
                        } else {
                            format!("{old}\n{}", item.comment)
                        };
                        tx.execute(
                            "UPDATE position SET text=?2 WHERE key=?1",
                            params![item.key, text],
                        )?;
                        stats.texts += 1;
                    }
                }
                if let Some((key, square, label)) = &item.label {
                    put_label(tx, key, *square, label)?;
                    stats.labels += 1;
                }
            }
            Ok(())
        })?;
        Ok(stats)
    }

    /// The RenLib tree of what is stored from the position after `moves` (played from
    /// the empty `board`, black first): the moves to it, one node each, then every
    /// move that leads somewhere in the database ([`Snapshot::moves`]) with the position's
    /// text as its comment and its label as its board text. A position reached again by
    /// another order of moves is written again without what follows it. Returns the
    /// first level and the number of nodes.
    pub fn export_lib(
        &self,
        board: &Board,
        moves: &[Pos],
    ) -> Result<(Vec<crate::book::renlib::Node>, usize)> {
        use crate::book::renlib::Node;
        if board.width() > 15 || board.height() > 15 {
            bail!(
                "a RenLib library holds boards up to 15x15, not {}x{}",
                board.width(),
                board.height()
            );
        }
        let snap = self.snapshot(&Key::of(board, Color::Black).family())?;
        let (mut b, side) = replay(board, moves, |_, _| {})?;
        fn walk(
            snap: &Snapshot,
            b: &mut Board,
            side: Color,
            seen: &mut std::collections::HashSet<String>,
            count: &mut usize,
        ) -> Vec<Node> {
            if !seen.insert(Key::of(b, side).text) {
                return Vec::new();
            }
            let mut out = Vec::new();
            // Moves to the same position (images of each other on a symmetric board)
            // are written once, on a labelled square if one has a label.
            let moves: Vec<(Pos, Option<String>, String)> = snap
                .moves(b, side)
                .into_iter()
                .map(|(p, label)| {
                    b.make_color(p, side);
                    let key = Key::of(b, side.opp()).text;
                    b.unmake();
                    (p, label, key)
                })
                .collect();
            let labelled: std::collections::HashSet<&str> = moves
                .iter()
                .filter(|m| m.1.is_some())
                .map(|m| m.2.as_str())
                .collect();
            let mut written = std::collections::HashSet::new();
            for (p, label, key) in moves.iter().cloned() {
                if label.is_none()
                    && (labelled.contains(key.as_str()) || !written.insert(key.clone()))
                {
                    continue;
                }
                written.insert(key.clone());
                b.make_color(p, side);
                b.set_side_to_move(side.opp());
                let text = snap
                    .rows
                    .get(&key)
                    .map(|r| r.text.clone())
                    .unwrap_or_default();
                *count += 1;
                let children = walk(snap, b, side.opp(), seen, count);
                out.push(Node {
                    square: Some((p.x(), p.y())),
                    comment: text,
                    board_text: label.unwrap_or_default(),
                    mark: false,
                    children,
                });
                b.unmake();
                b.set_side_to_move(side);
            }
            out
        }
        let mut count = 0;
        let mut nodes = walk(&snap, &mut b, side, &mut Default::default(), &mut count);
        // The moves to the position, innermost first.
        for (i, &p) in moves.iter().enumerate().rev() {
            let mut before = board.clone();
            let mut s = Color::Black;
            for &q in &moves[..i] {
                before.make_color(q, s);
                s = s.opp();
            }
            let key = Key::of(&before, s);
            before.make_color(p, s);
            let text = snap
                .rows
                .get(&Key::of(&before, s.opp()).text)
                .map(|r| r.text.clone())
                .unwrap_or_default();
            let label = snap
                .labels
                .get(&key.text)
                .and_then(|l| l.iter().find(|(sq, _)| *sq == key.to_stored(p)))
                .map(|(_, l)| l.clone())
                .unwrap_or_default();
            count += 1;
            nodes = vec![Node {
                square: Some((p.x(), p.y())),
                comment: text,
                board_text: label,
                mark: false,
                children: nodes,
            }];
        }
        Ok((nodes, count))
    }

    /// Deletes what the filter picks among the positions after `board` (`side` to move),
    /// walking every move that leads somewhere in the database ([`Snapshot::moves`]);
    /// `recursive`: not past a position the filter keeps. The position itself stays.
    /// Returns the number of positions deleted.
    pub fn delete_after(
        &mut self,
        board: &Board,
        side: Color,
        filter: DeleteFilter,
        recursive: bool,
    ) -> Result<usize> {
        let snap = self.snapshot(&Key::of(board, side).family())?;
        let mut doomed = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![(board.clone(), side)];
        while let Some((mut b, side)) = stack.pop() {
            for (p, _) in snap.moves(&b, side) {
                b.make_color(p, side);
                let key = Key::of(&b, side.opp()).text;
                if seen.insert(key.clone()) {
                    let row = snap.rows.get(&key);
                    let hit = filter.matches(row);
                    if hit && (row.is_some() || snap.labels.contains_key(&key)) {
                        doomed.push(key);
                    }
                    if hit || !recursive {
                        let mut child = b.clone();
                        child.set_side_to_move(side.opp());
                        stack.push((child, side.opp()));
                    }
                }
                b.unmake();
            }
        }
        self.write(|tx| {
            for k in &doomed {
                tx.execute("DELETE FROM position WHERE key=?1", [k])?;
                tx.execute("DELETE FROM label WHERE key=?1", [k])?;
            }
            Ok(())
        })?;
        Ok(doomed.len())
    }

    /// Copies `other`'s positions and labels into this database (`YXDBMERGE`): a position
    /// new here is copied whole; one stored in both takes the other's result when it is
    /// deeper (or a person's choice where this one has none) unless a person chose this
    /// one's move, and its text and tag where this one has none; labels are added where
    /// this one has none. Returns the positions written and the positions in `other`.
    pub fn merge_from(&mut self, other: &Database) -> Result<(usize, usize)> {
        let theirs = other.snapshot("")?;
        let ours = self.snapshot("")?;
        let mut writes = Vec::new();
        for (key, t) in &theirs.rows {
            let merged = match ours.rows.get(key) {
                None => t.clone(),
                Some(o) => {
                    let mut m = o.clone();
                    let take = !o.by_user && (t.by_user || (t.best.is_some() && t.depth > o.depth));
                    if take {
                        m.best = t.best;
                        m.by_user = t.by_user;
                        m.score = t.score;
                        m.depth = t.depth;
                        m.bound = t.bound;
                    }
                    if m.text.is_empty() {
                        m.text = t.text.clone();
                    }
                    if m.tag == 0 {
                        m.tag = t.tag;
                    }
                    if &m == o {
                        continue;
                    }
                    m
                }
            };
            writes.push((key, merged));
        }
        self.write(|tx| {
            for (key, r) in &writes {
                put_row(tx, key, r)?;
            }
            for (key, list) in &theirs.labels {
                for (sq, label) in list {
                    tx.execute(
                        "INSERT OR IGNORE INTO label (key, square, label) VALUES (?1, ?2, ?3)",
                        params![key, sq, label],
                    )?;
                }
            }
            Ok(())
        })?;
        Ok((writes.len(), theirs.rows.len()))
    }

    /// Copies into `other` (`YXDBSPLIT`) the positions on the way to the one after
    /// `moves` (played from the empty `board`, black first), that position and every
    /// position after it ([`Snapshot::moves`]), with their labels. Returns the number of
    /// positions copied.
    pub fn split_into(&self, other: &mut Database, board: &Board, moves: &[Pos]) -> Result<usize> {
        let snap = self.snapshot(&Key::of(board, Color::Black).family())?;
        let mut keys = vec![Key::of(board, Color::Black).text];
        let (b, side) = replay(board, moves, |b, side| keys.push(Key::of(b, side).text))?;
        let mut seen: std::collections::HashSet<String> = keys.iter().cloned().collect();
        let mut stack = vec![(b, side)];
        while let Some((mut b, side)) = stack.pop() {
            for (p, _) in snap.moves(&b, side) {
                b.make_color(p, side);
                let key = Key::of(&b, side.opp()).text;
                if seen.insert(key.clone()) {
                    keys.push(key);
                    let mut child = b.clone();
                    child.set_side_to_move(side.opp());
                    stack.push((child, side.opp()));
                }
                b.unmake();
            }
        }
        let mut n = 0;
        other.write(|tx| {
            for key in &keys {
                if let Some(r) = snap.rows.get(key) {
                    put_row(tx, key, r)?;
                    n += 1;
                }
                for (sq, label) in snap.labels.get(key).into_iter().flatten() {
                    put_label(tx, key, *sq, label)?;
                }
            }
            Ok(())
        })?;
        Ok(n)
    }

    /// The database (positions whose key starts with `prefix`, "" for all) as text:
    /// [`TEXT_HEADER`], then one line a position and one a label, tab-separated, texts
    /// escaped. Returns the text and the numbers of positions and labels.
    pub fn to_text(&self, prefix: &str) -> Result<(String, usize, usize)> {
        let snap = self.snapshot(prefix)?;
        let mut out = format!(
            "{TEXT_HEADER}\n# position\tkey\tbest\tby_user\tscore\tdepth\tbound\ttag\ttext\n# label\tkey\tsquare\tlabel\n"
        );
        let opt = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
        for (key, r) in &snap.rows {
            out.push_str(&format!(
                "position\t{key}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                opt(r.best),
                u8::from(r.by_user),
                opt(r.score),
                r.depth,
                r.bound,
                r.tag,
                escape(&r.text)
            ));
        }
        let mut n_labels = 0;
        for (key, list) in &snap.labels {
            for (sq, label) in list {
                out.push_str(&format!("label\t{key}\t{sq}\t{}\n", escape(label)));
                n_labels += 1;
            }
        }
        Ok((out, snap.rows.len(), n_labels))
    }

    /// Reads the text form ([`Database::to_text`]) into the database: each line's
    /// record or label replaces the stored one. Every line is checked first; an error
    /// names the line and nothing is written. Returns the numbers of positions and labels.
    pub fn from_text(&mut self, text: &str) -> Result<(usize, usize)> {
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let parsed = (|| -> Result<()> {
                let num = |s: &str, what: &str| -> Result<i64> {
                    s.trim()
                        .parse::<i64>()
                        .with_context(|| format!("'{s}' is not a number ({what})"))
                };
                let opt = |s: &str, what: &str| -> Result<Option<i64>> {
                    if s.trim().is_empty() {
                        Ok(None)
                    } else {
                        num(s, what).map(Some)
                    }
                };
                match f.as_slice() {
                    ["position", key, best, by_user, score, depth, bound, tag, text] => {
                        let (b, _) = parse_key(key)?;
                        let best = opt(best, "best")?;
                        if best.is_some_and(|i| !(0..(b.width() * b.height()) as i64).contains(&i))
                        {
                            bail!("best move {} is off the board", best.unwrap_or(0));
                        }
                        rows.push((
                            key.to_string(),
                            Row {
                                best,
                                by_user: num(by_user, "by_user")? != 0,
                                score: opt(score, "score")?.map(|s| {
                                    s.clamp(
                                        -(crate::core::types::MATE as i64),
                                        crate::core::types::MATE as i64,
                                    )
                                }),
                                depth: num(depth, "depth")?.clamp(0, 1000),
                                bound: num(bound, "bound")?.clamp(0, 3),
                                tag: num(tag, "tag")?.max(0),
                                text: unescape(text)?,
                            },
                        ));
                    }
                    ["label", key, square, label] => {
                        let (b, _) = parse_key(key)?;
                        let sq = num(square, "square")?;
                        if !(0..(b.width() * b.height()) as i64).contains(&sq) {
                            bail!("square {sq} is off the board");
                        }
                        labels.push((key.to_string(), sq, unescape(label)?));
                    }
                    _ => bail!("expected 'position' and 8 fields or 'label' and 3, tab-separated"),
                }
                Ok(())
            })();
            parsed.with_context(|| format!("line {}", i + 1))?;
        }
        self.write(|tx| {
            for (key, r) in &rows {
                put_row(tx, key, r)?;
            }
            for (key, sq, label) in &labels {
                put_label(tx, key, *sq, label)?;
            }
            Ok(())
        })?;
        Ok((rows.len(), labels.len()))
    }

    /// The positions whose key starts with `prefix` as move lists (`h8 i9 h10`, black
    /// first, colours alternating), one a line; positions whose stones and side to move
    /// no such game gives (and the empty board) are left out. Returns the text, the number
    /// of lines and the number left out.
    pub fn to_positions(&self, prefix: &str) -> Result<(String, usize, usize)> {
        let snap = self.snapshot(prefix)?;
        let (mut out, mut n, mut left) = (String::new(), 0, 0);
        for key in snap.rows.keys() {
            let Ok((b, side)) = parse_key(key) else {
                left += 1;
                continue;
            };
            let stones = |c| {
                b.squares()
                    .filter(|&p| b.stone(p) == Some(c))
                    .collect::<Vec<_>>()
            };
            let (black, white) = (stones(Color::Black), stones(Color::White));
            let fits = match side {
                Color::Black => black.len() == white.len(),
                Color::White => black.len() == white.len() + 1,
            };
            if !fits || black.is_empty() {
                left += 1;
                continue;
            }
            let mut names = Vec::new();
            for (i, &bl) in black.iter().enumerate() {
                names.push(crate::core::notation::square_name(bl, b.height()));
                if let Some(&w) = white.get(i) {
                    names.push(crate::core::notation::square_name(w, b.height()));
                }
            }
            out.push_str(&names.join(" "));
            out.push('\n');
            n += 1;
        }
        Ok((out, n, left))
    }

    /// `YXDBFIX`: SQLite's integrity check, the indexes rebuilt (`REINDEX`), records whose
    /// key is not a canonical position key removed, the file compacted (`VACUUM`) and the
    /// log folded in, then the check again. Returns what was done, one line each, and the
    /// problems the last check still finds (empty when the file is sound).
    pub fn fix(&mut self) -> Result<(Vec<String>, Vec<String>)> {
        let mut done = Vec::new();
        let before = self.integrity_check()?;
        if before == ["ok"] {
            done.push("integrity check: ok".to_string());
        } else {
            done.push(format!("integrity check: {} problems", before.len()));
        }
        self.conn.execute_batch("REINDEX")?;
        done.push("indexes rebuilt".to_string());
        let snap = self.snapshot("")?;
        let bad: Vec<String> = snap
            .rows
            .keys()
            .chain(snap.labels.keys())
            .filter(|k| parse_key(k).is_err())
            .cloned()
            .collect();
        self.write(|tx| {
            for k in &bad {
                tx.execute("DELETE FROM position WHERE key=?1", [k])?;
                tx.execute("DELETE FROM label WHERE key=?1", [k])?;
            }
            Ok(())
        })?;
        done.push(format!(
            "{} unreadable record{} removed",
            bad.len(),
            if bad.len() == 1 { "" } else { "s" }
        ));
        self.conn.execute_batch("VACUUM")?;
        self.checkpoint()?;
        done.push(format!("file compacted, {} positions", self.len()?));
        let after = self.integrity_check()?;
        let problems = if after == ["ok"] { Vec::new() } else { after };
        Ok((done, problems))
    }
}
