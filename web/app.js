// The page: the game, the engine's turns, analysis, the controls, and window.fivefold
// (the interface the browser test drives). Rules are the engine's: every move is
// checked with ff_status before it is played, and the forbidden points and the end of
// the game come from there too.

import { BoardView } from "./board.js";
import { Graph } from "./graph.js";
import { Engine } from "./engine.js";
import { Tree } from "./tree.js";
import { Database, toLibNodes, fromLibNodes, commentedPositions } from "./db.js";
import { loadSettings, saveSettings } from "./settings.js";
import {
  squareName, parseSquare, posString, parsePos, formatHash, parseHash, MIN_SIZE, MAX_SIZE, RULE_NAMES,
} from "./notation.js";
import { boardBlock, findReply, findError, InfoReader, labelText } from "./protocol.js";

/** @typedef {import("./notation.js").Square} Square */
/** @typedef {import("./protocol.js").Line} Line */
/** @typedef {import("./engine.js").Status} Status */
/** @typedef {"black" | "white"} Color */

const NO_LIMIT_MS = 2147483647;
const PNG_SIZE = 1200;

const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));
const settings = loadSettings();

// ---- state -----------------------------------------------------------------------

/** @type {Engine} */
let engine;
/** @type {Database | null} */
let db = null;
let rule = settings.rule;
let size = settings.size;
let tree = new Tree();
/** which colours the engine plays */
let engineSides = sidesOf(settings.engineSide);
/** @type {Status | null} the position on the board, as the engine judges it */
let status = null;
/** @type {Line[]} the analysis lines shown, by index */
let lines = [];
/** the engine's last result */
let last = { best: /** @type {Square | null} */ (null), eval: /** @type {number | string | null} */ (null), winrate: /** @type {number | null} */ (null) };
/**
 * What the engine is doing for the page: a move, an analysis, pondering, a balance or
 * swap2 decision. `interrupted` is set when the person stops it or the position moves on.
 * @type {{kind: string, interrupted: boolean, byStop: boolean, done: Promise<any>} | null}
 */
let task = null;
/** counts position changes, so an answer for an older position is dropped */
let epoch = 0;
/** position changes being worked out (the engine's turn not yet decided) */
let pending = 0;
/** @type {(() => void)[]} */
let idleWaiters = [];
let lastMessage = "";
/**
 * The swap2 opening in progress: who placed the first stones and what comes next.
 * @type {{phase: "place3" | "place2" | "choose3" | "choose5"} | null}
 */
let swap2 = null;
/** per-game clocks in ms, the side whose clock runs and since when */
let clocks = { black: 0, white: 0, since: 0, timeUp: /** @type {Color | null} */ (null) };
/** @type {Square[]} the line previewed on the board */
let preview = [];
/** @type {Square | null} */
let hover = null;

const board = new BoardView($("board"), { onClick: (sq) => userMove(sq), onHover: onHover });
const graph = new Graph($("graph"), (ply) => {
  const node = tree.line()[ply - 1];
  if (ply === 0) tree.toStart();
  else if (node) tree.goTo(node);
  changed(false);
});

// ---- helpers ---------------------------------------------------------------------

/** @param {string} side */
function sidesOf(side) {
  return { black: side === "black" || side === "both", white: side === "white" || side === "both" };
}

function sideName() {
  const { black, white } = engineSides;
  return black && white ? "both" : black ? "black" : white ? "white" : "none";
}

/** @param {Color} c @returns {Color} */
const other = (c) => (c === "black" ? "white" : "black");
/** @param {Square} sq */
const name = (sq) => squareName(sq, size);
const moves = () => tree.current.path();
/** @param {number} i @returns {Color} */
const colorOf = (i) => (i % 2 === 0 ? "black" : "white");

/** Shows a message to the person. @param {string} text @param {boolean} [error] */
function say(text, error = false) {
  lastMessage = text;
  const el = $("message");
  el.textContent = text;
  el.classList.toggle("error", error);
}

function save() {
  saveSettings(settings);
}

function idle() {
  return pending === 0 && !(task && ["move", "swap2", "balance"].includes(task.kind));
}

function settle() {
  if (!idle()) return;
  const waiters = idleWaiters;
  idleWaiters = [];
  for (const w of waiters) w();
}

// ---- the engine's tasks ----------------------------------------------------------

/**
 * Sends the limits for a search.
 * @param {"move" | "analyse"} kind
 * @param {number | null} ms the turn's time; null for the settings' (a move) or none
 */
function sendLimits(kind, ms) {
  /** @type {Record<string, number>} */
  const info = {
    rule,
    max_depth: settings.maxDepth,
    max_node: settings.maxNode,
    strength: kind === "move" ? settings.strength : 100,
    timeout_match: 0,
  };
  if (kind === "move" && ms === null && settings.timeMode === "game" && status) {
    info.timeout_match = Math.round(settings.gameMinutes * 60000);
    info.time_left = Math.max(1, Math.round(clocks[status.to_move]));
    info.timeout_turn = info.time_left;
  } else if (kind === "move" && ms === null) {
    info.timeout_turn = settings.timeMode === "move" ? Math.round(settings.moveSeconds * 1000) : NO_LIMIT_MS;
  } else {
    info.timeout_turn = ms ?? NO_LIMIT_MS;
  }
  engine.setSize(size);
  engine.setInfo(info);
}

