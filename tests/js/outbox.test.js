// The outbox's queue without a browser (issue 59): nothing tapped is lost, sent once, in order.
// The words pinned are the and the README's: "nothing tapped offline is lost"; the outbox
// once dropped an entry tapped while another was being sent (a planted fault no browser test caught).
// Run by scripts/test: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { createOutbox } from "../../static/js/outbox.js";

/** A phone's localStorage: a plain map. */
function storage() {
  const kept = new Map();
  return { getItem: (key) => kept.get(key) ?? null, setItem: (key, value) => kept.set(key, String(value)) };
}

/** A server whose answers the test gives, one request at a time. */
function server() {
  const requests = [];
  const fetch = (url, init = {}) => new Promise((resolve, reject) => {
    requests.push({ url: String(url), init, body: String(init.body ?? ""), resolve, reject });
  });
  return { requests, fetch };
}

/** Until ``condition()`` holds: the queue's work is promises and timers, so each turn lets them run. */
async function until(condition, what) {
  for (let turn = 0; turn < 2000; turn += 1) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.fail(`never: ${what}`);
}

const RECORDED = { type: "opaqueredirect", redirected: false, url: "" };
const followed = (url) => ({ type: "basic", redirected: true, url, text: async () => "<p>the game</p>" });

function phone(overrides = {}) {
  const { requests, fetch } = server();
  const said = [];
  const arrived = [];
  const shown = [];
  let clock = 1_000_000;
  const timers = [];
  const box = createOutbox({
    storage: storage(),
    fetch,
    now: () => clock,
    later: (fn, ms) => { const timer = { fn, at: clock + ms, done: false }; timers.push(timer); return timer; },
    cancel: (timer) => { if (timer) timer.done = true; },
    changed: (queue, since) => said.push({ waiting: queue.map((entry) => entry.label), since }),
    show: (entry) => shown.push(entry),
    arrive: async (entry, response) => { arrived.push({ entry, response }); },
    sameTapMs: 900,
    ...overrides,
  });
  /** The phone's clock moved on by ``ms``: every timer due by then runs. */
  const wait = (ms) => {
    clock += ms;
    for (const timer of timers.filter((t) => !t.done && t.at <= clock)) { timer.done = true; timer.fn(); }
  };
  const scheduled = () => timers.filter((timer) => !timer.done).length;
  return { box, requests, said, arrived, shown, wait, scheduled, tick: (ms) => { clock += ms; } };
}

const buy = (key, player = "Bob") => ({
  url: "/games/1/buys", fields: new URLSearchParams({ entry_key: key, player }), then: "/games/1", label: `${player}'s buy`,
});

test("a tap made while another is on its way is sent after it, not dropped", async () => {
  const { box, requests, arrived } = phone();
  box.send(buy("k1", "Bob"));
  await until(() => requests.length === 1, "the first buy sent");
  box.send(buy("k2", "Cy"));  // tapped while Bob's buy waits for its answer
  requests[0].resolve(RECORDED);
  await until(() => requests.length === 2, "Cy's buy sent after Bob's");
  assert.match(requests[1].body, /player=Cy/);
  requests[1].resolve(followed("http://table/games/1"));
  await until(() => arrived.length === 1, "the last answer drawn");
  assert.deepEqual(box.waiting(), []);
});

test("entries made while the server does not answer are kept, said as waiting, and sent in order", async () => {
  const { box, requests, said, wait } = phone();
  box.send(buy("k1", "Bob"));
  await until(() => requests.length === 1, "Bob's buy sent");
  requests[0].reject(new TypeError("Failed to fetch"));  // the Wi-Fi dropped
  await until(() => said.some((s) => s.since !== null), "the tap said as waiting");
  box.send(buy("k2", "Cy"));
  assert.deepEqual(box.waiting().map((entry) => entry.label), ["Bob's buy", "Cy's buy"]);
  wait(1500);  // the next try
  await until(() => requests.length === 2, "Bob's buy sent again");
  assert.match(requests[1].body, /player=Bob/);
  requests[1].resolve(RECORDED);
  await until(() => requests.length === 3, "then Cy's");
  assert.match(requests[2].body, /player=Cy/);
  requests[2].resolve(followed("http://table/games/1"));
  await until(() => box.waiting().length === 0, "nothing left waiting");
  assert.equal(said.at(-1).since, null);
});

test("an entry waiting survives the page: a new page's outbox sends it", async () => {
  const kept = storage();
  const first = phone({ storage: kept });
  first.box.send(buy("k1"));
  await until(() => first.requests.length === 1, "sent");
  // the tab is closed before the answer; the next page opens with what was kept
  const second = phone({ storage: kept });
  assert.deepEqual(second.box.waiting().map((entry) => entry.label), ["Bob's buy"]);
  await until(() => second.requests.length === 1, "sent again by the new page");
  assert.match(second.requests[0].body, /entry_key=k1/);  // the same key: recorded once
});

test("the same button twice within the hold is one tap; once the hold is over it is one more entry", async () => {
  const { box, requests, tick } = phone();
  box.send(buy("k1"));
  box.send(buy("k1"));  // a thumb tapping twice
  assert.equal(box.waiting().length, 1);
  tick(1000);
  box.send(buy("k1"));  // a second buy, tapped on purpose
  assert.equal(box.waiting().length, 2);
  assert.equal(new URLSearchParams(box.waiting()[1].body).get("entry_key"), "k1~2");
  await until(() => requests.length === 1, "the first sent");
});

test("a form refused (not a redirect) is shown as a plain form, and nothing after it is sent yet", async () => {
  const { box, requests, shown } = phone();
  box.send(buy("k1"));
  await until(() => requests.length === 1, "sent");
  requests[0].resolve({ type: "basic", redirected: false, url: "http://table/games/1/buys", status: 422 });
  await until(() => shown.length === 1, "the server's own page opened for it");
  assert.equal(shown[0].label, "Bob's buy");
  assert.deepEqual(box.waiting(), []);
});

test("a send hanging past the limit is given up and tried again", async () => {
  const { box, requests, wait, scheduled } = phone();
  box.send(buy("k1"));
  await until(() => requests.length === 1, "sent");
  const signal = requests[0].init.signal;
  wait(8000);
  assert.equal(signal.aborted, true);
  requests[0].reject(new DOMException("aborted", "AbortError"));
  await until(() => scheduled() === 1, "the next try planned");
  wait(1500);
  await until(() => requests.length === 2, "sent again");
});
