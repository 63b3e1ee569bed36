// The person's database in IndexedDB: saved games (a whole game tree with comments and
// analysis) and analysed positions (a comment and the engine's result per position).
// RenLib files carry both: toLibNodes() merges them into one move tree, fromLibNodes()
// reads one back.

import { Tree } from "./tree.js";
import { posString } from "./notation.js";

/**
 * @typedef {{id?: number, name: string, rule: number, size: number, date: number, tree: any}} GameRecord
 * @typedef {{key: string, rule: number, size: number, pos: string, moves: [number, number][],
 *   comment: string, best: string | null, eval: number | string | null, winrate: number | null,
 *   depth: number, lines: {move: string, eval: number | string, winrate: number, pv: string[]}[],
 *   date: number}} PositionRecord
 * @typedef {import("./engine.js").LibNode} LibNode
 */

const NAME = "fivefold";
const VERSION = 1;

/** @param {IDBRequest} req @returns {Promise<any>} */
function done(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export class Database {
  /** @param {IDBDatabase} idb */
  constructor(idb) {
    this.idb = idb;
  }

  static async open() {
    const req = indexedDB.open(NAME, VERSION);
    req.onupgradeneeded = () => {
      const idb = req.result;
      idb.createObjectStore("games", { keyPath: "id", autoIncrement: true });
      idb.createObjectStore("positions", { keyPath: "key" });
    };
    return new Database(await done(req));
  }

  /** @param {"games" | "positions"} store @param {IDBTransactionMode} mode */
  store(store, mode) {
    return this.idb.transaction(store, mode).objectStore(store);
  }

  /** @param {GameRecord} game @returns {Promise<number>} its id */
  saveGame(game) {
    return done(this.store("games", "readwrite").put(game));
  }

  /** @returns {Promise<GameRecord[]>} newest first */
  async games() {
    const all = await done(this.store("games", "readonly").getAll());
    return all.sort((a, b) => b.date - a.date);
  }

  /** @param {number} id @returns {Promise<GameRecord | undefined>} */
  game(id) {
    return done(this.store("games", "readonly").get(id));
  }

  /** @param {number} id */
  deleteGame(id) {
    return done(this.store("games", "readwrite").delete(id));
  }

  /** @param {number} rule @param {number} size @param {string} pos */
  static positionKey(rule, size, pos) {
    return `${rule}/${size}/${pos}`;
  }

  /** @param {PositionRecord} p */
  savePosition(p) {
    return done(this.store("positions", "readwrite").put(p));
  }

  /** @param {string} key @returns {Promise<PositionRecord | undefined>} */
  position(key) {
    return done(this.store("positions", "readonly").get(key));
  }

  /** @returns {Promise<PositionRecord[]>} newest first */
  async positions() {
    const all = await done(this.store("positions", "readonly").getAll());
    return all.sort((a, b) => b.date - a.date);
  }

  /** @param {string} key */
  deletePosition(key) {
    return done(this.store("positions", "readwrite").delete(key));
  }
}

/**
 * A position's text in a RenLib comment: the person's comment, then the engine's result.
 * @param {PositionRecord} p
 */
function positionComment(p) {
  const parts = [];
  if (p.comment) parts.push(p.comment);
  if (p.best) parts.push(`Fivefold: best ${p.best}, eval ${p.eval}, depth ${p.depth}`);
  return parts.join("\n");
}

/**
 * One move tree of 15x15 games and positions, for a RenLib file (which has 15x15 boards
 * only). A game's name, where it has one, goes in the comment of its last main-line move.
 * @param {{name: string, tree: Tree}[]} games
 * @param {PositionRecord[]} positions
 * @returns {LibNode[]}
 */
export function toLibNodes(games, positions) {
  /** @type {LibNode} */
  const root = { move: null, comment: "", text: "", mark: false, children: [] };
  /** @param {LibNode} parent @param {[number, number]} move */
  const childOf = (parent, move) => {
    let c = parent.children.find((n) => n.move && n.move[0] === move[0] && n.move[1] === move[1]);
    if (!c) {
      c = { move, comment: "", text: "", mark: false, children: [] };
      parent.children.push(c);
    }
    return c;
  };
  /** @param {LibNode} node @param {string} text */
  const addComment = (node, text) => {
    if (text && !node.comment.split("\n").includes(text)) node.comment = node.comment ? `${node.comment}\n${text}` : text;
  };
  for (const { name, tree } of games) {
    /** @param {import("./tree.js").Node} from @param {LibNode} to */
    const copy = (from, to) => {
      addComment(to, from.comment);
      if (from.text && !to.text) to.text = from.text;
      for (const c of from.children) copy(c, childOf(to, /** @type {[number, number]} */ (c.move)));
    };
    copy(tree.root, root);
    let end = root;
    for (let n = tree.root.children[0]; n; n = n.children[0]) end = childOf(end, /** @type {[number, number]} */ (n.move));
    if (name) addComment(end, `Game: ${name}`);
  }
  for (const p of positions) {
    let node = root;
    for (const m of p.moves) node = childOf(node, m);
    addComment(node, positionComment(p));
  }
  // A RenLib file starts from its first move; a move-less first node stands for the
  // empty board, needed only when that has a comment.
  return root.comment ? [root] : root.children;
}

/**
 * A game tree from a RenLib file's nodes. Move-less nodes below the first level (passes)
 * are left out with what follows them.
 * @param {LibNode[]} nodes
 * @returns {{tree: Tree, skipped: number}}
 */
export function fromLibNodes(nodes) {
  const tree = new Tree();
  let skipped = 0;
  /** @param {LibNode} n */
  const count = (n) => 1 + n.children.reduce((s, c) => s + count(c), 0);
  /** @param {import("./tree.js").Node} to @param {LibNode[]} list */
  const add = (to, list) => {
    for (const n of list) {
      if (!n.move) {
        skipped += count(n);
        continue;
      }
      tree.current = to;
      const child = tree.play([n.move[0], n.move[1]]);
      child.comment = n.comment;
      child.text = n.text;
      add(child, n.children);
    }
  };
  let top = nodes;
  if (nodes.length === 1 && !nodes[0].move) {
    tree.root.comment = nodes[0].comment;
    top = nodes[0].children;
  }
  add(tree.root, top);
  tree.current = tree.root;
  for (const n of [tree.root, ...tree.all()]) n.lastChild = n.children[0] ?? null;
  return { tree, skipped };
}

/** The position records of a tree's commented nodes (for the database). @param {Tree} tree @param {number} rule */
export function commentedPositions(tree, rule) {
  /** @type {PositionRecord[]} */
  const out = [];
  for (const n of [tree.root, ...tree.all()]) {
    if (!n.comment) continue;
    const moves = n.path();
    const pos = posString(moves, 15);
    out.push({
      key: Database.positionKey(rule, 15, pos), rule, size: 15, pos, moves, comment: n.comment,
      best: null, eval: null, winrate: null, depth: 0, lines: [], date: Date.now(),
    });
  }
  return out;
}
