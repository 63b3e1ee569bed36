//! The engine as the browser page drives it: the exports of the WebAssembly module
//! (`target/web/fivefold.wasm`, built by `scripts/web.sh` with the `web` feature and
//! without `sqlite` and `tools`). The page's worker (`web/worker.js`) gives the module
//! its imports (`core::host`) and calls these; `docs/web.md` describes both
//! sides.
//!
//! - the protocol, a line at a time ([`crate::gomocup::here::Driver`]): the same
//!   Gomocup and Yixin-Board commands as on standard input, the replies through the host's
//!   `emit`;
//! - typed helpers over the same library, so that the page never reimplements a rule: a
//!   position's legality, forbidden points and end ([`status`]); RenLib files to and from
//!   a move tree ([`renlib_read`], [`renlib_write`]); and the bench.
//!
//! The exports themselves are in `exports` (built for `wasm32-unknown-unknown` with the
//! `web` feature); what they compute is here, and tested natively.
//!
//! Memory crosses the boundary only as buffers this module owns: the page asks for one
//! (`ff_alloc`), writes its bytes at the address it gets, and passes the address back;
//! results are left in one result buffer the page reads (`ff_result_ptr`,
//! `ff_result_len`). So nothing here reads memory through a raw pointer.

use crate::book::renlib::{self, Node};
use crate::core::board::Board;
use crate::core::rules::{self, GameEnd};
use crate::core::types::{Color, Pos, Rule};
use serde_json::{json, Value};

#[cfg(all(feature = "web", target_arch = "wasm32", target_os = "unknown"))]
mod exports;

fn square(v: &Value) -> Option<(i64, i64)> {
    let a = v.as_array()?;
    match a.as_slice() {
        [x, y] => Some((x.as_i64()?, y.as_i64()?)),
        _ => None,
    }
}

fn squares(list: &[Pos]) -> Value {
    list.iter().map(|p| json!([p.x(), p.y()])).collect()
}

/// The game the page shows, as the rules see it: how many of its moves form a legal
/// game, who is to move, black's forbidden squares (renju, black to move), and how the
/// game ended. Squares are `[x, y]`, but the error names them as a person does (`h8`). A move on a taken or missing square, after the end, or on a forbidden
/// square ends the legal part (`ok` false, `error` why).
pub fn status(bytes: &[u8]) -> Result<Value, String> {
    let v: Value = serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    let int = |key: &str, default: i64| v.get(key).map_or(Some(default), Value::as_i64);
    let rule = int("rule", 0)
        .and_then(Rule::from_info)
        .ok_or("rule: expected a number the protocol's INFO rule takes")?;
    let (w, h) = match (int("width", 15), int("height", 15)) {
        (Some(w), Some(h)) => (w, h),
        _ => return Err("width and height: expected numbers".into()),
    };
    let mut b = Board::new(w.max(0) as usize, h.max(0) as usize, rule)?;
    let moves = match v.get("moves") {
        None => Vec::new(),
        Some(m) => m
            .as_array()
            .ok_or("moves: expected a list of [x, y]")?
            .clone(),
    };
    let mut error = None;
    let mut valid = 0;
    for m in &moves {
        let Some((x, y)) = square(m) else {
            error = Some(format!("move {}: expected [x, y]", valid + 1));
            break;
        };
        let Some(p) = b.pos(x, y) else {
            error = Some(format!(
                "move {}: {x},{y} is outside the {w}x{h} board",
                valid + 1
            ));
            break;
        };
        if rules::game_end(&b).is_some() {
            error = Some(format!("move {}: the game is over", valid + 1));
            break;
        }
        let name = crate::core::notation::square_name(p, b.height());
        if !b.is_empty(p) {
            error = Some(format!("move {}: {name} is taken", valid + 1));
            break;
        }
        if rule.has_forbidden() && b.side_to_move() == Color::Black {
            if let Some(why) = rules::foul(&mut b, p) {
                error = Some(format!(
                    "move {}: {name} is forbidden for black ({why})",
                    valid + 1
                ));
                break;
            }
        }
        b.make(p);
        valid += 1;
    }
    let end = rules::game_end(&b);
    let forbidden = if end.is_none() && rule.has_forbidden() && b.side_to_move() == Color::Black {
        rules::forbidden_squares(&mut b)
    } else {
        Vec::new()
    };
    let color = |c: Color| if c == Color::Black { "black" } else { "white" };
    let (winner, five) = match &end {
        None => (Value::Null, Vec::new()),
        Some(GameEnd::Five(c, line)) => (json!(color(*c)), line.clone()),
        Some(GameEnd::Full | GameEnd::NoLegalMove(_)) => (json!("draw"), Vec::new()),
    };
    Ok(json!({
        "ok": error.is_none(),
        "error": error,
        "valid": valid,
        "to_move": color(b.side_to_move()),
        "forbidden": squares(&forbidden),
        "winner": winner,
        "five": squares(&five),
    }))
}

