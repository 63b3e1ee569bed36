//! RenLib's `.lib` files, the opening libraries Yixin-Board users keep: reading them into
//! a tree of moves and writing a tree back.
//!
//! The format, as RenLib writes it and Rapfi and Yixin-Board read it:
//!
//! - a 20-byte header: `0xff`, `RenLib`, `0xff`, the major and minor version, ten
//!   `0xff` (only the `RenLib` magic is checked);
//! - then the nodes in pre-order, each two bytes: the square, `row << 4 | (column + 1)`
//!   with row 0 the top row (0 for a node without a move), and a flag byte: `0x80` a
//!   sibling (the next variation) follows this node's subtree, `0x40` the node has no
//!   child, `0x20` an old-style comment (ignored), `0x10` a mark, `0x08` a comment
//!   follows, `0x04` start, `0x02` no move, `0x01` two extension bytes follow, whose
//!   lowest bit says that a board text follows;
//! - a comment, then a board text, each as bytes read two at a time up to the first pair
//!   that holds a zero byte. A comment is a one-line comment, and after a `0x08` byte a
//!   multi-line comment with `\r\n` line breaks.
//!
//! Texts are read as UTF-8 when they are, else byte by byte as Latin-1 (old files use
//! their own code page; their letters may come out wrong but nothing is lost or refused),
//! and written as UTF-8. Reading never recurses and refuses trees over 1024 levels deep, so
//! a hostile file cannot exhaust the stack; a file that ends inside the tree is refused
//! as truncated.

use anyhow::{bail, Result};

const HEADER_LEN: usize = 20;
/// The deepest tree read (a line of a 15x15 game has at most 225 moves; nodes without
/// a move add a few): a deeper file is refused rather than built into a tree whose
/// dropping would recurse that deep.
const MAX_DEPTH: usize = 1024;
const SIBLING: u8 = 0x80;
const NO_CHILD: u8 = 0x40;
const MARK: u8 = 0x10;
const COMMENT: u8 = 0x08;
const NO_MOVE: u8 = 0x02;
const EXTENSION: u8 = 0x01;

/// One node of a library: a move (column, row from the top, both from 0; `None` for a
/// node without a move), what RenLib shows with it, and the moves that follow it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    pub square: Option<(usize, usize)>,
    /// The comment on the position after the move (line breaks as `\n`).
    pub comment: String,
    /// The board text: shown on the move's square in the position before the move.
    pub board_text: String,
    pub mark: bool,
    pub children: Vec<Node>,
}

