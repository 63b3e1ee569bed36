// The engine's Web Worker: instantiates fivefold.wasm and hands it protocol lines and
// typed calls from the page, one at a time, in the order they came. Every line the
// engine writes goes to the page at once, while a search runs.

/** @type {any} the wasm exports */
let wasm = null;
/** @type {WebAssembly.Memory | null} the shared memory of the threads build */
let shared = null;
/** The engine's memory: its own, or the shared one the threads build imports. */
const memory = () => shared ?? wasm.memory;
/** Each helper thread's stack (as a native helper's). */
const HELPER_STACK = 2 << 20;
/** @type {Int32Array | null} the page writes a job's number here to stop it */
let stopFlag = null;
let job = 0;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const imports = {
  fivefold: {
    now_ms: () => performance.now(),
    emit: (/** @type {number} */ ptr, /** @type {number} */ len) => {
      // slice: a shared memory's view cannot be decoded in place
      const bytes = new Uint8Array(memory().buffer, ptr, len).slice();
      postMessage({ type: "line", job, text: decoder.decode(bytes) });
    },
    stop_requested: () => (stopFlag !== null && Atomics.load(stopFlag, 0) === job ? 1 : 0),
  },
};

/**
 * Calls an export that takes bytes, with those bytes copied into the engine's memory.
 * @param {string} name
 * @param {Uint8Array} input
 */
function callWithBytes(name, input) {
  const ptr = wasm.ff_alloc(input.length);
  new Uint8Array(memory().buffer, ptr, input.length).set(input);
  try {
    return wasm[name](ptr, input.length);
  } finally {
    wasm.ff_free(ptr, input.length);
  }
}

function result() {
  return new Uint8Array(memory().buffer, wasm.ff_result_ptr(), wasm.ff_result_len()).slice();
}

/**
 * Starts the threads build's helper workers (web/helper.js), each with a stack and a
 * thread-local block of its own in the shared memory, and waits until they run
 * ff_thread_main: a search started before would run on fewer threads.
 * @param {WebAssembly.Module} module
 * @param {number} count
 * @returns {Promise<number>} how many run
 */
async function startHelpers(module, count) {
  const align = (/** @type {number} */ p, /** @type {number} */ a) => Math.ceil(p / a) * a;
  for (let i = 0; i < count; i++) {
    const stackTop = align(wasm.ff_alloc(HELPER_STACK + 16), 16) + HELPER_STACK;
    const tlsAlign = Math.max(1, wasm.__tls_align.value);
    const tls = align(wasm.ff_alloc(wasm.__tls_size.value + tlsAlign), tlsAlign);
    const helper = new Worker(new URL("helper.js", self.location.href));
    helper.postMessage({ module, memory: shared, stackTop, tls });
  }
  for (let waited = 0; wasm.ff_helpers() < count && waited < 10000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return wasm.ff_helpers();
}

/** @param {any} msg */
async function handle(msg) {
  switch (msg.type) {
    case "init": {
      stopFlag = msg.stop ? new Int32Array(msg.stop) : null;
      const threaded = WebAssembly.Module.imports(msg.module).some((i) => i.kind === "memory");
      if (threaded) shared = new WebAssembly.Memory({ initial: 256, maximum: 32768, shared: true });
      const instance = await WebAssembly.instantiate(msg.module, { ...imports, env: { memory: shared } });
      wasm = instance.exports;
      wasm.ff_init();
      const helpers = threaded ? await startHelpers(msg.module, msg.helpers ?? 0) : 0;
      postMessage({ type: "ready", helpers });
      break;
    }
    case "lines": {
      job = msg.job;
      let ended = false;
      for (const line of msg.lines) {
        if (callWithBytes("ff_line", encoder.encode(line)) === 1) {
          ended = true;
          break;
        }
      }
      postMessage({ type: "done", job, ended });
      break;
    }
    case "call": {
      // ff_status, ff_renlib_read, ff_renlib_write: input bytes, result bytes
      const input = typeof msg.input === "string" ? encoder.encode(msg.input) : new Uint8Array(msg.input);
      const code = callWithBytes(msg.name, input);
      const bytes = result();
      postMessage({ type: "result", id: msg.id, code, bytes }, [bytes.buffer]);
      break;
    }
    case "bench": {
      job = msg.job;
      const spec = encoder.encode(msg.params ?? "");
      const ptr = wasm.ff_alloc(spec.length);
      new Uint8Array(memory().buffer, ptr, spec.length).set(spec);
      wasm.ff_bench(msg.depth, ptr, spec.length);
      wasm.ff_free(ptr, spec.length);
      postMessage({ type: "done", job, ended: false });
      break;
    }
    default:
      throw new Error(`unknown message ${msg.type}`);
  }
}

let chain = Promise.resolve();
onmessage = (event) => {
  const msg = event.data;
  chain = chain
    .then(() => handle(msg))
    .catch((err) =>
      postMessage({ type: "fail", id: msg.id, job: msg.job, error: String(err && err.message ? err.message : err) }),
    );
};