/// A tree's nodes in pre-order, each with its depth (0 for the tree's first level): the
/// flat form the page and this module exchange, which no reader or writer has to
/// recurse through (a line of a game is a tree hundreds of levels deep).
fn flatten(nodes: &[Node]) -> Vec<Value> {
    let mut out = Vec::new();
    let mut todo: Vec<(&Node, usize)> = nodes.iter().rev().map(|n| (n, 0)).collect();
    while let Some((n, depth)) = todo.pop() {
        out.push(json!({
            "move": n.square.map(|(x, y)| json!([x, y])),
            "comment": n.comment,
            "text": n.board_text,
            "mark": n.mark,
            "depth": depth,
        }));
        todo.extend(n.children.iter().rev().map(|c| (c, depth + 1)));
    }
    out
}

/// A `.lib` file as a tree: `{"ok":true,"nodes":[{"move":[x,y] or null,"comment","text",
/// "mark","depth"},…]}` in pre-order, squares as column and row from the top.
pub fn renlib_read(bytes: &[u8]) -> Result<Value, String> {
    let nodes = renlib::read(bytes).map_err(|e| format!("{e:#}"))?;
    Ok(json!({"ok": true, "nodes": flatten(&nodes)}))
}

/// The deepest tree the page may send (as [`renlib::read`] allows).
const MAX_DEPTH: usize = 1024;

/// One node of the flat form, without its children, and its depth.
fn node_from(v: &Value, at: usize) -> Result<(Node, usize), String> {
    let bad = |what: &str| format!("node {}: {what}", at + 1);
    let text = |key: &str| v.get(key).and_then(Value::as_str).unwrap_or("").to_string();
    let square = match v.get("move") {
        None | Some(Value::Null) => None,
        Some(m) => {
            let (x, y) = square(m).ok_or_else(|| bad("move: expected [x, y] or null"))?;
            if !(0..15).contains(&x) || !(0..15).contains(&y) {
                return Err(bad(&format!(
                    "move {x},{y}: RenLib files hold 15x15 boards"
                )));
            }
            Some((x as usize, y as usize))
        }
    };
    let depth = v
        .get("depth")
        .map_or(Some(0), Value::as_u64)
        .ok_or_else(|| bad("depth: expected a number"))?;
    let node = Node {
        square,
        comment: text("comment"),
        board_text: text("text"),
        mark: v.get("mark").and_then(Value::as_bool).unwrap_or(false),
        children: Vec::new(),
    };
    Ok((node, depth as usize))
}

