#!/usr/bin/env python3
"""The browser page's test, in a real browser: Debian's chromium, headless, driven by
chromedriver over the WebDriver protocol (standard library only: HTTP and JSON).

It serves the built site (scripts/web.sh) on 127.0.0.1, cross-origin isolated, and:
  1. loads the page and waits for its engine;
  2. plays a game of several moves against the engine in each rule (freestyle, exact
     five, renju; the engine white, and once black), clicking the board's squares as a
     person does, and checks each reply is a legal move that came within the move time;
  3. loads a renju position from the URL, checks black's forbidden point is listed and
     refused when clicked (the game unchanged, a message shown);
  4. starts a long analysis and checks it stops within 100 ms of the stop;
  5. reloads positions from URLs (#h8i9j7, #rule=4&h8i9j7);
     served without cross-origin isolation, checks the page falls back to one thread
     and stops by ending the worker (a fresh one ready within 500 ms);
  6. imports a RenLib .lib file through the page's file input, checks its line and
     comment, and exports the game again to the same tree;
  7. analyses a position and takes a screenshot of the board with its labels
     (target/web-test/analysis.png, and forbidden.png, phone.png);
  8. times the bench positions (one thread) in the browser with the three engine builds
     (plain, SIMD128, threads) and, where target/release/pbrain-fivefold exists, natively
     (target/web-test/speed.txt);
  9. stops the server and reloads the page: offline, from the service worker's cache;
 10. fails on any error the page wrote to the browser console.
Without chromium or chromedriver it says SKIPPED and exits 0 (scripts/web.sh --install
installs them).

Usage: scripts/web-test.py [--site target/web] [--out target/web-test] [--no-speed]
"""

import argparse
import base64
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import importlib

serve = importlib.import_module("web-serve")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FAILURES = []


def say(*a):
    print("web-test:", *a, flush=True)


def check(cond, what):
    say(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILURES.append(what)
    return cond


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    """A WebDriver session on chromedriver."""

    def __init__(self, user_data):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [CHROMEDRIVER, f"--port={self.port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            try:
                self.call("GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {"binary": CHROMIUM, "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--window-size=1280,1000", f"--user-data-dir={user_data}"]}}}}
        self.sid = self.call("POST", "/session", caps)["sessionId"]
        self.s("POST", "/timeouts", {"script": 180000, "pageLoad": 60000})

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=240) as r:
                return json.loads(r.read() or b"null").get("value")
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"{method} {path}: {e.read().decode(errors='replace')[:500]}")

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.sid}{path}", body)

    def go(self, url):
        self.s("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def wait(self, expression, *args):
        """Evaluates an async expression (a Promise) in the page; its value."""
        script = ("const done = arguments[arguments.length - 1];"
                  f"Promise.resolve().then(() => ({expression}))"
                  ".then(v => done({ok: v === undefined ? null : v}),"
                  " e => done({error: String(e && e.stack || e)}));")
        r = self.s("POST", "/execute/async", {"script": script, "args": list(args)})
        if r is not None and "error" in r:
            raise RuntimeError(r["error"])
        return None if r is None else r["ok"]

    def click(self, x, y):
        self.s("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "duration": 0, "x": int(round(x)), "y": int(round(y)), "origin": "viewport"},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerUp", "button": 0}]}]})
        self.s("DELETE", "/actions")

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.s("GET", "/screenshot")))

    def window(self, w, h):
        self.s("POST", "/window/rect", {"width": w, "height": h})

    def console(self):
        try:
            return self.s("POST", "/se/log", {"type": "browser"}) or []
        except RuntimeError:
            return []

    def quit(self):
        try:
            self.s("DELETE", "")
        finally:
            self.proc.terminate()


def names(size):
    """Square names of a board, h8 style: letter the column, number the row from the bottom."""
    return lambda x, y: f"{chr(97 + x)}{size - y}"


