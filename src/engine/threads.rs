//! Where the helper threads of a parallel search run: the system's threads, or in a
//! browser whose page is cross-origin isolated, the page's workers.
//!
//! A WebAssembly module cannot start a thread itself (the standard library's `spawn`
//! fails on `wasm32-unknown-unknown`). The page's build with shared memory
//! (`fivefold-threads.wasm`, built with the `atomics` target feature) instead has
//! workers of the page run `worker_loop` (the export `ff_thread_main`), each on a stack
//! and thread-local block of its own that the page hands it; [`spawn`] queues the job, and
//! a free worker takes it. With no worker, `spawn` fails as the system's would and the
//! search runs on one thread.

/// A helper's job once started: [`Helper::join`] waits for its result.
pub struct Helper<T>(Inner<T>);

#[cfg(not(all(target_arch = "wasm32", target_feature = "atomics")))]
type Inner<T> = std::thread::JoinHandle<T>;
#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
type Inner<T> = std::sync::mpsc::Receiver<T>;

impl<T> Helper<T> {
    /// Waits for the job's end; `None` if it failed (a panic in it).
    pub fn join(self) -> Option<T> {
        #[cfg(not(all(target_arch = "wasm32", target_feature = "atomics")))]
        return self.0.join().ok();
        #[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
        return self.0.recv().ok();
    }
}

/// Runs `job` on a thread of its own with a stack of `stack` bytes (in a browser, the
/// stack the page gave the worker).
pub fn spawn<T, F>(stack: usize, job: F) -> std::io::Result<Helper<T>>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    #[cfg(not(all(target_arch = "wasm32", target_feature = "atomics")))]
    {
        std::thread::Builder::new()
            .name("fivefold-helper".into())
            .stack_size(stack)
            .spawn(job)
            .map(Helper)
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
    {
        let _ = stack;
        page::spawn(job).map(Helper)
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
pub use page::{worker_loop, workers};

#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
mod page {
    use std::collections::VecDeque;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{mpsc, Condvar, Mutex, PoisonError};

    type Job = Box<dyn FnOnce() + Send>;

    static QUEUE: Mutex<VecDeque<Job>> = Mutex::new(VecDeque::new());
    static QUEUED: Condvar = Condvar::new();
    /// The workers that run `worker_loop`.
    static WORKERS: AtomicUsize = AtomicUsize::new(0);

    pub fn spawn<T, F>(job: F) -> std::io::Result<mpsc::Receiver<T>>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        if WORKERS.load(Ordering::SeqCst) == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                "the page has given the engine no worker",
            ));
        }
        let (tx, rx) = mpsc::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(job());
        });
        QUEUE
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push_back(job);
        QUEUED.notify_one();
        Ok(rx)
    }

    /// How many workers have entered `worker_loop`.
    pub fn workers() -> usize {
        WORKERS.load(Ordering::SeqCst)
    }

    /// A worker's life: takes queued jobs and runs them, for ever.
    pub fn worker_loop() {
        WORKERS.fetch_add(1, Ordering::SeqCst);
        loop {
            let job = {
                let mut q = QUEUE.lock().unwrap_or_else(PoisonError::into_inner);
                loop {
                    if let Some(job) = q.pop_front() {
                        break job;
                    }
                    q = QUEUED.wait(q).unwrap_or_else(PoisonError::into_inner);
                }
            };
            job();
        }
    }
}