/**
 * Runs protocol lines as the page's task, reading the analysis they stream.
 * @param {string} kind
 * @param {string[]} protocolLines
 * @param {import("./tree.js").Node} node the position searched (its analysis is kept)
 */
function runTask(kind, protocolLines, node) {
  const reader = new InfoReader();
  const t = { kind, interrupted: false, byStop: false, done: /** @type {Promise<any>} */ (Promise.resolve()) };
  t.done = engine.run(protocolLines, (line) => {
    if (task !== t) return;
    const l = reader.feed(line);
    if (l && l.pv.length) onLine(l, node);
    else if (line.startsWith("MESSAGE balance:")) say(line.slice(8));
    else if (line.startsWith("ERROR")) say(line.slice(6), true);
  });
  task = t;
  draw();
  return t;
}

/** @param {NonNullable<typeof task>} t */
function endTask(t) {
  if (task === t) task = null;
  draw();
  settle();
}

/** @param {Line} l @param {import("./tree.js").Node} node */
function onLine(l, node) {
  lines[l.index] = l;
  if (l.index === 0) {
    last = { best: l.pv[0], eval: l.eval, winrate: l.winrate };
    const black = node.ply % 2 === 0 ? l.winrate : 1 - l.winrate;
    if (!node.analysis || node.analysis.depth <= l.depth) {
      node.analysis = { eval: l.eval, winrate: black, depth: l.depth, best: l.pv[0] };
    }
  }
  scheduleDraw();
}

/** Interrupts the running task (its answer is dropped) and waits until the engine is idle. */
async function cancelTask() {
  const t = task;
  if (!t) return;
  t.interrupted = true;
  await engine.stop();
  await t.done;
  endTask(t);
}

/** The person's stop: a move is played now, an analysis ends where it is. */
async function stopEngine() {
  const t0 = performance.now();
  const t = task;
  if (t) {
    t.byStop = true;
    await engine.stop();
    await t.done;
    // the task's own continuation plays a stopped move; wait for it
    await new Promise((r) => setTimeout(r, 0));
  }
  return { ms: Math.round(performance.now() - t0) };
}

/** @param {number} my */
async function engineMove(my) {
  const node = tree.current;
  const side = /** @type {Status} */ (status).to_move;
  const t0 = performance.now();
  lines = [];
  sendLimits("move", null);
  const t = runTask("move", boardBlock("BOARD", moves()), node);
  const result = await t.done;
  const ms = Math.round(performance.now() - t0);
  if (t.interrupted || my !== epoch) return endTask(t);
  let reply = findReply(result.lines);
  // Stopped without the shared flag, the worker was ended before it answered: its
  // best move so far is the first move of the last line it reported.
  if (!reply && result.stopped && lines[0]) reply = [lines[0].pv[0]];
  await whileBusy(async () => {
    endTask(t);
    if (!Array.isArray(reply) || reply.length !== 1) {
      say(findError(result.lines) ?? "The engine gave no move.", true);
      return;
    }
    chargeClock(side, ms);
    if (await playChecked(reply[0], "engine", ms)) await changed(!t.byStop);
  });
}

/**
 * Runs the steps from an engine's answer to the board showing it, counted as pending
 * so that waitEngine() does not resolve in between.
 * @param {() => Promise<void>} steps
 */
async function whileBusy(steps) {
  pending++;
  try {
    await steps();
  } finally {
    pending--;
    settle();
  }
}

/**
 * Analyses the position on the board.
 * @param {number} my
 * @param {number | null} ms null: until stopped (or a depth or node limit)
 * @param {"analyse" | "ponder"} kind
 */
async function analyse(my, ms, kind) {
  const node = tree.current;
  lines = [];
  sendLimits("analyse", ms);
  const t = runTask(kind, [...boardBlock("YXBOARD", moves()), `YXNBEST ${settings.multipv}`], node);
  await t.done;
  endTask(t);
  if (my === epoch) draw();
  return { best: last.best && name(last.best), eval: last.eval, lines: stateLines() };
}

/** Balance one or two: the engine plays the move(s) that leave the position nearest the aim. */
async function balance(/** @type {1 | 2} */ count) {
  if (!status || status.winner) return say("The game is over.");
  await cancelTask();
  const my = ++epoch;
  const aim = Math.round(Number($("balance-aim").value) || 0);
  sendLimits("analyse", settings.timeMode === "move" ? Math.round(settings.moveSeconds * 1000) : 5000);
  const command = count === 1 ? `YXBALANCEONE ${aim}` : `YXBALANCETWO ${aim}`;
  const t = runTask("balance", [...boardBlock("YXBOARD", moves()), command], tree.current);
  const result = await t.done;
  await whileBusy(async () => {
    endTask(t);
    if (t.interrupted || my !== epoch) return;
    const reply = findReply(result.lines);
    if (!Array.isArray(reply)) return say(findError(result.lines) ?? "The engine found no balancing move.", true);
    for (const sq of reply) if (!(await playChecked(sq, "engine", 0))) return;
    await changed(false);
  });
}

// ---- swap2 -----------------------------------------------------------------------

/** The engine's swap2 decision on the stones on the board (0, 3 or 5). @param {number} my */
async function swap2Engine(my) {
  const stones = moves();
  sendLimits("move", settings.timeMode === "move" ? null : 5000);
  const t = runTask("swap2", ["SWAP2BOARD", ...stones.map(([x, y]) => `${x},${y}`), "DONE"], tree.current);
  const result = await t.done;
  await whileBusy(async () => {
    endTask(t);
    if (!t.interrupted && my === epoch) await swap2Answer(stones.length, result.lines);
  });
}

