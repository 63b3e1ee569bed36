// The board: drawing on a <canvas> and turning pointer positions into squares.
// render() draws a model on any 2D context at any size, so the PNG export draws the
// same picture as the screen.

/** @typedef {import("./notation.js").Square} Square */

/**
 * @typedef {{sq: Square, color: "black" | "white", number: number}} Stone
 * @typedef {{sq: Square, text: string, best: boolean, tone: number}} Label tone: 0 lost to 1 won
 * @typedef {{
 *   size: number, stones: Stone[], last: Square | null, forbidden: Square[],
 *   five: Square[], labels: Label[], preview: Stone[], numbers: boolean,
 *   coords: boolean, hover: Square | null, hoverColor: "black" | "white" | null
 * }} Model
 */

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** @param {number} size */
function starPoints(size) {
  if (size < 9) return [];
  const edge = size >= 13 ? 3 : 2;
  const far = size - 1 - edge;
  const pts = [[edge, edge], [edge, far], [far, edge], [far, far]];
  if (size % 2 === 1) pts.push([(size - 1) / 2, (size - 1) / 2]);
  return pts;
}

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} px the picture's side in its own units
 * @param {Model} m
 */
export function render(ctx, px, m) {
  const n = m.size;
  const cell = px / (n + 1);
  /** @param {number} i */
  const at = (i) => cell * (i + 1);
  ctx.fillStyle = "#dcb46a";
  ctx.fillRect(0, 0, px, px);

  ctx.strokeStyle = "#4a3718";
  ctx.lineWidth = Math.max(1, cell / 30);
  ctx.beginPath();
  for (let i = 0; i < n; i++) {
    ctx.moveTo(at(0), at(i));
    ctx.lineTo(at(n - 1), at(i));
    ctx.moveTo(at(i), at(0));
    ctx.lineTo(at(i), at(n - 1));
  }
  ctx.stroke();
  ctx.fillStyle = "#4a3718";
  for (const [x, y] of starPoints(n)) {
    ctx.beginPath();
    ctx.arc(at(x), at(y), cell * 0.09, 0, Math.PI * 2);
    ctx.fill();
  }

  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  if (m.coords) {
    ctx.fillStyle = "#4a3718";
    ctx.font = `${cell * 0.36}px system-ui, sans-serif`;
    for (let i = 0; i < n; i++) {
      ctx.fillText(LETTERS[i], at(i), cell * 0.42);
      ctx.fillText(LETTERS[i], at(i), px - cell * 0.42);
      ctx.fillText(String(n - i), cell * 0.42, at(i));
      ctx.fillText(String(n - i), px - cell * 0.42, at(i));
    }
  }

  for (const [x, y] of m.forbidden) {
    const r = cell * 0.22;
    ctx.strokeStyle = "#c0181e";
    ctx.lineWidth = cell * 0.08;
    ctx.beginPath();
    ctx.moveTo(at(x) - r, at(y) - r);
    ctx.lineTo(at(x) + r, at(y) + r);
    ctx.moveTo(at(x) + r, at(y) - r);
    ctx.lineTo(at(x) - r, at(y) + r);
    ctx.stroke();
  }

  for (const s of m.stones) drawStone(ctx, cell, at(s.sq[0]), at(s.sq[1]), s.color, m.numbers ? s.number : 0, 1);

  if (m.last) {
    const [x, y] = m.last;
    const top = m.stones.find((s) => s.sq[0] === x && s.sq[1] === y);
    ctx.fillStyle = "#e0262c";
    if (!m.numbers || !top) {
      ctx.beginPath();
      ctx.arc(at(x), at(y), cell * 0.12, 0, Math.PI * 2);
      ctx.fill();
    } else {
      ctx.strokeStyle = "#e0262c";
      ctx.lineWidth = cell * 0.07;
      ctx.beginPath();
      ctx.arc(at(x), at(y), cell * 0.47, 0, Math.PI * 2);
      ctx.stroke();
    }
  }

  if (m.five.length) {
    ctx.strokeStyle = "rgba(224, 38, 44, 0.85)";
    ctx.lineWidth = cell * 0.12;
    ctx.lineCap = "round";
    ctx.beginPath();
    const [a, b] = [m.five[0], m.five[m.five.length - 1]];
    ctx.moveTo(at(a[0]), at(a[1]));
    ctx.lineTo(at(b[0]), at(b[1]));
    ctx.stroke();
    ctx.lineCap = "butt";
  }

  if (m.preview.length) {
    for (const s of m.preview) drawStone(ctx, cell, at(s.sq[0]), at(s.sq[1]), s.color, s.number, 0.72);
  } else {
    for (const l of m.labels) drawLabel(ctx, cell, at(l.sq[0]), at(l.sq[1]), l);
  }

  if (m.hover && m.hoverColor && !m.preview.length) {
    drawStone(ctx, cell, at(m.hover[0]), at(m.hover[1]), m.hoverColor, 0, 0.35);
  }
}

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} cell
 * @param {number} cx
 * @param {number} cy
 * @param {"black" | "white"} color
 * @param {number} number 0 for none
 * @param {number} alpha
 */