/// A tree in the flat form of [`renlib_read`] (`{"nodes":[…]}`) as a `.lib` file. Each
/// node's depth is at most one more than the node before it.
pub fn renlib_write(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let v: Value = serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    let list = v
        .get("nodes")
        .and_then(Value::as_array)
        .ok_or("nodes: expected a list")?;
    // The open path from the first level down to the last node read.
    let mut path: Vec<Node> = Vec::new();
    let mut roots: Vec<Node> = Vec::new();
    let close = |path: &mut Vec<Node>, roots: &mut Vec<Node>| {
        let n = path.pop().expect("a node to close");
        match path.last_mut() {
            Some(parent) => parent.children.push(n),
            None => roots.push(n),
        }
    };
    for (at, item) in list.iter().enumerate() {
        let (node, depth) = node_from(item, at)?;
        if depth > path.len() {
            return Err(format!(
                "node {}: depth {depth} after a node at depth {}",
                at + 1,
                path.len() as i64 - 1
            ));
        }
        if depth >= MAX_DEPTH {
            return Err(format!(
                "node {}: the tree is deeper than {MAX_DEPTH} moves",
                at + 1
            ));
        }
        while path.len() > depth {
            close(&mut path, &mut roots);
        }
        path.push(node);
    }
    while !path.is_empty() {
        close(&mut path, &mut roots);
    }
    renlib::write(&roots).map_err(|e| format!("{e:#}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(names: &str) -> Value {
        let squares = crate::core::notation::parse_moves(names, 15, 15).unwrap();
        squares.iter().map(|&(x, y)| json!([x, y])).collect()
    }

    fn status_of(rule: i64, names: &str) -> Value {
        let input = json!({"rule": rule, "width": 15, "height": 15, "moves": moves(names)});
        status(input.to_string().as_bytes()).unwrap()
    }

    #[test]
    fn a_double_three_is_listed_and_refused_under_renju_only() {
        // . . . . . . .   black h9 h10 (a column) and i8 j8 (a row); white far off.
        // 10  . x . .       h8 makes two open threes: forbidden for black.
        //  9  . x . .
        //  8  . * x x
        let s = status_of(4, "h9 a1 h10 a3 i8 a5 j8 a7");
        assert_eq!(s["ok"], true);
        assert_eq!(s["to_move"], "black");
        assert_eq!(s["forbidden"], json!([[7, 7]]));
        let s = status_of(4, "h9 a1 h10 a3 i8 a5 j8 a7 h8");
        assert_eq!(s["ok"], false);
        assert_eq!(s["valid"], 8);
        assert_eq!(
            s["error"],
            "move 9: h8 is forbidden for black (double three)"
        );
        let s = status_of(0, "h9 a1 h10 a3 i8 a5 j8 a7 h8");
        assert_eq!(
            (s["ok"].clone(), s["forbidden"].clone()),
            (json!(true), json!([]))
        );
        assert_eq!(s["to_move"], "white");
    }

    #[test]
    fn a_five_ends_the_game_and_no_move_follows() {
        let s = status_of(1, "a1 b1 a2 b2 a3 b3 a4 b4 a5");
        assert_eq!(s["winner"], "black");
        assert_eq!(s["five"], moves("a5 a4 a3 a2 a1"));
        let s = status_of(1, "a1 b1 a2 b2 a3 b3 a4 b4 a5 b5");
        assert_eq!(
            (s["ok"].clone(), s["valid"].clone()),
            (json!(false), json!(9))
        );
        assert!(s["error"].as_str().unwrap().contains("over"), "{s}");
    }

    #[test]
    fn bad_positions_say_what_is_wrong() {
        assert!(status(b"not json").unwrap_err().contains("JSON"));
        assert!(
            status(br#"{"rule": 3}"#).is_ok(),
            "2 and 3 read as renju, as INFO rule does"
        );
        assert!(status(br#"{"rule": "x"}"#).unwrap_err().contains("rule"));
        assert!(status(br#"{"width": 4}"#).is_err());
        let s = status(br#"{"moves": [[7, 7], [7, 7]]}"#).unwrap();
        assert_eq!(s["error"], "move 2: h8 is taken");
        let s = status(br#"{"moves": [[15, 0]]}"#).unwrap();
        assert!(s["error"].as_str().unwrap().contains("outside"), "{s}");
        let s = status(br#"{"moves": [[1, 2, 3]]}"#).unwrap();
        assert_eq!(s["valid"], 0);
    }

    #[test]
    fn a_tree_goes_through_a_lib_file_unchanged() {
        let node = |m: Value, comment: &str, text: &str, mark: bool, depth: usize| json!({"move": m, "comment": comment, "text": text, "mark": mark, "depth": depth});
        // h8 (marked, a two-line comment), then i9 with a board text, or g9 and after it
        // a node without a move; then a second tree, a1.
        let nodes = json!([
            node(json!([7, 7]), "the centre\nsecond line", "", true, 0),
            node(json!([8, 6]), "", "A", false, 1),
            node(json!([6, 6]), "Grüße", "", false, 1),
            node(Value::Null, "", "", false, 2),
            node(json!([0, 14]), "", "", false, 0),
        ]);
        let bytes = renlib_write(json!({"nodes": nodes}).to_string().as_bytes()).unwrap();
        assert!(bytes.starts_with(b"\xffRenLib\xff"));
        let back = renlib_read(&bytes).unwrap();
        assert_eq!(back["ok"], true);
        assert_eq!(back["nodes"], nodes);
    }

    #[test]
    fn trees_renlib_cannot_hold_are_refused() {
        let write = |nodes: Value| renlib_write(json!({ "nodes": nodes }).to_string().as_bytes());
        assert!(write(json!([{"move": [15, 0]}]))
            .unwrap_err()
            .contains("15x15"));
        assert!(
            write(json!([{"move": [7, 7]}, {"move": [8, 8], "depth": 2}]))
                .unwrap_err()
                .contains("depth 2")
        );
        let line: Vec<Value> = (0..1100)
            .map(|d| json!({"move": [d % 15, d / 15 % 15], "depth": d}))
            .collect();
        assert!(write(json!(line)).unwrap_err().contains("deeper"));
        // A long line below the limit goes through, without recursion on either side.
        let line: Vec<Value> = (0..1000)
            .map(|d| json!({"move": [d % 15, d / 15 % 15], "depth": d}))
            .collect();
        let back = renlib_read(&write(json!(line)).unwrap()).unwrap();
        assert_eq!(back["nodes"].as_array().unwrap().len(), 1000);
        assert!(renlib_read(b"not a lib file").is_err());
    }
}
