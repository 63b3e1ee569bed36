// Square names and position strings.
//
// A square is [x, y]: x the column from the left, y the row from the top, both from 0,
// as the engine's protocol has them. Its name is the column letter (from "a") and the
// row counted from the bottom, so "h8" is the centre of 15x15 and "a1" is [0, size - 1].
// A position string is the moves in order with nothing between them: "h8i9j7".

/** @typedef {[number, number]} Square */

export const MIN_SIZE = 5;
export const MAX_SIZE = 22;
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/**
 * @param {Square} sq
 * @param {number} size
 * @returns {string}
 */
export function squareName([x, y], size) {
  return LETTERS[x] + String(size - y);
}

/**
 * @param {string} name e.g. "h8"
 * @param {number} size
 * @returns {Square | null} null when it names no square of the board
 */
export function parseSquare(name, size) {
  const m = /^([a-z])(\d{1,2})$/.exec(name.trim().toLowerCase());
  if (!m) return null;
  const x = LETTERS.indexOf(m[1]);
  const row = Number(m[2]);
  if (x >= size || row < 1 || row > size) return null;
  return [x, size - row];
}

/**
 * @param {Square[]} moves
 * @param {number} size
 */
export function posString(moves, size) {
  return moves.map((m) => squareName(m, size)).join("");
}

/**
 * Reads a position string. Spaces, commas and dashes between moves are allowed.
 * @param {string} text
 * @param {number} size
 * @returns {Square[]}
 * @throws {Error} with a message for the person when the text is not a position
 */
export function parsePos(text, size) {
  const clean = text.trim().toLowerCase().replace(/[\s,;\-]+/g, "");
  if (clean === "") return [];
  if (!/^([a-z]\d{1,2})+$/.test(clean)) {
    throw new Error(`"${text.trim().slice(0, 40)}" is not a position string (moves like h8i9j7)`);
  }
  const moves = [];
  for (const [name] of clean.matchAll(/[a-z]\d{1,2}/g)) {
    const sq = parseSquare(name, size);
    if (!sq) throw new Error(`${name} is not a square of the ${size}x${size} board`);
    moves.push(sq);
  }
  return moves;
}

/**
 * The URL hash: "rule=4&size=20&h8i9j7"; rule 0 and size 15 are left out.
 * @param {{rule: number, size: number, moves: Square[]}} p
 */
export function formatHash({ rule, size, moves }) {
  const parts = [];
  if (rule !== 0) parts.push(`rule=${rule}`);
  if (size !== 15) parts.push(`size=${size}`);
  parts.push(posString(moves, size));
  return parts.join("&");
}

export const RULES = /** @type {const} */ ([0, 1, 4]);

/**
 * Reads a URL hash (without "#"). A missing rule is freestyle, a missing size 15.
 * @param {string} hash
 * @returns {{rule: number, size: number, moves: Square[]}}
 * @throws {Error} with a message for the person
 */
export function parseHash(hash) {
  let rule = 0;
  let size = 15;
  let pos = "";
  for (const part of decodeURIComponent(hash).split("&")) {
    const eq = part.indexOf("=");
    if (eq < 0) {
      pos += part;
      continue;
    }
    const key = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim();
    if (key === "rule") {
      rule = Number(value);
      if (!RULES.includes(/** @type {any} */ (rule))) throw new Error(`rule=${value} in the URL: use 0 (freestyle), 1 (exact five) or 4 (renju)`);
    } else if (key === "size") {
      size = Number(value);
      if (!Number.isInteger(size) || size < MIN_SIZE || size > MAX_SIZE) {
        throw new Error(`size=${value} in the URL: boards are ${MIN_SIZE} to ${MAX_SIZE}`);
      }
    } else if (key === "pos") {
      pos += value;
    } else {
      throw new Error(`"${key}" in the URL is not known (rule, size and the moves are)`);
    }
  }
  return { rule, size, moves: parsePos(pos, size) };
}

export const RULE_NAMES = { 0: "Freestyle", 1: "Exact five", 4: "Renju" };