def spiral(size):
    """Squares from the centre outwards."""
    c = size // 2
    sq = [(x, y) for x in range(size) for y in range(size)]
    sq.sort(key=lambda p: (max(abs(p[0] - c), abs(p[1] - c)), abs(p[0] - c) + abs(p[1] - c), p))
    return sq


def user_move(d, size):
    """Clicks the first empty, allowed square from the centre out; returns its name."""
    st = d.js("return window.fivefold.state();")
    name = names(size)
    taken = {m["move"] for m in st["moves"]}
    forbidden = set(st["forbidden"])
    for x, y in spiral(size):
        n = name(x, y)
        if n in taken or n in forbidden:
            continue
        # Keep away from the engine's last stone a little, so games last a few moves.
        c = d.js("return window.fivefold.squareCenter(arguments[0]);", n)
        d.click(c["x"], c["y"])
        return n
    raise RuntimeError("no empty square")


def play_game(d, site_url, rule, engine_black, move_ms, moves):
    label = {0: "freestyle", 1: "exact five", 4: "renju"}[rule]
    d.go(site_url + "index.html")
    d.wait("window.fivefold.ready")
    d.wait("window.fivefold.newGame(arguments[0])",
           {"rule": rule, "size": 15, "engineBlack": engine_black,
            "engineWhite": not engine_black, "moveMs": move_ms})
    d.wait("window.fivefold.waitEngine()")
    replies = []
    for _ in range(moves):
        st = d.js("return window.fivefold.state();")
        if st["over"]:
            break
        before = len(st["moves"])
        forbidden_before = set(st["forbidden"])
        taken_before = {m["move"] for m in st["moves"]}
        mine = user_move(d, 15)
        d.wait("window.fivefold.waitEngine()")
        st = d.js("return window.fivefold.state();")
        if not check(len(st["moves"]) >= before + 1 and st["moves"][before]["move"] == mine,
                     f"{label}: the click on {mine} played it"):
            return
        if st["over"]:
            break
        if not check(len(st["moves"]) == before + 2, f"{label}: the engine answered {mine}"):
            return
        reply = st["moves"][before + 1]
        replies.append(reply)
        legal = (reply["by"] == "engine" and reply["move"] not in taken_before
                 and reply["move"] != mine
                 and re.fullmatch(r"[a-o]([1-9]|1[0-5])", reply["move"]) is not None)
        if rule == 4 and engine_black:
            legal = legal and reply["move"] not in set(st.get("forbiddenBefore", [])) | forbidden_before
        check(legal, f"{label}: the engine's reply {reply['move']} is a legal square")
        check(reply["ms"] <= move_ms + 300,
              f"{label}: the reply came in {reply['ms']} ms (move time {move_ms} ms)")
    check(len(replies) >= min(3, moves), f"{label}: {len(replies)} engine replies in the game")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--site", default="target/web")
    ap.add_argument("--out", default="target/web-test")
    ap.add_argument("--no-speed", action="store_true")
    args = ap.parse_args()
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        say("SKIPPED: chromium and chromedriver are not installed "
            "(apt-get install chromium chromium-driver, or scripts/web.sh --install)")
        return 0
    if not os.path.exists(os.path.join(args.site, "index.html")):
        say(f"no site in {args.site}: run scripts/web.sh first")
        return 1
    os.makedirs(args.out, exist_ok=True)
    port = free_port()
    server = serve.make_server(args.site, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{port}/"
    user_data = tempfile.mkdtemp(prefix="fivefold-chromium-")
    d = Driver(user_data)
    try:
        d.go(url + "index.html")
        t = time.time()
        d.wait("window.fivefold.ready")
        st = d.js("return window.fivefold.state();")
        check(True, f"page loaded, engine ready in {time.time() - t:.1f} s "
                    f"(cross-origin isolated: {st['isolated']}, threads: {st['threads']})")
        check(st["isolated"], "the page is cross-origin isolated (its stop flag in shared memory)")
        cores = min(os.cpu_count() or 1, 8)
        check(st["threads"] == cores, f"the search runs on {st['threads']} threads (this machine: {cores} cores, at most 8)")
        kept = d.wait("(async () => { for (let i = 0; i < 100; i++) {"
                      " for (const k of await caches.keys()) { const c = await caches.open(k);"
                      " const urls = (await c.keys()).map((r) => new URL(r.url).pathname);"
                      " if (urls.includes('/fivefold-threads.wasm') && urls.includes('/index.html')) return urls; }"
                      " await new Promise((r) => setTimeout(r, 100)); } return null; })()")
        check(kept is not None and not any(u.endswith(("/fivefold.wasm", "/fivefold-simd.wasm")) for u in kept),
              f"offline: the service worker keeps the page and the engine it runs, not the others ({kept and len(kept)} files)")

        for rule in (0, 1, 4):
            play_game(d, url, rule, False, 300, 5)
        play_game(d, url, 4, True, 300, 4)

        # A renju forbidden point: black's h8 is a double three after this.
        d.go(url + "index.html#rule=4&h9a1h10a3i8a5j8a7")
        d.js("location.reload();")
        d.wait("window.fivefold.ready")
        d.wait("window.fivefold.waitEngine()")
        st = d.js("return window.fivefold.state();")
        check(st["rule"] == 4 and st["pos"] == "h9a1h10a3i8a5j8a7",
              f"renju position from the URL (pos {st['pos']}, rule {st['rule']})")
        check("h8" in st["forbidden"], f"h8 is listed as forbidden ({st['forbidden']})")
        d.screenshot(os.path.join(args.out, "forbidden.png"))
        c = d.js("return window.fivefold.squareCenter('h8');")
        d.click(c["x"], c["y"])
        time.sleep(0.3)
        st2 = d.js("return window.fivefold.state();")
        msg = d.js("return window.fivefold.message();") or ""
        check(st2["pos"] == st["pos"], "the click on forbidden h8 was refused (game unchanged)")
        check("forbid" in msg.lower(), f"the refusal is shown: {msg!r}")

        # Stop a long analysis.
        d.go(url + "index.html#h8i9j7")
        d.js("location.reload();")
        d.wait("window.fivefold.ready")
        st = d.js("return window.fivefold.state();")
        check(st["pos"] == "h8i9j7" and st["rule"] == 0, f"#h8i9j7 loads (pos {st['pos']}, rule {st['rule']})")
        d.js("window.__long = window.fivefold.analyse(600000);")
        time.sleep(1.5)
        thinking = d.js("return window.fivefold.state().thinking;")
        r = d.wait("(async () => { const t = performance.now(); const r = await window.fivefold.stop();"
                   " await window.__long; return {ms: r.ms, outer: performance.now() - t,"
                   " thinking: window.fivefold.state().thinking}; })()")
        check(thinking, "the long analysis was running")
        check(r["ms"] < 100 and r["outer"] < 150 and not r["thinking"],
              f"stopped in {r['ms']:.0f} ms (page: {r['outer']:.0f} ms)")

        d.go(url + "index.html#rule=4&h8i9j7")
        d.js("location.reload();")
        d.wait("window.fivefold.ready")
        st = d.js("return window.fivefold.state();")
        check(st["pos"] == "h8i9j7" and st["rule"] == 4, f"#rule=4&h8i9j7 loads (pos {st['pos']}, rule {st['rule']})")

        # Analysis labels on the board.
        d.go(url + "index.html#h8i9h9j8")
        d.js("location.reload();")
        d.wait("window.fivefold.ready")
        a = d.wait("window.fivefold.analyse(2000)")
        st = d.js("return window.fivefold.state();")
        check(bool(a["best"]) and len(a["lines"]) >= 2 and len(st["lines"]) >= 2,
              f"analysis: best {a['best']}, eval {a['eval']}, {len(a['lines'])} lines")
        d.screenshot(os.path.join(args.out, "analysis.png"))
        d.window(390, 844)
        time.sleep(0.5)
        d.screenshot(os.path.join(args.out, "phone.png"))
        d.window(1280, 1000)

        renlib_round_trip(d, url, args.out)
        not_isolated(d, args.site)

        if not args.no_speed:
            speed(d, url, args.out)

        # Offline: the server gone, the page and its engine come from the service worker.
        server.shutdown()
        server.server_close()
        d.go(url + "index.html#h8i9j7")
        d.js("location.reload();")
        d.wait("window.fivefold.ready")
        a = d.wait("window.fivefold.analyse(500)")
        check(bool(a["best"]), f"offline (no server): the page loads and analyses (best {a['best']})")

        errors = [e for e in d.console() if e.get("level") == "SEVERE"]
        check(not errors, "no errors in the browser console" +
              "".join(f"\n    {e.get('message')}" for e in errors[:10]))
    finally:
        d.quit()
        server.shutdown()
        server.server_close()
        shutil.rmtree(user_data, ignore_errors=True)
    if FAILURES:
        say(f"{len(FAILURES)} FAILED")
        return 1
    say("all passed")
    return 0


WASM_CALL = """
const [file, name, input, binary] = arguments;
const module = await WebAssembly.compile(await (await fetch(file)).arrayBuffer());
let mem;
const instance = await WebAssembly.instantiate(module, { fivefold: {
  now_ms: () => performance.now(), emit: () => {}, stop_requested: () => 0 } });
const e = instance.exports; mem = e.memory;
const b = binary ? Uint8Array.from(atob(input), (c) => c.charCodeAt(0)) : new TextEncoder().encode(input);
const p = e.ff_alloc(b.length);
new Uint8Array(mem.buffer, p, b.length).set(b);
const code = e[name](p, b.length);
const out = new Uint8Array(mem.buffer, e.ff_result_ptr(), e.ff_result_len()).slice();
return { code, base64: btoa(String.fromCharCode(...out)), text: new TextDecoder().decode(out) };
"""


def renlib_round_trip(d, url, out):
    """A .lib file (written by the engine's own RenLib writer) imported through the file
    input, its line and comment on the board, and the game exported again."""
    d.go(url + "index.html")
    d.wait("window.fivefold.ready")
    d.wait("window.fivefold.newGame({rule: 0, size: 15, engineBlack: false, engineWhite: false})")
    nodes = [{"move": [7, 7], "comment": "", "text": "", "mark": False, "depth": 0},
             {"move": [8, 6], "comment": "", "text": "", "mark": False, "depth": 1},
             {"move": [9, 5], "comment": "a strong third move", "text": "", "mark": False, "depth": 2},
             {"move": [6, 8], "comment": "", "text": "", "mark": False, "depth": 1}]
    r = d.wait(f"(async () => {{ {WASM_CALL} }})(...arguments)", "fivefold.wasm", "ff_renlib_write",
               json.dumps({"nodes": nodes}), False)
    path = os.path.abspath(os.path.join(out, "opening.lib"))
    with open(path, "wb") as f:
        f.write(base64.b64decode(r["base64"]))
    field = d.s("POST", "/element", {"using": "css selector", "value": "#import-lib"})
    d.s("POST", f"/element/{list(field.values())[0]}/value", {"text": path})
    for _ in range(100):
        if "Imported" in (d.js("return window.fivefold.message();") or ""):
            break
        time.sleep(0.05)
    check("Imported opening.lib" in (d.js("return window.fivefold.message();") or ""),
          f"opening.lib imported: {d.js('return window.fivefold.message();')!r}")
    games = d.js("return document.getElementById('games').textContent;")
    check("opening" in games, "the imported game is listed in the database")
    d.js("document.getElementById('to-end').click();")
    time.sleep(0.3)
    st = d.js("return window.fivefold.state();")
    comment = d.js("return document.getElementById('comment').value;")
    check(st["pos"] == "h8i9j10" and comment == "a strong third move",
          f"the imported main line and its comment: {st['pos']!r}, {comment!r}")
    d.js("window.__blobs = []; const make = URL.createObjectURL;"
         "URL.createObjectURL = (b) => { window.__blobs.push(b); return make(b); };"
         "document.getElementById('game-name').value = 'again';"
         "document.getElementById('export-game-lib').click();")
    time.sleep(0.5)
    exported = d.wait("(async () => { const b = window.__blobs.pop(); if (!b) return null;"
                      " const a = new Uint8Array(await b.arrayBuffer()); return btoa(String.fromCharCode(...a)); })()")
    if not check(exported is not None, "the game was exported as a .lib file"):
        return
    back = d.wait(f"(async () => {{ {WASM_CALL} }})(...arguments)", "fivefold.wasm", "ff_renlib_read", exported, True)
    got = json.loads(back["text"])
    moves = [(n["move"], n["depth"]) for n in got.get("nodes", [])]
    want = [(n["move"], n["depth"]) for n in nodes]
    check(moves == want and any(n["comment"] == "a strong third move" for n in got["nodes"]),
          f"the exported file holds the same tree and comment ({len(moves)} nodes)")


def not_isolated(d, site):
    """Served without COOP/COEP: one thread, and a stop ends the worker and starts another."""
    port = free_port()
    server = serve.make_server(site, port, isolate=False)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{port}/"
        d.go(url + "index.html#h8i9j7")
        d.wait("window.fivefold.ready")
        st = d.js("return window.fivefold.state();")
        check(not st["isolated"] and st["threads"] == 1,
              f"not isolated: {st['threads']} thread, isolated {st['isolated']}")
        d.js("window.__long = window.fivefold.analyse(600000);")
        time.sleep(1.5)
        r = d.wait("(async () => { const t = performance.now(); const r = await window.fivefold.stop();"
                   " await window.__long; return {ms: r.ms, outer: performance.now() - t}; })()")
        # The search ends with its worker at once; the page then waits for the fresh
        # worker to load the module and take the session's setup again.
        check(r["ms"] < 500, f"not isolated: stopped and a fresh worker ready in {r['ms']:.0f} ms")
        a = d.wait("window.fivefold.analyse(500)")
        check(bool(a["best"]), f"not isolated: the restarted engine analyses (best {a['best']})")
    finally:
        server.shutdown()


BENCH_PAGE = """
const [file, spec] = arguments;
const bytes = await (await fetch(file)).arrayBuffer();
let mem; const lines = []; const dec = new TextDecoder();
const module = await WebAssembly.compile(bytes);
const threaded = WebAssembly.Module.imports(module).some((i) => i.kind === "memory");
const memory = threaded ? new WebAssembly.Memory({ initial: 256, maximum: 32768, shared: true }) : undefined;
const instance = await WebAssembly.instantiate(module, { env: { memory }, fivefold: {
  now_ms: () => performance.now(),
  emit: (p, n) => lines.push(dec.decode(new Uint8Array(mem.buffer, p, n).slice())),
  stop_requested: () => 0 } });
const e = instance.exports; mem = memory ?? e.memory;
const b = new TextEncoder().encode(spec); const p = e.ff_alloc(b.length);
new Uint8Array(mem.buffer, p, b.length).set(b);
e.ff_bench(0, p, b.length);
return lines;
"""


THREADS_PROBE = """
const [threads, ms] = arguments;
const module = await WebAssembly.compile(await (await fetch("fivefold-threads.wasm")).arrayBuffer());
// The page's own worker (web/worker.js), with its helper workers, searching one move.
const worker = new Worker("worker.js");
const lines = [];
const done = new Promise((resolve, reject) => {
  worker.onmessage = (e) => {
    const m = e.data;
    if (m.type === "ready") worker.postMessage({ type: "lines", job: 1, lines: [
      "START 15", `INFO thread_num ${threads}`, `INFO timeout_turn ${ms}`, "INFO show_detail 1",
      "BOARD", "7,7,1", "8,6,2", "9,8,1", "8,8,2", "DONE"] });
    else if (m.type === "line") lines.push(m.text);
    else if (m.type === "done") resolve(m);
    else if (m.type === "fail") reject(new Error(m.error));
  };
});
worker.postMessage({ type: "init", module, stop: null, helpers: threads - 1 });
await done;
worker.terminate();
const last = lines.filter((l) => l.startsWith("MESSAGE Depth")).pop() ?? "";
const m = /Nodes ([0-9.]+)([KM]?) \\| Speed ([0-9.]+)([KM]?)/.exec(last);
const num = (v, u) => Number(v) * (u === "M" ? 1e6 : u === "K" ? 1e3 : 1);
return m ? { nodes: num(m[1], m[2]), speed: num(m[3], m[4]), line: last } : { line: last };
"""


def speed(d, url, out):
    """Bench nodes/s: every wasm build in chromium (in the page's main thread), native;
    and the threads build through the page's worker with one thread and with all."""
    def figure(lines, key):
        for l in lines:
            if l.startswith(key + ":"):
                return l.split(":", 1)[1].strip()
        return None

    # On the main server's page (the last one loaded may be another origin's, gone).
    d.go(url + "index.html")
    d.wait("window.fivefold.ready")
    report = []
    native = "target/release/pbrain-fivefold"
    for spec, what in (("", "default (network)"), ("use_net=0", "classical")):
        row = {}
        for f in ("fivefold.wasm", "fivefold-simd.wasm", "fivefold-threads.wasm"):
            runs = [d.wait(f"(async () => {{ {BENCH_PAGE} }})(...arguments)", f, spec) for _ in range(3)]
            nps = sorted(int(figure(r, "Nodes/s")) for r in runs)
            row[f] = (figure(runs[0], "Nodes"), figure(runs[0], "Signature"), nps[1])
        if os.path.exists(native):
            runs = []
            for _ in range(3):
                cmd = [native, "bench"] + (["--params", spec] if spec else [])
                runs.append(subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines())
            nps = sorted(int(figure(r, "Nodes/s")) for r in runs)
            row["native"] = (figure(runs[0], "Nodes"), figure(runs[0], "Signature"), nps[1])
        for k, (nodes, sig, nps) in row.items():
            ratio = f"  {nps / row['native'][2]:.2f}x native" if "native" in row else ""
            report.append(f"{what:<18} {k:<20} Nodes {nodes}  Signature {sig}  Nodes/s {nps} (median of 3){ratio}")
        same = len({(v[0], v[1]) for v in row.values()}) == 1
        check(same, f"bench {what}: the same nodes and signature in every build")
    threads = d.js("return window.fivefold.state().threads;")
    if threads > 1:
        probe = f"(async () => {{ {THREADS_PROBE} }})(...arguments)"
        runs = {t: [d.wait(probe, t, 4000) for _ in range(2)] for t in (1, threads)}
        speeds = {t: max(r.get("speed", 0) for r in rs) for t, rs in runs.items()}
        check(all(speeds.values()), f"the threads build searched with 1 and {threads} threads")
        report.append(f"fivefold-threads.wasm, one 4-second move through web/worker.js: 1 thread "
                      f"{speeds[1]:.0f} nodes/s, {threads} threads {speeds[threads]:.0f} nodes/s "
                      f"({speeds[threads] / max(speeds[1], 1):.2f}x; best of 2 each)")
    with open(os.path.join(out, "speed.txt"), "w") as f:
        f.write("\n".join(report) + "\n")
    for l in report:
        say(l)


if __name__ == "__main__":
    sys.exit(main())
