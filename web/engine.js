// The page's side of the engine: two workers running fivefold.wasm from one compiled
// module. The search worker holds the protocol session (settings, the transposition
// table) and runs one job of protocol lines at a time; the rules worker answers the
// typed calls (legality, forbidden points, RenLib files) at once, even while a search
// runs.
//
// Stopping a search: where the page is cross-origin isolated, a SharedArrayBuffer flag
// the engine polls (it then answers with its best move, as after STOP). Elsewhere the
// search worker is ended and a fresh one started from the compiled module, with the
// session's setup lines (START, INFO …) sent again.

/**
 * @typedef {{lines: string[], stopped: boolean}} JobResult what a job wrote, and
 *   whether stop() cut it short
 */

const WORKER_URL = new URL("./worker.js", import.meta.url);

class Job {
  /**
   * @param {number} id
   * @param {string[]} lines
   * @param {(line: string) => void} onLine
   */
  constructor(id, lines, onLine) {
    this.id = id;
    this.lines = lines;
    this.onLine = onLine;
    /** @type {string[]} */
    this.output = [];
    this.stopped = false;
    /** @type {number | null} a bench job's depth; null for protocol lines */
    this.bench = null;
    /** @type {(r: JobResult) => void} */
    this.resolve = () => {};
    /** @type {(e: Error) => void} */
    this.reject = () => {};
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }
}

export class Engine {
  /**
   * @param {WebAssembly.Module} module
   * @param {(error: string) => void} onFail told when a worker fails
   */
  constructor(module, onFail) {
    this.module = module;
    this.onFail = onFail;
    this.isolated = globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === "function";
    this.threads = 1;
    /** the build's file name */
    this.file = "";
    this.stopFlag = this.isolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
    /** @type {string | null} the START line of the session */
    this.startLine = null;
    /** @type {Map<string, string>} INFO key -> value, as sent */
    this.infos = new Map();
    /** @type {Job[]} */
    this.queue = [];
    /** @type {Job | null} */
    this.running = null;
    this.nextJob = 1;
    this.nextCall = 1;
    /** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void}>} */
    this.calls = new Map();
    /** helper threads asked of a threads build (its search worker starts them) */
    this.helpers = Engine.helpersWanted(module);
    this.search = this.spawnSearch();
    this.rules = this.spawn((msg) => this.onRules(msg), 0);
    this.rulesReady = new Promise((resolve) => (this.onRulesReady = resolve));
    this.ready = Promise.all([this.searchReady, this.rulesReady]);
  }

  /**
   * Compiles the first of the engine builds that loads, and starts its workers.
   * @param {string[]} urls
   * @param {(error: string) => void} onFail
   */
  static async load(urls, onFail) {
    const failures = [];
    for (const url of urls) {
      try {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
        const module = await WebAssembly.compile(await response.arrayBuffer());
        const engine = new Engine(module, onFail);
        engine.file = url.slice(url.lastIndexOf("/") + 1);
        await engine.ready;
        return engine;
      } catch (e) {
        failures.push(`${url.slice(url.lastIndexOf("/") + 1)}: ${/** @type {Error} */ (e).message}`);
      }
    }
    throw new Error(failures.join("; "));
  }

  /**
   * The helper threads to start with a module: none for a build without shared memory
   * (or a page not cross-origin isolated, where it cannot run); else one fewer than the
   * browser's cores, at most 7.
   * @param {WebAssembly.Module} module
   */
  static helpersWanted(module) {
    const threaded = WebAssembly.Module.imports(module).some((i) => i.kind === "memory");
    if (!threaded || globalThis.crossOriginIsolated !== true) return 0;
    return Math.min(Math.max((navigator.hardwareConcurrency || 1) - 1, 0), 7);
  }

  /**
   * @param {(msg: any) => void} onMessage
   * @param {number} helpers helper threads the worker starts (threads build only)
   */
  spawn(onMessage, helpers) {
    const worker = new Worker(WORKER_URL);
    worker.onmessage = (e) => onMessage(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      this.onFail(e.message || "the engine worker failed to start");
    };
    worker.postMessage({ type: "init", module: this.module, stop: this.stopFlag?.buffer ?? null, helpers });
    return worker;
  }

  spawnSearch() {
    this.searchReady = new Promise((resolve) => (this.onSearchReady = resolve));
    return this.spawn((msg) => this.onSearch(msg), this.helpers);
  }

  /** @param {any} msg */
  onSearch(msg) {
    const job = this.running;
    if (msg.type === "ready") {
      this.threads = 1 + msg.helpers;
      this.onSearchReady();
    }
    else if (msg.type === "fail" && msg.job === undefined) this.onFail(msg.error);
    else if (!job || msg.job !== job.id) return; // a job replayed setup, or one already cut off
    else if (msg.type === "line") {
      job.output.push(msg.text);
      job.onLine(msg.text);
    } else if (msg.type === "done") this.finish({ lines: job.output, stopped: job.stopped });
    else if (msg.type === "fail") {
      this.running = null;
      job.reject(new Error(msg.error));
      this.pump();
    }
  }

  /** @param {any} msg */
  onRules(msg) {
    if (msg.type === "ready") return this.onRulesReady();
    const call = this.calls.get(msg.id);
    if (!call) return msg.type === "fail" && this.onFail(msg.error);
    this.calls.delete(msg.id);
    if (msg.type === "fail") call.reject(new Error(msg.error));
    else call.resolve({ code: msg.code, bytes: msg.bytes });
  }

  /** @param {JobResult} result */
  finish(result) {
    const job = /** @type {Job} */ (this.running);
    this.running = null;
    job.resolve(result);
    this.pump();
  }

