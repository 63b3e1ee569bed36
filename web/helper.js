// A helper thread of the threads build (fivefold-threads.wasm): an instance of the
// engine's module on the search worker's shared memory, with the stack and thread-local
// block the search worker gave it. It runs ff_thread_main, which takes the search's
// helper jobs for ever (src/engine/threads.rs); the page never talks to it.

onmessage = (event) => {
  const { module, memory, stackTop, tls } = event.data;
  const instance = new WebAssembly.Instance(module, {
    env: { memory },
    fivefold: {
      now_ms: () => performance.now(),
      // Helpers write nothing; the search's main thread reports.
      emit: () => {},
      // The main thread stops its helpers when the page stops it.
      stop_requested: () => 0,
    },
  });
  const wasm = /** @type {any} */ (instance.exports);
  wasm.__stack_pointer.value = stackTop;
  wasm.__wasm_init_tls(tls);
  wasm.ff_thread_main();
};
