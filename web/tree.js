// The game tree: every move tried from a position is kept, so undo, redo and jumps
// never lose a branch. Each node remembers the child it was last left through, so redo
// goes back down the branch the person came from.

/** @typedef {import("./notation.js").Square} Square */

/**
 * What is known about the position after a node's move (the root: the empty board).
 * @typedef {{eval: number | string, winrate: number, depth: number, best: Square | null}} Analysis
 */

export class Node {
  /**
   * @param {Square | null} move null for the root
   * @param {Node | null} parent
   */
  constructor(move, parent) {
    this.move = move;
    this.parent = parent;
    /** @type {Node[]} */
    this.children = [];
    /** @type {Node | null} */
    this.lastChild = null;
    this.comment = "";
    /** a RenLib board text: a name for the move (an opening's, say) */
    this.text = "";
    /** "user" or "engine" (how the move came), and the engine's time for it */
    this.by = "user";
    this.ms = 0;
    /** @type {Analysis | null} the deepest analysis of the position after the move */
    this.analysis = null;
  }

  /** @param {Square} move */
  child(move) {
    return this.children.find((c) => c.move[0] === move[0] && c.move[1] === move[1]) ?? null;
  }

  get ply() {
    let n = 0;
    for (let p = this.parent; p; p = p.parent) n++;
    return n;
  }

  /** The moves from the empty board to this node. @returns {Square[]} */
  path() {
    const moves = [];
    for (let n = /** @type {Node} */ (this); n.parent; n = n.parent) moves.push(n.move);
    return moves.reverse();
  }

  /** The nodes from the first move to this one. @returns {Node[]} */
  nodes() {
    const out = [];
    for (let n = /** @type {Node} */ (this); n.parent; n = n.parent) out.push(n);
    return out.reverse();
  }
}

export class Tree {
  constructor() {
    this.root = new Node(null, null);
    this.current = this.root;
  }

  /** Plays a move from the current node: into the existing branch, or a new one. */
  play(/** @type {Square} */ move) {
    let next = this.current.child(move);
    if (!next) {
      next = new Node(move, this.current);
      this.current.children.push(next);
    }
    this.current.lastChild = next;
    this.current = next;
    return next;
  }

  back() {
    if (!this.current.parent) return false;
    this.current.parent.lastChild = this.current;
    this.current = this.current.parent;
    return true;
  }

  forward() {
    const next = this.current.lastChild ?? this.current.children[0];
    if (!next) return false;
    this.current = next;
    return true;
  }

  toStart() {
    while (this.back());
  }

  toEnd() {
    while (this.forward());
  }

  /** @param {Node} node */
  goTo(node) {
    for (let n = node; n.parent; n = n.parent) n.parent.lastChild = n;
    this.current = node;
  }

  /** The line shown: the path to the current node and on down the branches last taken. */
  line() {
    const nodes = this.current.nodes();
    for (let n = this.current.lastChild ?? this.current.children[0]; n; n = n.lastChild ?? n.children[0]) {
      nodes.push(n);
    }
    return nodes;
  }

  /** Removes a node and what follows it (not the root). @param {Node} node */
  remove(node) {
    const parent = node.parent;
    if (!parent) return;
    parent.children = parent.children.filter((c) => c !== node);
    if (parent.lastChild === node) parent.lastChild = parent.children[0] ?? null;
    for (let n = this.current; n; n = n.parent) {
      if (n === node) {
        this.current = parent;
        break;
      }
    }
  }

  /** Every node but the root, parents first. @returns {Node[]} */
  all() {
    const out = [];
    const stack = [...this.root.children].reverse();
    while (stack.length) {
      const n = /** @type {Node} */ (stack.pop());
      out.push(n);
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    }
    return out;
  }

  /** A tree holding one line of moves, the current node at its end. @param {Square[]} moves */
  static fromMoves(moves) {
    const tree = new Tree();
    for (const m of moves) tree.play(m);
    return tree;
  }

  /**
   * Plain data for storing: {move, comment, by, ms, analysis, children}; the current
   * node's path as `current`.
   */
  toJSON() {
    /** @param {Node} n @returns {any} */
    const dump = (n) => ({
      move: n.move,
      comment: n.comment,
      text: n.text,
      by: n.by,
      ms: n.ms,
      analysis: n.analysis,
      children: n.children.map(dump),
    });
    return { root: dump(this.root), current: this.current.path() };
  }

  /** @param {any} data what toJSON gave */
  static fromJSON(data) {
    const tree = new Tree();
    /** @param {Node} node @param {any} d */
    const load = (node, d) => {
      node.comment = String(d.comment ?? "");
      node.text = String(d.text ?? "");
      node.by = d.by === "engine" ? "engine" : "user";
      node.ms = Number(d.ms) || 0;
      node.analysis = d.analysis ?? null;
      for (const c of d.children ?? []) {
        const child = new Node([c.move[0], c.move[1]], node);
        node.children.push(child);
        load(child, c);
      }
    };
    load(tree.root, data.root);
    for (const m of data.current ?? []) {
      const next = tree.current.child(m);
      if (!next) break;
      tree.goTo(next);
    }
    return tree;
  }
}
