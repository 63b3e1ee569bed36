// What the page writes to the engine and reads back, in the Gomocup/Yixin protocol
// (docs/protocol.md): positions as BOARD/YXBOARD blocks, and the INFO PV blocks of
// `INFO show_detail 2` read into analysis lines.

/** @typedef {import("./notation.js").Square} Square */

/**
 * One analysed move: the line's first move, its score for the side to move, and the line.
 * @typedef {{index: number, depth: number, eval: number | string, winrate: number,
 *   nodes: number, speed: number, time: number, pv: Square[]}} Line
 */

/**
 * A position as a BOARD or YXBOARD block: stones in move order, 1 for the side to
 * move's stones and 2 for the other's, so the engine is the side to move.
 * @param {"BOARD" | "YXBOARD"} command
 * @param {Square[]} moves
 */
export function boardBlock(command, moves) {
  const toMove = moves.length % 2;
  return [command, ...moves.map(([x, y], i) => `${x},${y},${i % 2 === toMove ? 1 : 2}`), "DONE"];
}

/** @param {string} text "7,7" @returns {Square | null} */
export function parseProtocolSquare(text) {
  const m = /^(\d+),(\d+)$/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/**
 * The engine's reply among a job's lines: the last line made of squares, or "SWAP".
 * @param {string[]} lines
 * @returns {Square[] | "SWAP" | null}
 */
export function findReply(lines) {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim();
    if (line.toUpperCase() === "SWAP") return "SWAP";
    const parts = line.split(/\s+/).map(parseProtocolSquare);
    if (parts.length && parts.every((p) => p !== null)) return /** @type {Square[]} */ (parts);
  }
  return null;
}

/** "+M7" and "-M4" are kept as text; other scores are numbers. @param {string} text */
export function parseEval(text) {
  return /^[+-]?M\d+$/i.test(text) ? text.toUpperCase() : Number(text);
}

/** Reads INFO PV blocks as they stream in. */
export class InfoReader {
  constructor() {
    /** @type {Partial<Line> | null} */
    this.block = null;
  }

  /**
   * @param {string} line one line the engine wrote
   * @returns {Line | null} a completed line, at its `INFO PV DONE`
   */
  feed(line) {
    const m = /^INFO (\S+)(?: (.*))?$/.exec(line.trim());
    if (!m) return null;
    const key = m[1].toUpperCase();
    const value = (m[2] ?? "").trim();
    if (key === "PV") {
      if (value.toUpperCase() === "DONE") {
        const done = this.block;
        this.block = null;
        return done && done.pv ? /** @type {Line} */ (done) : null;
      }
      this.block = { index: Number(value) || 0, depth: 0, eval: 0, winrate: 0.5, nodes: 0, speed: 0, time: 0 };
      return null;
    }
    const b = this.block;
    if (!b) return null;
    if (key === "DEPTH") b.depth = Number(value);
    else if (key === "EVAL") b.eval = parseEval(value);
    else if (key === "WINRATE") b.winrate = Number(value);
    else if (key === "NODES") b.nodes = Number(value);
    else if (key === "SPEED") b.speed = Number(value);
    else if (key === "TOTALTIME") b.time = Number(value);
    else if (key === "BESTLINE") {
      b.pv = /** @type {Square[]} */ (value.split(/\s+/).map(parseProtocolSquare).filter((s) => s !== null));
    }
    return null;
  }
}

/**
 * A label's text: the win rate in percent, or the score; "W7"/"L4" for a five found.
 * @param {Line} line
 * @param {"winrate" | "eval"} kind
 */
export function labelText(line, kind) {
  if (typeof line.eval === "string") return (line.eval.startsWith("-") ? "L" : "W") + line.eval.replace(/^[+-]?M/, "");
  return kind === "winrate" ? String(Math.round(line.winrate * 100)) : String(line.eval);
}

/** The engine's error text for the person, without the protocol's prefix. @param {string[]} lines */
export function findError(lines) {
  const e = lines.find((l) => l.startsWith("ERROR"));
  return e ? e.replace(/^ERROR\s*/, "") : null;
}