/**
 * Plays the engine's swap2 answer and says what comes next.
 * @param {number} n the stones it was given
 * @param {string[]} output what it wrote
 */
async function swap2Answer(n, output) {
  const reply = findReply(output);
  if (!reply) {
    swap2 = null;
    return say(findError(output) ?? "The engine gave no swap2 answer; play on freely.", true);
  }
  if (reply !== "SWAP") for (const sq of reply) if (!(await playChecked(sq, "engine", 0))) return;
  if (n === 0) {
    swap2 = { phase: "choose3" };
  } else if (reply === "SWAP") {
    setSides({ black: true, white: false });
    swap2 = null;
    say(`Fivefold takes black; you play white's ${n === 3 ? "fourth" : "sixth"} stone.`);
  } else if (n === 3 && reply.length === 2) {
    swap2 = { phase: "choose5" };
  } else {
    setSides({ black: false, white: true });
    swap2 = null;
    say(`Fivefold takes white and has played its stone; black to move.`);
  }
  await changed(false);
}

/** @param {{black: boolean, white: boolean}} sides */
function setSides(sides) {
  engineSides = sides;
  settings.engineSide = sideName();
  $("engine-side").value = settings.engineSide;
  save();
}

function showSwap2() {
  const box = $("swap2");
  box.hidden = !swap2;
  if (!swap2) return;
  const buttons = $("swap2-buttons");
  buttons.replaceChildren();
  /** @param {string} label @param {() => void} action */
  const add = (label, action) => {
    const b = document.createElement("button");
    b.textContent = label;
    b.onclick = action;
    buttons.append(b);
  };
  const text = {
    place3: "Swap2: place the three opening stones (black, white, black).",
    place2: "Swap2: place two more stones (white, then black); Fivefold then chooses its colour.",
    choose3: "Swap2: choose your colour, or place two more stones.",
    choose5: "Swap2: Fivefold placed two more stones. Choose your colour.",
  }[swap2.phase];
  $("swap2-text").textContent = text;
  if (swap2.phase === "choose3" || swap2.phase === "choose5") {
    const sixth = swap2.phase === "choose5";
    add("I take black", () => chooseColor("black"));
    add("I take white", () => chooseColor("white"));
    if (!sixth) add("I place two more", () => {
      swap2 = { phase: "place2" };
      draw();
    });
  }
}

/** @param {Color} color the person's */
function chooseColor(color) {
  setSides({ black: color === "white", white: color === "black" });
  swap2 = null;
  changed(true);
}

// ---- moves and positions ---------------------------------------------------------

/**
 * Plays a move after the engine has found it legal.
 * @param {Square} sq
 * @param {"user" | "engine"} by
 * @param {number} ms
 * @returns {Promise<boolean>} false (and a message) when it is not legal
 */
async function playChecked(sq, by, ms) {
  const path = [...moves(), sq];
  const st = await engine.status({ rule, size, moves: path });
  if (!st.ok || st.valid < path.length) {
    const forbidden = status?.forbidden.some(([x, y]) => x === sq[0] && y === sq[1]);
    say(forbidden ? `${name(sq)} is forbidden for black under renju.` : `${name(sq)}: ${st.error ?? "not a legal move"}.`, true);
    return false;
  }
  const node = tree.play(sq);
  node.by = by;
  node.ms = ms;
  return true;
}

let moving = false;

/** A click on the board. @param {Square} sq */
async function userMove(sq) {
  if (moving || !status) return;
  if (task && ["move", "swap2", "balance"].includes(task.kind)) {
    return say("The engine is thinking; Stop makes it move now.");
  }
  if (status.winner) return say("The game is over: go back or start a new game.");
  if (swap2 && (swap2.phase === "choose3" || swap2.phase === "choose5")) return say("Choose your colour first.");
  if (clocks.timeUp) return say(`${clocks.timeUp === "black" ? "Black" : "White"}'s time is up.`);
  moving = true;
  pending++; // the engine's answer is on its way from the click on
  try {
    const side = status.to_move;
    const elapsed = performance.now() - clocks.since;
    if (!(await playChecked(sq, "user", 0))) return;
    chargeClock(side, elapsed);
    say("");
    await changed(true);
  } finally {
    moving = false;
    pending--;
    settle();
  }
}

/**
 * The board moved to another position: ask the engine about it, show it, then start
 * whatever comes next (the engine's move when `auto`, else analysis or pondering).
 * @param {boolean} auto
 */
async function changed(auto) {
  const my = ++epoch;
  pending++;
  try {
    await cancelTask();
    lines = [];
    preview = [];
    let st = await engine.status({ rule, size, moves: moves() });
    while (!st.ok && st.valid < moves().length) {
      // a tree loaded or transformed into an illegal line: keep its legal start
      say(`Move ${st.valid + 1} (${name(moves()[st.valid])}) is not legal here: ${st.error}.`, true);
      tree.goTo(tree.current.nodes()[st.valid - 1] ?? tree.root);
      st = await engine.status({ rule, size, moves: moves() });
    }
    if (my !== epoch) return;
    status = st;
    await loadStored();
    draw();
    decide(my, auto);
  } finally {
    pending--;
    settle();
  }
}