  pump() {
    if (this.running || !this.queue.length) return;
    const job = /** @type {Job} */ (this.queue.shift());
    this.running = job;
    if (job.bench === null) this.search.postMessage({ type: "lines", job: job.id, lines: job.lines });
    else this.search.postMessage({ type: "bench", job: job.id, depth: job.bench });
  }

  /**
   * Sends protocol lines as one job, after those queued before.
   * @param {string[]} lines
   * @param {(line: string) => void} [onLine] each line the engine writes, as it comes
   * @returns {Promise<JobResult>}
   */
  run(lines, onLine = () => {}) {
    const job = new Job(this.nextJob++, lines, onLine);
    this.queue.push(job);
    this.pump();
    return job.done;
  }

  /**
   * Runs the engine's bench positions (depth 0: the default) after the jobs queued.
   * @param {number} depth
   * @param {(line: string) => void} [onLine]
   */
  bench(depth, onLine = () => {}) {
    const job = new Job(this.nextJob++, [], onLine);
    job.bench = depth;
    this.queue.push(job);
    this.pump();
    return job.done;
  }

  /** The session's board size: START n, sent when it changes. @param {number} size */
  setSize(size) {
    const line = `START ${size}`;
    if (this.startLine === line) return;
    this.startLine = line;
    this.run([line]);
  }

  /**
   * INFO settings, sent when they change. @param {Record<string, number>} values
   */
  setInfo(values) {
    const lines = [];
    for (const [key, value] of Object.entries(values)) {
      if (this.infos.get(key) === String(value)) continue;
      this.infos.set(key, String(value));
      lines.push(`INFO ${key} ${value}`);
    }
    if (lines.length) this.run(lines);
  }

  /**
   * Stops the running job (and drops those queued). Resolves once the engine is idle.
   * @returns {Promise<void>}
   */
  async stop() {
    for (const job of this.queue.splice(0)) job.resolve({ lines: [], stopped: true });
    const job = this.running;
    if (!job) return;
    job.stopped = true;
    if (this.stopFlag) {
      Atomics.store(this.stopFlag, 0, job.id);
      await job.done;
      return;
    }
    this.search.terminate();
    this.running = null;
    job.resolve({ lines: job.output, stopped: true });
    this.search = this.spawnSearch();
    const setup = [...(this.startLine ? [this.startLine] : []), ...[...this.infos].map(([k, v]) => `INFO ${k} ${v}`)];
    if (setup.length) this.run(setup);
    await this.searchReady;
  }

  /**
   * A typed call on the rules worker.
   * @param {string} name ff_status, ff_renlib_read or ff_renlib_write
   * @param {string | Uint8Array} input
   * @returns {Promise<{code: number, bytes: Uint8Array}>}
   */
  call(name, input) {
    const id = this.nextCall++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      this.rules.postMessage({ type: "call", id, name, input });
    });
  }

  /**
   * Legality, forbidden points and game end of a game's moves.
   * @param {{rule: number, size: number, moves: [number, number][]}} game
   * @returns {Promise<Status>}
   */
  async status({ rule, size, moves }) {
    const { bytes } = await this.call("ff_status", JSON.stringify({ rule, width: size, height: size, moves }));
    return JSON.parse(new TextDecoder().decode(bytes));
  }

  /**
   * @param {Uint8Array} bytes a .lib file
   * @returns {Promise<{ok: boolean, error?: string, nodes?: LibNode[]}>}
   */
  async renlibRead(bytes) {
    const r = await this.call("ff_renlib_read", bytes);
    const answer = JSON.parse(new TextDecoder().decode(r.bytes));
    return answer.ok ? { ok: true, nodes: nested(answer.nodes) } : answer;
  }

  /**
   * @param {LibNode[]} nodes
   * @returns {Promise<Uint8Array>} the .lib file
   * @throws {Error} the engine's reason when it cannot write them
   */
  async renlibWrite(nodes) {
    const r = await this.call("ff_renlib_write", JSON.stringify({ nodes: flat(nodes) }));
    if (r.code !== 0) throw new Error(JSON.parse(new TextDecoder().decode(r.bytes)).error);
    return r.bytes;
  }
}

/**
 * The engine exchanges trees flat: the nodes in pre-order, each with its depth, so that
 * neither side recurses through a game's line hundreds of moves deep. These two turn
 * that into the page's nested nodes and back, without recursion either.
 * @param {(Omit<LibNode, "children"> & {depth: number})[]} list
 * @returns {LibNode[]}
 */
function nested(list) {
  /** @type {LibNode[]} */
  const roots = [];
  /** @type {LibNode[]} the open path: path[d] is the last node read at depth d */
  const path = [];
  for (const { depth, ...rest } of list) {
    const node = { ...rest, children: [] };
    path.length = depth;
    (depth === 0 ? roots : path[depth - 1].children).push(node);
    path.push(node);
  }
  return roots;
}

/**
 * @param {LibNode[]} nodes
 * @returns {(Omit<LibNode, "children"> & {depth: number})[]}
 */
function flat(nodes) {
  const out = [];
  /** @type {[LibNode, number][]} */
  const todo = nodes.map((n) => [n, 0]).reverse();
  while (todo.length) {
    const [{ children, ...rest }, depth] = /** @type {[LibNode, number]} */ (todo.pop());
    out.push({ ...rest, depth });
    for (let i = children.length - 1; i >= 0; i--) todo.push([children[i], depth + 1]);
  }
  return out;
}

/**
 * @typedef {{ok: boolean, error: string | null, valid: number, to_move: "black" | "white",
 *   forbidden: [number, number][], winner: "black" | "white" | "draw" | null,
 *   five: [number, number][]}} Status
 * @typedef {{move: [number, number] | null, comment: string, text: string, mark: boolean,
 *   children: LibNode[]}} LibNode
 */
