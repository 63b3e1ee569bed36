// The evaluation graph: black's win rate after every move of the line shown, as the
// engine found it; a click jumps to that move.

export class Graph {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(ply: number) => void} onPick
   */
  constructor(canvas, onPick) {
    this.canvas = canvas;
    /** @type {(number | null)[]} black's win rate per ply, from 0 (the empty board) */
    this.points = [];
    this.current = 0;
    canvas.addEventListener("click", (e) => {
      const rect = canvas.getBoundingClientRect();
      const n = Math.max(1, this.points.length - 1);
      onPick(Math.round(((e.clientX - rect.left) / rect.width) * n));
    });
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  /** @param {(number | null)[]} points @param {number} current */
  update(points, current) {
    this.points = points;
    this.current = current;
    this.draw();
  }

  draw() {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(rect.width * dpr));
    const h = Math.max(1, Math.round(rect.height * dpr));
    this.canvas.width = w;
    this.canvas.height = h;
    const ctx = /** @type {CanvasRenderingContext2D} */ (this.canvas.getContext("2d"));
    ctx.fillStyle = "#f6f1e7";
    ctx.fillRect(0, 0, w, h);
    ctx.strokeStyle = "#c9bda5";
    ctx.lineWidth = dpr;
    ctx.beginPath();
    ctx.moveTo(0, h / 2);
    ctx.lineTo(w, h / 2);
    ctx.stroke();
    const n = Math.max(1, this.points.length - 1);
    /** @param {number} i */
    const px = (i) => (i / n) * w;
    /** @param {number} v */
    const py = (v) => (1 - v) * h;

    ctx.fillStyle = "rgba(20, 20, 20, 0.75)";
    // the area under black's win rate, over the plies that have one
    const known = this.points.flatMap((v, i) => (v === null ? [] : [[px(i), py(v)]]));
    if (known.length) {
      ctx.beginPath();
      ctx.moveTo(known[0][0], h);
      for (const [x, y] of known) ctx.lineTo(x, y);
      ctx.lineTo(known[known.length - 1][0], h);
      ctx.closePath();
      ctx.fill();
    }
    ctx.strokeStyle = "#e0262c";
    ctx.lineWidth = 2 * dpr;
    ctx.beginPath();
    ctx.moveTo(px(this.current), 0);
    ctx.lineTo(px(this.current), h);
    ctx.stroke();
  }
}