/** @param {number} my @param {boolean} auto */
function decide(my, auto) {
  const st = /** @type {Status} */ (status);
  if (st.winner) {
    say(st.winner === "draw" ? "Draw: the board is full." : `${st.winner === "black" ? "Black" : "White"} wins.`);
    return;
  }
  if (swap2) {
    const n = moves().length;
    if ((swap2.phase === "place3" && n === 3) || (swap2.phase === "place2" && n === 5)) swap2Engine(my);
    return;
  }
  if (clocks.timeUp) return;
  const side = st.to_move;
  if (auto && engineSides[side]) engineMove(my);
  else if (settings.analysisMode) analyse(my, null, "analyse");
  else if (settings.ponder && engineSides[other(side)] && !engineSides[side]) analyse(my, null, "ponder");
}

/**
 * A new game: the settings' rule and size, or a position's. The engine moves first
 * when it plays black, except in a position loaded to look at (`auto` false).
 * @param {{rule?: number, size?: number, moves?: Square[]}} [p]
 * @param {boolean} [auto]
 */
async function newGame(p = {}, auto = true) {
  await cancelTask();
  rule = p.rule ?? settings.rule;
  size = p.size ?? settings.size;
  tree = Tree.fromMoves(p.moves ?? []);
  engineSides = sidesOf(settings.engineSide);
  const minutes = settings.gameMinutes * 60000;
  clocks = { black: minutes, white: minutes, since: performance.now(), timeUp: null };
  last = { best: null, eval: null, winrate: null };
  swap2 = null;
  const oneEngine = engineSides.black !== engineSides.white;
  if (settings.opening === "swap2" && oneEngine && !p.moves?.length) {
    swap2 = engineSides.black ? null : { phase: "place3" };
    if (engineSides.black) {
      status = await engine.status({ rule, size, moves: [] });
      draw();
      await swap2Engine(++epoch);
      return;
    }
  }
  await changed(auto);
}

/** @param {Color} side @param {number} ms */
function chargeClock(side, ms) {
  if (settings.timeMode !== "game") return;
  clocks[side] -= ms;
  clocks.since = performance.now();
}

function tickClock() {
  const show = settings.timeMode === "game";
  $("clocks").hidden = !show;
  if (!show || !status) return;
  const running = status.winner || clocks.timeUp ? null : status.to_move;
  for (const side of /** @type {Color[]} */ (["black", "white"])) {
    let left = clocks[side];
    if (side === running) left -= performance.now() - clocks.since;
    if (left <= 0 && side === running && !engineSides[side]) {
      clocks.timeUp = side;
      say(`${side === "black" ? "Black" : "White"}'s time is up.`);
    }
    const s = Math.max(0, Math.ceil(left / 1000));
    $(`clock-${side}`).textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    $(`clock-${side}`).parentElement.classList.toggle("running", side === running);
  }
}

/** Loads a position string into the tree (keeping what is there). @param {string} text */
async function loadPos(text) {
  let m;
  try {
    m = parsePos(text, size);
  } catch (e) {
    return say(/** @type {Error} */ (e).message, true);
  }
  const st = await engine.status({ rule, size, moves: m });
  if (!st.ok || st.valid < m.length) {
    return say(`That position was not loaded: ${st.error}.`, true);
  }
  await cancelTask();
  tree.toStart();
  for (const sq of m) tree.play(sq);
  await changed(false);
}