function drawStone(ctx, cell, cx, cy, color, number, alpha) {
  const r = cell * 0.46;
  ctx.globalAlpha = alpha;
  const g = ctx.createRadialGradient(cx - r * 0.35, cy - r * 0.35, r * 0.1, cx, cy, r);
  if (color === "black") {
    g.addColorStop(0, "#5a5a5a");
    g.addColorStop(1, "#0c0c0c");
  } else {
    g.addColorStop(0, "#ffffff");
    g.addColorStop(1, "#cfcfcf");
  }
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fill();
  if (color === "white") {
    ctx.strokeStyle = "#777";
    ctx.lineWidth = Math.max(1, cell / 40);
    ctx.stroke();
  }
  if (number > 0) {
    ctx.fillStyle = color === "black" ? "#fff" : "#111";
    ctx.font = `${number > 99 ? cell * 0.32 : cell * 0.4}px system-ui, sans-serif`;
    ctx.fillText(String(number), cx, cy + cell * 0.02);
  }
  ctx.globalAlpha = 1;
}

/**
 * An analysis label: a disc coloured from red (lost) through yellow to green (won) for
 * the side to move, the best one ringed.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} cell
 * @param {number} cx
 * @param {number} cy
 * @param {Label} l
 */
function drawLabel(ctx, cell, cx, cy, l) {
  const hue = Math.round(120 * Math.min(1, Math.max(0, l.tone)));
  ctx.fillStyle = `hsla(${hue}, 75%, 45%, 0.9)`;
  ctx.beginPath();
  ctx.arc(cx, cy, cell * 0.44, 0, Math.PI * 2);
  ctx.fill();
  if (l.best) {
    ctx.strokeStyle = "#1c3fd1";
    ctx.lineWidth = cell * 0.08;
    ctx.stroke();
  }
  ctx.fillStyle = "#fff";
  ctx.font = `bold ${l.text.length > 3 ? cell * 0.3 : cell * 0.38}px system-ui, sans-serif`;
  ctx.fillText(l.text, cx, cy + cell * 0.02);
}

export class BoardView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {{onClick: (sq: Square) => void, onHover: (sq: Square | null) => void}} handlers
   */
  constructor(canvas, handlers) {
    this.canvas = canvas;
    /** @type {Model} */
    this.model = {
      size: 15, stones: [], last: null, forbidden: [], five: [], labels: [], preview: [],
      numbers: true, coords: true, hover: null, hoverColor: null,
    };
    canvas.addEventListener("click", (e) => {
      const sq = this.squareAt(e.clientX, e.clientY);
      if (sq) handlers.onClick(sq);
    });
    canvas.addEventListener("pointermove", (e) => {
      if (e.pointerType !== "mouse") return;
      handlers.onHover(this.squareAt(e.clientX, e.clientY));
    });
    canvas.addEventListener("pointerleave", () => handlers.onHover(null));
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  /** @param {Partial<Model>} changes */
  update(changes) {
    Object.assign(this.model, changes);
    this.draw();
  }

  draw() {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const px = Math.max(1, Math.round(rect.width * dpr));
    if (this.canvas.width !== px || this.canvas.height !== px) {
      this.canvas.width = px;
      this.canvas.height = px;
    }
    const ctx = /** @type {CanvasRenderingContext2D} */ (this.canvas.getContext("2d"));
    render(ctx, px, this.model);
  }

  /** @returns {Square | null} */
  squareAt(/** @type {number} */ clientX, /** @type {number} */ clientY) {
    const rect = this.canvas.getBoundingClientRect();
    const cell = rect.width / (this.model.size + 1);
    const x = Math.round((clientX - rect.left) / cell) - 1;
    const y = Math.round((clientY - rect.top) / cell) - 1;
    if (x < 0 || y < 0 || x >= this.model.size || y >= this.model.size) return null;
    return [x, y];
  }

  /** The client coordinates of a square's centre. @param {Square} sq */
  squareCenter([x, y]) {
    const rect = this.canvas.getBoundingClientRect();
    const cell = rect.width / (this.model.size + 1);
    return { x: rect.left + cell * (x + 1), y: rect.top + cell * (y + 1) };
  }

  /** The board as a PNG, labels and all. @param {number} px @returns {Promise<Blob>} */
  toPNG(px) {
    const canvas = document.createElement("canvas");
    canvas.width = px;
    canvas.height = px;
    render(/** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d")), px, { ...this.model, hover: null });
    return new Promise((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("the picture could not be made"))), "image/png"),
    );
  }
}