impl Node {
    /// The number of nodes in this subtree.
    pub fn count(&self) -> usize {
        1 + self.children.iter().map(Node::count).sum::<usize>()
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8> {
        let Some(&b) = self.bytes.get(self.at) else {
            bail!(
                "the file is truncated (it ends at byte {} inside the tree)",
                self.bytes.len()
            );
        };
        self.at += 1;
        Ok(b)
    }

    /// A zero-terminated text read two bytes at a time.
    fn text(&mut self) -> Result<String> {
        let mut out = Vec::new();
        loop {
            let (a, b) = (self.byte()?, self.byte()?);
            if a == 0 {
                break;
            }
            out.push(a);
            if b == 0 {
                break;
            }
            out.push(b);
        }
        Ok(decode(&out))
    }

    /// One node without its children; with whether it has children and a sibling.
    fn node(&mut self) -> Result<(Node, bool, bool)> {
        let at = self.at;
        let (square, flag) = (self.byte()?, self.byte()?);
        let mut has_text = false;
        if flag & EXTENSION != 0 {
            let ext = u16::from(self.byte()?) << 8 | u16::from(self.byte()?);
            has_text = ext & 1 != 0;
        }
        let comment = if flag & COMMENT != 0 {
            comment_text(&self.text()?)
        } else {
            String::new()
        };
        let board_text = if has_text {
            clean(&self.text()?)
        } else {
            String::new()
        };
        let square = if square == 0 || flag & NO_MOVE != 0 {
            None
        } else if square & 0x0f == 0 {
            bail!("byte {at}: {square:#04x} is not a square");
        } else {
            Some(((square & 0x0f) as usize - 1, (square >> 4) as usize))
        };
        let node = Node {
            square,
            comment,
            board_text,
            mark: flag & MARK != 0,
            children: Vec::new(),
        };
        Ok((node, flag & NO_CHILD == 0, flag & SIBLING != 0))
    }
}

/// Bytes as text: UTF-8 when they are, else Latin-1.
fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// A text without control characters (line breaks become spaces).
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// RenLib's comment (one-line part, `0x08`, multi-line part) as one text, the parts on
/// their own lines.
fn comment_text(raw: &str) -> String {
    raw.split('\u{8}')
        .map(|part| {
            part.replace("\r\n", "\n")
                .replace('\r', "\n")
                .chars()
                .filter(|&c| c == '\n' || !c.is_control())
                .collect::<String>()
        })
        .map(|part| part.trim().to_string())
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Reads a library: the nodes of its first level (the first moves, or a single node
/// without a move for the empty board, as old files begin).
pub fn read(bytes: &[u8]) -> Result<Vec<Node>> {
    if bytes.len() < HEADER_LEN {
        bail!(
            "the file is truncated ({} bytes, shorter than RenLib's {HEADER_LEN}-byte header)",
            bytes.len()
        );
    }
    if &bytes[1..7] != b"RenLib" {
        bail!("not a RenLib library (no RenLib header)");
    }
    let mut r = Reader {
        bytes,
        at: HEADER_LEN,
    };
    if r.at == bytes.len() {
        return Ok(Vec::new());
    }
    // The nodes whose children are being read, each with whether a sibling follows it;
    // the bottom one stands for the file's first level.
    let mut open: Vec<(Node, bool)> = vec![(Node::default(), false)];
    loop {
        let (node, child, mut sibling) = r.node()?;
        if child {
            if open.len() > MAX_DEPTH {
                bail!("the tree is deeper than {MAX_DEPTH} moves: not a library of this game");
            }
            open.push((node, sibling));
            continue;
        }
        open.last_mut().expect("the bottom").0.children.push(node);
        while !sibling {
            if open.len() == 1 {
                let (top, _) = open.pop().expect("the bottom");
                return Ok(top.children);
            }
            let (done, s) = open.pop().expect("checked");
            open.last_mut().expect("the bottom").0.children.push(done);
            sibling = s;
        }
    }
}

/// Writes the text, two bytes at a time, ended by a pair that holds a zero.
fn put_text(out: &mut Vec<u8>, text: &[u8]) {
    out.extend_from_slice(text);
    out.push(0);
    if text.len().is_multiple_of(2) {
        out.push(0);
    }
}

fn put_node(out: &mut Vec<u8>, node: &Node, sibling: bool) -> Result<()> {
    let square = match node.square {
        None => 0,
        Some((x, y)) if x < 15 && y < 16 => (y << 4 | (x + 1)) as u8,
        Some((x, y)) => bail!("{x},{y} does not fit a RenLib library (15 columns at most)"),
    };
    let mut flag = 0;
    if sibling {
        flag |= SIBLING;
    }
    if node.children.is_empty() {
        flag |= NO_CHILD;
    }
    if node.mark {
        flag |= MARK;
    }
    if !node.comment.is_empty() {
        flag |= COMMENT;
    }
    if node.square.is_none() {
        flag |= NO_MOVE;
    }
    let text = clean(&node.board_text);
    if !text.is_empty() {
        flag |= EXTENSION;
    }
    out.extend_from_slice(&[square, flag]);
    if !text.is_empty() {
        out.extend_from_slice(&[0, 1]);
    }
    if !node.comment.is_empty() {
        let comment = comment_text(&node.comment);
        let raw = if comment.contains('\n') {
            format!("\u{8}{}", comment.replace('\n', "\r\n"))
        } else {
            comment
        };
        put_text(out, raw.as_bytes());
    }
    if !text.is_empty() {
        put_text(out, text.as_bytes());
    }
    Ok(())
}

/// Writes a library whose first level is `nodes` (pre-order; a deep tree is written
/// without recursion).
pub fn write(nodes: &[Node]) -> Result<Vec<u8>> {
    let mut out = vec![0xff];
    out.extend_from_slice(b"RenLib");
    out.extend_from_slice(&[0xff, 3, 0]);
    out.extend_from_slice(&[0xff; 10]);
    // Each entry: a list of siblings and the index of the next one to write.
    let mut stack: Vec<(&[Node], usize)> = vec![(nodes, 0)];
    while let Some((list, i)) = stack.pop() {
        if i == list.len() {
            continue;
        }
        let node = &list[i];
        put_node(&mut out, node, i + 1 < list.len())?;
        stack.push((list, i + 1));
        stack.push((&node.children, 0));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Vec<u8> {
        let mut h = vec![0xff];
        h.extend_from_slice(b"RenLib");
        h.extend_from_slice(&[0xff, 3, 0]);
        h.extend_from_slice(&[0xff; 10]);
        h
    }

    fn leaf(x: usize, y: usize) -> Node {
        Node {
            square: Some((x, y)),
            ..Node::default()
        }
    }

    /// h8 (the centre, 0x78) with two answers, i9 (0x69, comment "a") and i7 (0x89,
    /// board text "B"), the second followed by j6 (0x9a).
    #[test]
    fn reads_a_hand_made_tree() {
        let mut bytes = header();
        bytes.extend_from_slice(&[0x78, 0x00]);
        bytes.extend_from_slice(&[0x69, SIBLING | NO_CHILD | COMMENT, b'a', 0]);
        bytes.extend_from_slice(&[0x89, EXTENSION, 0, 1, b'B', 0]);
        bytes.extend_from_slice(&[0x9a, NO_CHILD]);
        let tree = read(&bytes).unwrap();
        let mut i9 = leaf(8, 6);
        i9.comment = "a".into();
        let mut i7 = leaf(8, 8);
        i7.board_text = "B".into();
        i7.children = vec![leaf(9, 9)];
        let mut h8 = leaf(7, 7);
        h8.children = vec![i9, i7];
        assert_eq!(tree, vec![h8.clone()]);
        assert_eq!(write(&tree).unwrap(), bytes);
    }

    #[test]
    fn comments_keep_their_lines() {
        let mut n = leaf(0, 0);
        n.comment = "first\nsecond".into();
        n.board_text = "xy".into();
        let bytes = write(std::slice::from_ref(&n)).unwrap();
        assert_eq!(read(&bytes).unwrap(), vec![n]);
    }

    #[test]
    fn truncated_and_foreign_files_are_refused() {
        let mut bytes = header();
        bytes.extend_from_slice(&[0x78, 0x00, 0x69]);
        let e = read(&bytes).unwrap_err().to_string();
        assert!(e.contains("truncated"), "{e}");
        let e = read(&bytes[..10]).unwrap_err().to_string();
        assert!(e.contains("truncated"), "{e}");
        let e = read(&[0u8; 40]).unwrap_err().to_string();
        assert!(e.contains("not a RenLib"), "{e}");
        // A comment that never ends.
        let mut bytes = header();
        bytes.extend_from_slice(&[0x78, NO_CHILD | COMMENT, b'a', b'b']);
        assert!(read(&bytes).is_err());
    }

    /// A line deeper than any game is refused, not built; a deep legal one is read and
    /// written back without recursion.
    #[test]
    fn deep_files() {
        let mut bytes = header();
        for _ in 0..100_000 {
            bytes.extend_from_slice(&[0, NO_MOVE]);
        }
        bytes.extend_from_slice(&[0x78, NO_CHILD]);
        let e = read(&bytes).unwrap_err().to_string();
        assert!(e.contains("deeper"), "{e}");
        let mut bytes = header();
        for _ in 0..1000 {
            bytes.extend_from_slice(&[0, NO_MOVE]);
        }
        bytes.extend_from_slice(&[0x78, NO_CHILD]);
        let tree = read(&bytes).unwrap();
        assert_eq!(tree[0].count(), 1001);
        assert_eq!(write(&tree).unwrap(), bytes);
    }
}