async function loadHash() {
  const hash = location.hash.replace(/^#/, "");
  if (!hash) return false;
  let p;
  try {
    p = parseHash(hash);
  } catch (e) {
    say(`The URL's position was not loaded: ${/** @type {Error} */ (e).message}`, true);
    return false;
  }
  const st = await engine.status({ rule: p.rule, size: p.size, moves: p.moves });
  if (!st.ok || st.valid < p.moves.length) {
    say(`The URL's position was not loaded: ${st.error}.`, true);
    return false;
  }
  if (status && p.rule === rule && p.size === size && posString(moves(), size) === posString(p.moves, size)) return true;
  settings.rule = p.rule;
  settings.size = p.size;
  save();
  syncControls();
  await newGame(p, false);
  return true;
}

/** @param {(sq: Square) => Square} f */
async function transform(f) {
  const all = tree.all();
  const mapped = all.map((n) => f(/** @type {Square} */ (n.move)));
  if (mapped.some(([x, y]) => x < 0 || y < 0 || x >= size || y >= size)) {
    return say("The stones would leave the board.", true);
  }
  await cancelTask();
  all.forEach((n, i) => (n.move = mapped[i]));
  await changed(false);
}

async function undo() {
  await cancelTask();
  if (!tree.back()) return;
  const person = !engineSides.black || !engineSides.white;
  const st = await engine.status({ rule, size, moves: moves() });
  if (person && engineSides[st.to_move] && tree.current.parent) tree.back();
  swap2 = null;
  await changed(false);
}

/** @param {() => unknown} move */
async function navigate(move) {
  move();
  await changed(false);
}

// ---- the database ----------------------------------------------------------------

function positionKey() {
  return Database.positionKey(rule, size, posString(moves(), size));
}

/** Fills the comment from the database when the tree has none, and shows stored results. */
async function loadStored() {
  if (!db) return;
  const rec = await db.position(positionKey());
  if (rec && !tree.current.comment) tree.current.comment = rec.comment;
  $("summary").dataset.stored = rec?.best ? `Saved: best ${rec.best}, eval ${rec.eval}, depth ${rec.depth}` : "";
}

async function saveGame() {
  if (!db) return say("The database is not available in this browser.", true);
  const name = $("game-name").value.trim() || `Game ${new Date().toLocaleString()}`;
  await db.saveGame({ name, rule, size, date: Date.now(), tree: tree.toJSON() });
  say(`Saved the game "${name}".`);
  listDatabase();
}

async function savePosition() {
  if (!db) return say("The database is not available in this browser.", true);
  const pos = posString(moves(), size);
  const best = lines[0];
  await db.savePosition({
    key: positionKey(), rule, size, pos, moves: moves(), comment: tree.current.comment,
    best: best ? name(best.pv[0]) : null, eval: best ? best.eval : null, winrate: best ? best.winrate : null,
    depth: best ? best.depth : 0, lines: stateLines(), date: Date.now(),
  });
  say(`Saved the position ${pos || "(empty board)"}.`);
  listDatabase();
}

async function listDatabase() {
  if (!db) return;
  const games = await db.games();
  const positions = await db.positions();
  /**
   * @param {HTMLElement} list
   * @param {{label: string, open: () => void, remove: () => Promise<unknown>}[]} items
   */
  const fill = (list, items) => {
    list.replaceChildren();
    if (!items.length) list.append(Object.assign(document.createElement("li"), { textContent: "none yet", className: "muted" }));
    for (const item of items) {
      const li = document.createElement("li");
      const open = Object.assign(document.createElement("button"), { textContent: item.label, className: "link" });
      open.onclick = item.open;
      const del = Object.assign(document.createElement("button"), { textContent: "✕", title: "Delete" });
      del.onclick = async () => {
        await item.remove();
        listDatabase();
      };
      li.append(open, del);
      list.append(li);
    }
  };
  fill($("games"), games.map((g) => ({
    label: `${g.name} · ${RULE_NAMES[/** @type {0 | 1 | 4} */ (g.rule)] ?? g.rule} ${g.size}x${g.size}`,
    open: () => openGame(g),
    remove: () => db.deleteGame(/** @type {number} */ (g.id)),
  })));
  fill($("positions"), positions.map((p) => ({
    label: `${p.pos || "(empty)"} ${p.best ? `· ${p.best} ${p.eval}` : ""} ${p.comment ? `· ${p.comment.slice(0, 30)}` : ""}`,
    open: () => openPosition(p),
    remove: () => db.deletePosition(p.key),
  })));
}

/** @param {import("./db.js").GameRecord} g */
async function openGame(g) {
  await cancelTask();
  rule = g.rule;
  size = g.size;
  settings.rule = rule;
  settings.size = size;
  save();
  syncControls();
  tree = Tree.fromJSON(g.tree);
  swap2 = null;
  $("game-name").value = g.name;
  say(`Opened "${g.name}".`);
  await changed(false);
}

/** @param {import("./db.js").PositionRecord} p */
async function openPosition(p) {
  if (p.rule !== rule || p.size !== size) {
    await cancelTask();
    rule = settings.rule = p.rule;
    size = settings.size = p.size;
    save();
    syncControls();
    tree = new Tree();
  }
  await cancelTask();
  tree.toStart();
  for (const m of p.moves) tree.play(m);
  await changed(false);
}

/** @param {string} filename @param {Blob} blob */
function download(filename, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function exportLib(all) {
  try {
    let games = [{ name: "", tree }];
    let positions = /** @type {import("./db.js").PositionRecord[]} */ ([]);
    let left = 0;
    if (all) {
      if (!db) return say("The database is not available in this browser.", true);
      const stored = await db.games();
      games = stored.filter((g) => g.size === 15).map((g) => ({ name: g.name, tree: Tree.fromJSON(g.tree) }));
      const storedPositions = await db.positions();
      positions = storedPositions.filter((p) => p.size === 15);
      left = stored.length - games.length + storedPositions.length - positions.length;
    } else if (size !== 15) {
      return say("RenLib files hold 15x15 boards only.", true);
    }
    const bytes = await engine.renlibWrite(toLibNodes(games, positions));
    const file = all ? "fivefold" : $("game-name").value.trim().replace(/[^\w.-]+/g, "_") || "game";
    download(`${file}.lib`, new Blob([bytes]));
    say(`Exported ${games.length} game(s) and ${positions.length} position(s)` + (left ? `; ${left} not 15x15 left out.` : "."));
  } catch (e) {
    say(`Export failed: ${/** @type {Error} */ (e).message}`, true);
  }
}

/** @param {File} file */
async function importLib(file) {
  const r = await engine.renlibRead(new Uint8Array(await file.arrayBuffer()));
  if (!r.ok || !r.nodes) return say(`${file.name} was not imported: ${r.error}`, true);
  const { tree: imported, skipped } = fromLibNodes(r.nodes);
  const gameName = file.name.replace(/\.lib$/i, "");
  const libRule = rule;
  if (db) {
    await db.saveGame({ name: gameName, rule: libRule, size: 15, date: Date.now(), tree: imported.toJSON() });
    for (const p of commentedPositions(imported, libRule)) {
      const old = await db.position(p.key);
      await db.savePosition(old ? { ...old, comment: old.comment || p.comment } : p);
    }
  }
  await openGame({ name: gameName, rule: libRule, size: 15, date: Date.now(), tree: imported.toJSON() });
  say(`Imported ${file.name}: ${imported.all().length} moves` + (skipped ? `, ${skipped} nodes after a pass left out.` : "."));
  listDatabase();
}

// ---- drawing ---------------------------------------------------------------------

let drawQueued = false;
function scheduleDraw() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(() => {
    drawQueued = false;
    draw();
  });
}

function stateLines() {
  return lines.filter(Boolean).map((l) => ({
    move: name(l.pv[0]), eval: l.eval, winrate: l.winrate, pv: l.pv.map(name),
    depth: l.depth, nodes: l.nodes, speed: l.speed,
  }));
}

function draw() {
  const path = moves();
  const st = status;
  const shown = settings.showLines ? lines.filter(Boolean) : [];
  board.update({
    size,
    numbers: settings.numbers,
    coords: settings.coords,
    stones: path.map((sq, i) => ({ sq, color: colorOf(i), number: i + 1 })),
    last: path[path.length - 1] ?? null,
    forbidden: st?.forbidden ?? [],
    five: st?.five ?? [],
    labels: shown.map((l) => ({ sq: l.pv[0], text: labelText(l, settings.labelKind === "eval" ? "eval" : "winrate"), best: l.index === 0, tone: l.winrate })),
    preview: preview.map((sq, i) => ({ sq, color: colorOf(path.length + i), number: i + 1 })),
    hover: !task && hover ? hover : null,
    hoverColor: st && !st.winner ? st.to_move : null,
  });

  const thinking = task ? { move: "Fivefold is thinking…", analyse: "analysing…", ponder: "pondering…", balance: "balancing…", swap2: "Fivefold is choosing…" }[task.kind] : "";
  const turn = !st ? "" : st.winner ? (st.winner === "draw" ? "Draw" : `${st.winner === "black" ? "Black" : "White"} wins`) : `${st.to_move === "black" ? "Black" : "White"} to move`;
  $("status-line").textContent = `${RULE_NAMES[/** @type {0 | 1 | 4} */ (rule)]} ${size}x${size} · move ${path.length + 1} · ${turn}${thinking ? " · " + thinking : ""}`;

  const l0 = lines[0];
  $("summary").textContent = l0
    ? `depth ${l0.depth} · eval ${l0.eval} · win ${(l0.winrate * 100).toFixed(1)}% · ${fmtCount(l0.nodes)} nodes · ${fmtCount(l0.speed)}/s`
    : $("summary").dataset.stored ?? "";
  const list = $("lines");
  list.replaceChildren();
  for (const l of lines.filter(Boolean)) {
    const li = document.createElement("li");
    li.textContent = `${labelText(l, "eval")} (${Math.round(l.winrate * 100)}%) d${l.depth}: ${l.pv.map(name).join(" ")}`;
    li.tabIndex = 0;
    li.onclick = () => {
      preview = preview[0] === l.pv[0] ? [] : l.pv;
      draw();
    };
    list.append(li);
  }

  const line = tree.line();
  graph.update([tree.root, ...line].map((n) => n.analysis?.winrate ?? null), path.length);

  const pos = posString(path, size);
  if (document.activeElement !== $("pos")) $("pos").value = pos;
  const hash = formatHash({ rule, size, moves: path });
  if (status && location.hash.replace(/^#/, "") !== hash) history.replaceState(null, "", hash ? `#${hash}` : location.pathname);
  if (document.activeElement !== $("comment")) $("comment").value = tree.current.comment;

  const vars = $("variations");
  vars.replaceChildren();
  const next = tree.current.children;
  const here = tree.current.parent?.children ?? [];
  /** @param {string} label @param {import("./tree.js").Node[]} nodes @param {import("./tree.js").Node | null} marked */
  const branch = (label, nodes, marked) => {
    vars.append(Object.assign(document.createElement("span"), { textContent: label, className: "muted" }));
    for (const c of nodes) {
      const b = document.createElement("button");
      b.textContent = name(/** @type {Square} */ (c.move)) + (c.text ? ` ${c.text}` : "");
      b.classList.toggle("primary", c === marked);
      b.onclick = () => navigate(() => tree.goTo(c));
      vars.append(b);
    }
  };
  if (here.length > 1) branch(`Move ${path.length}:`, here, tree.current);
  if (next.length > 1 || next.some((c) => c.text)) branch("Next:", next, tree.current.lastChild ?? next[0]);
  $("back").disabled = $("to-start").disabled = !tree.current.parent;
  $("forward").disabled = $("to-end").disabled = !next.length;
  $("stop").disabled = !task;
  showSwap2();
  tickClock();
}

/** @param {number} n */
function fmtCount(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)}K` : String(n);
}

/** @param {Square | null} sq */
function onHover(sq) {
  hover = sq;
  const l = sq && lines.find((x) => x && x.pv[0][0] === sq[0] && x.pv[0][1] === sq[1]);
  preview = l ? l.pv : [];
  scheduleDraw();
}

// ---- controls --------------------------------------------------------------------

function syncControls() {
  const sizes = $("size");
  if (!sizes.options.length) {
    for (let n = MIN_SIZE; n <= MAX_SIZE; n++) sizes.append(new Option(`${n}x${n}`, String(n)));
  }
  $("rule").value = String(settings.rule);
  sizes.value = String(settings.size);
  $("engine-side").value = settings.engineSide;
  $("opening").value = settings.opening;
  $("time-mode").value = settings.timeMode;
  $("move-time").value = settings.moveSeconds;
  $("game-time").value = settings.gameMinutes;
  $("max-depth").value = settings.maxDepth;
  $("max-node").value = settings.maxNode;
  $("strength").value = settings.strength;
  $("multipv").value = settings.multipv;
  $("label-kind").value = settings.labelKind;
  $("analysis-mode").checked = settings.analysisMode;
  $("ponder").checked = settings.ponder;
  $("show-lines").checked = settings.showLines;
  $("numbers").checked = settings.numbers;
  $("coords").checked = settings.coords;
  $("move-time-label").hidden = settings.timeMode !== "move";
  $("game-time-label").hidden = settings.timeMode !== "game";
}

/**
 * A number input bound to a setting, held to its range.
 * @param {string} id @param {keyof typeof settings} key @param {number} lo @param {number} hi
 * @param {() => void} [then]
 */
function bindNumber(id, key, lo, hi, then) {
  $(id).addEventListener("change", () => {
    const v = Number($(id).value);
    if (!Number.isFinite(v)) {
      $(id).value = settings[key];
      return say(`${$(id).value} is not a number.`, true);
    }
    /** @type {any} */ (settings)[key] = Math.min(hi, Math.max(lo, v));
    $(id).value = settings[key];
    save();
    then?.();
  });
}

/**
 * @param {string} id @param {keyof typeof settings} key @param {() => void} [then]
 */
function bindCheck(id, key, then) {
  $(id).addEventListener("change", () => {
    /** @type {any} */ (settings)[key] = $(id).checked;
    save();
    then?.();
  });
}

function wireControls() {
  $("rule").onchange = () => {
    settings.rule = Number($("rule").value);
    save();
    // keep the moves where they are legal under the new rule
    rule = settings.rule;
    tree = Tree.fromMoves(moves());
    changed(false);
  };
  $("size").onchange = () => {
    settings.size = Number($("size").value);
    save();
    newGame();
  };
  $("engine-side").onchange = () => {
    settings.engineSide = $("engine-side").value;
    engineSides = sidesOf(settings.engineSide);
    save();
    if (!swap2) changed(true);
  };
  $("opening").onchange = () => {
    settings.opening = $("opening").value;
    save();
  };
  $("time-mode").onchange = () => {
    settings.timeMode = $("time-mode").value;
    save();
    syncControls();
    draw();
  };
  bindNumber("move-time", "moveSeconds", 0.1, 3600);
  bindNumber("game-time", "gameMinutes", 0.5, 600);
  bindNumber("max-depth", "maxDepth", 0, 100);
  bindNumber("max-node", "maxNode", 0, 1e12);
  bindNumber("strength", "strength", 0, 100);
  bindNumber("multipv", "multipv", 1, 64);
  $("label-kind").onchange = () => {
    settings.labelKind = $("label-kind").value;
    save();
    draw();
  };
  bindCheck("analysis-mode", "analysisMode", () => {
    if (settings.analysisMode && !task) changed(false);
    else if (!settings.analysisMode && task?.kind === "analyse") cancelTask();
  });
  bindCheck("ponder", "ponder", () => {
    if (!settings.ponder && task?.kind === "ponder") cancelTask();
    else if (!task) changed(false);
  });
  bindCheck("show-lines", "showLines", draw);
  bindCheck("numbers", "numbers", draw);
  bindCheck("coords", "coords", draw);

  $("new-game").onclick = () => newGame();
  $("to-start").onclick = () => navigate(() => tree.toStart());
  $("back").onclick = () => navigate(() => tree.back());
  $("forward").onclick = () => navigate(() => tree.forward());
  $("to-end").onclick = () => navigate(() => tree.toEnd());
  $("undo").onclick = () => undo();
  $("stop").onclick = () => stopEngine();
  $("think").onclick = async () => {
    if (!status || status.winner) return say("The game is over.");
    await cancelTask();
    swap2 = null;
    engineMove(++epoch);
  };
  $("analyse").onclick = async () => {
    await cancelTask();
    analyse(++epoch, null, "analyse");
  };
  $("balance-one").onclick = () => balance(1);
  $("balance-two").onclick = () => balance(2);

  $("pos-load").onclick = () => loadPos($("pos").value);
  $("pos").addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => e.key === "Enter" && loadPos($("pos").value));
  $("pos-copy").onclick = async () => {
    const text = posString(moves(), size);
    try {
      await navigator.clipboard.writeText(text);
      say(`Copied ${text || "(empty board)"}.`);
    } catch {
      $("pos").select();
      say("Copying was refused; the position is selected for you to copy.");
    }
  };
  const n = () => size - 1;
  $("rotate").onclick = () => transform(([x, y]) => [n() - y, x]);
  $("flip-h").onclick = () => transform(([x, y]) => [n() - x, y]);
  $("flip-v").onclick = () => transform(([x, y]) => [x, n() - y]);
  $("shift-left").onclick = () => transform(([x, y]) => [x - 1, y]);
  $("shift-right").onclick = () => transform(([x, y]) => [x + 1, y]);
  $("shift-up").onclick = () => transform(([x, y]) => [x, y - 1]);
  $("shift-down").onclick = () => transform(([x, y]) => [x, y + 1]);
  $("png").onclick = async () => download(`fivefold-${posString(moves(), size) || "empty"}.png`, await board.toPNG(PNG_SIZE));
  $("comment").addEventListener("input", () => (tree.current.comment = $("comment").value));

  $("save-game").onclick = () => saveGame();
  $("save-position").onclick = () => savePosition();
  $("export-lib").onclick = () => exportLib(true);
  $("export-game-lib").onclick = () => exportLib(false);
  $("import-lib").onchange = async () => {
    const file = $("import-lib").files[0];
    $("import-lib").value = "";
    if (file) await importLib(file);
  };

  window.addEventListener("hashchange", () => loadHash());
  document.addEventListener("keydown", (e) => {
    if (/** @type {HTMLElement} */ (e.target).closest("input, textarea, select")) return;
    if (e.key === "ArrowLeft") navigate(() => tree.back());
    else if (e.key === "ArrowRight") navigate(() => tree.forward());
    else if (e.key === "Home") navigate(() => tree.toStart());
    else if (e.key === "End") navigate(() => tree.toEnd());
    else if (e.key === "Escape") stopEngine();
    else if (e.key === "z" && (e.ctrlKey || e.metaKey)) undo();
    else return;
    e.preventDefault();
  });
  setInterval(tickClock, 250);
}

// ---- start -----------------------------------------------------------------------

/** The interface the browser test drives (see web/README.md). */
function testInterface(/** @type {Promise<void>} */ ready) {
  return {
    ready,
    state() {
      const st = status;
      return {
        pos: posString(moves(), size),
        rule,
        size,
        toMove: st?.to_move ?? "black",
        over: !!st?.winner,
        winner: st?.winner ?? null,
        best: last.best && name(last.best),
        eval: last.eval,
        winrate: last.winrate,
        lines: settings.showLines ? stateLines() : [],
        forbidden: (st?.forbidden ?? []).map(name),
        engine: { ...engineSides },
        thinking: task !== null,
        isolated: engine ? engine.isolated : false,
        threads: engine ? engine.threads : 1,
        moves: tree.current.nodes().map((n) => ({ move: name(/** @type {Square} */ (n.move)), by: n.by, ms: n.ms })),
      };
    },
    /** @param {number} ms */
    async analyse(ms) {
      await cancelTask();
      return analyse(++epoch, ms, "analyse");
    },
    /** @param {{rule?: number, size?: number, engineBlack?: boolean, engineWhite?: boolean, moveMs?: number}} o */
    async newGame(o = {}) {
      if (o.rule !== undefined) settings.rule = o.rule;
      if (o.size !== undefined) settings.size = o.size;
      if (o.engineBlack !== undefined || o.engineWhite !== undefined) {
        engineSides = { black: !!(o.engineBlack ?? engineSides.black), white: !!(o.engineWhite ?? engineSides.white) };
        settings.engineSide = sideName();
      }
      if (o.moveMs !== undefined) {
        settings.timeMode = "move";
        settings.moveSeconds = o.moveMs / 1000;
      }
      save();
      syncControls();
      await newGame();
      await this.waitEngine();
    },
    /** @param {string} sqName */
    squareCenter(sqName) {
      const sq = parseSquare(sqName, size);
      if (!sq) throw new Error(`${sqName} is not a square of the board`);
      return board.squareCenter(sq);
    },
    waitEngine() {
      return new Promise((resolve) => {
        idleWaiters.push(() => resolve(undefined));
        settle();
      });
    },
    stop: () => stopEngine(),
    message: () => lastMessage,
  };
}

/** A module of one function using a 128-bit SIMD instruction: valid where SIMD runs. */
const SIMD_PROBE = new Uint8Array([
  0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, // magic, version
  1, 5, 1, 0x60, 0, 1, 0x7b, // a type: () -> v128
  3, 2, 1, 0, // a function of that type
  0x0a, 8, 1, 6, 0, 0x41, 0, 0xfd, 0x0f, 0x0b, // its body: i32.const 0, i8x16.splat
]);

/**
 * The engine builds to try, best first: with threads where the page is cross-origin
 * isolated (shared memory needs it), with SIMD where the browser has it, then the plain one.
 */
function wasmFiles() {
  const simd = WebAssembly.validate(SIMD_PROBE);
  const threads = simd && globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === "function";
  const files = [...(threads ? ["fivefold-threads.wasm"] : []), ...(simd ? ["fivefold-simd.wasm"] : []), "fivefold.wasm"];
  return files.map((f) => new URL(f, import.meta.url).href);
}

async function start() {
  syncControls();
  wireControls();
  draw();
  try {
    db = await Database.open();
  } catch {
    say("The database is not available in this browser (IndexedDB refused); play and analysis still work.", true);
  }
  engine = await Engine.load(wasmFiles(), (error) => say(`Engine error: ${error}`, true));
  engine.setSize(size);
  engine.setInfo({ show_detail: 2, rule, thread_num: engine.threads });
  $("engine-info").textContent = `${engine.file} · ${engine.threads} thread${engine.threads > 1 ? "s" : ""} · ${engine.isolated ? "cross-origin isolated: shared-memory stop" : "not isolated: stop restarts the worker"}`;
  if (!(await loadHash())) await newGame();
  listDatabase();
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register("sw.js").catch((e) => say(`Offline use is not available: ${e.message}`));
    // The engine loaded before the service worker controlled the page: fetch it once
    // through the worker, which keeps it for offline use.
    const keepEngine = () => fetch(new URL(engine.file, import.meta.url)).catch(() => {});
    if (navigator.serviceWorker.controller) keepEngine();
    else navigator.serviceWorker.addEventListener("controllerchange", keepEngine, { once: true });
  }
}

const ready = start().catch((e) => {
  say(`The engine could not be loaded: ${e.message}`, true);
  $("engine-info").textContent = "engine not loaded";
  throw e;
});
/** @type {any} */ (window).fivefold = testInterface(ready.then(() => undefined));
