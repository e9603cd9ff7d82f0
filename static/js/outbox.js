// @ts-check
// The outbox (issue 41): a tap's entry is kept on the phone until the server has answered it, so
// nothing tapped is lost to a dropped Wi-Fi or a server restarted mid-night (no service worker:
// a phone on the home network is plain http). Each entry carries the entry key its form was drawn
// with, so one sent twice (its answer lost) is recorded once. Unanswered within a second, a tap is
// said as waiting, kept, and sent again every 1.5 s, in order, also after the tab was closed. The
// answer is the server's own page: its message says what the entry did, or why it was refused.
//
// This module is the queue alone, with no page in sight: what it keeps, sends, says and draws goes
// through the surroundings it is given (app.js gives it the page's; tests/js/ give it their own).

export const OUTBOX_KEY = "scorekeeper-outbox";
export const RETRY_MS = 1500;
export const WAITING_AFTER_MS = 1000;  // unanswered this long: the screen says the tap is waiting
export const GIVE_UP_MS = 8000;  // a send hanging this long is sent again (its key makes that safe)

/**
 * An entry waiting on the phone: a form's POST as it was tapped.
 * @typedef {object} Entry
 * @property {string} url where the form posts
 * @property {string} body the form's fields, URL-encoded
 * @property {string} then the page to open once it is recorded
 * @property {string} label what the screen calls it ("Bob's buy")
 * @property {string} [game] the game it changes, if any (its version moves on)
 * @property {number} base the game's version the form was drawn at
 * @property {number} made when it was tapped (ms)
 */

/**
 * A tap's form, read: what ``send`` is given.
 * @typedef {object} Tapped
 * @property {string} url
 * @property {URLSearchParams} fields
 * @property {string} [then]
 * @property {string} [label]
 * @property {string} [game]
 */

/**
 * What the queue needs of the page around it.
 * @typedef {object} Surroundings
 * @property {Pick<Storage, "getItem" | "setItem">} storage where the queue is kept (localStorage)
 * @property {(url: string, init?: RequestInit) => Promise<Response>} fetch
 * @property {() => number} now
 * @property {(fn: () => void, ms: number) => unknown} later
 * @property {(timer: unknown) => void} cancel
 * @property {(queue: Entry[], since: number | null) => void} changed the queue or the server's silence changed
 * @property {(entry: Entry) => void} show an answer that was not a redirect: open the server's own page for it
 * @property {(entry: Entry, response: Response) => Promise<void>} arrive the last entry's answer, to draw
 * @property {number} sameTapMs the same button again within this is the same tap
 */

/** The key a form was drawn with, without the "~2" of a second entry from the same form. */
const keyOf = (/** @type {string} */ body) => (new URLSearchParams(body).get("entry_key") || "").split("~")[0];

/**
 * The phone's outbox.
 * @param {Surroundings} around
 */
export function createOutbox(around) {
  /** @returns {Entry[]} */
  const read = () => {
    try { return JSON.parse(around.storage.getItem(OUTBOX_KEY) || "[]"); } catch (e) { return []; }
  };
  const write = (/** @type {Entry[]} */ queue) => {
    try { around.storage.setItem(OUTBOX_KEY, JSON.stringify(queue)); } catch (e) { /* this page only */ }
  };
  /** @type {number | null} when the server stopped answering */
  let since = null;
  let draining = false;
  const say = () => around.changed(read(), since);
  const silent = () => { if (since === null) since = around.now(); say(); };

  // The version a queued entry was drawn with moves on by this phone's own entries recorded before it
  // (each put the game's version up by one); moved by anyone else, it stays, and the server refuses
  // the entry as made on an old view.
  /** @type {Record<string, {base: number, head: number}>} game → the version its entries were drawn at, and made */
  const chain = {};
  const versionOf = async (/** @type {string} */ game) =>
    Number((await (await around.fetch(`/api/games/${game}`, { cache: "no-store" })).json()).version);
  const caughtUp = async (/** @type {Entry} */ entry) => {
    if (!entry.game) return { body: entry.body, sent: null };
    const now = await versionOf(entry.game);
    const mine = chain[entry.game];
    const version = mine && mine.base === entry.base && mine.head === now ? now : entry.base;
    const body = new URLSearchParams(entry.body);
    if (body.has("version")) body.set("version", String(version));
    return { body: body.toString(), sent: version === now ? now : null };
  };
  const recorded = async (/** @type {Entry} */ entry, /** @type {number | null} */ sent) => {
    if (sent === null || !entry.game) return;
    const after = await versionOf(entry.game);
    if (after === sent + 1) chain[entry.game] = { base: entry.base, head: after };
  };
  const post = async (/** @type {Entry} */ entry, /** @type {boolean} */ follow) => {
    const stop = new AbortController();
    const slow = around.later(silent, WAITING_AFTER_MS);
    const hung = around.later(() => stop.abort(), GIVE_UP_MS);
    try {
      const { body, sent } = await caughtUp(entry);
      const response = await around.fetch(entry.url, {
        // The last entry waiting follows the server's redirect: its answer is the page drawn in place
        // (an entry with others behind it only needs to be recorded).
        method: "POST", body, redirect: follow ? "follow" : "manual", signal: stop.signal,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      return { response, sent };
    } finally {
      around.cancel(slow);
      around.cancel(hung);
    }
  };
  // A redirect is the server's answer with its message (recorded, or refused in words). Anything else
  // (a form refused with what was typed, a question) was not recorded: the page sends it once more, as
  // a plain form, so the server's own page for it opens. Safe: a refusal is never kept for its key.
  const drain = async () => {
    if (draining) return;
    draining = true;
    /** @type {{entry: Entry, response: Response} | null} */
    let last = null;
    try {
      for (let queue = read(); queue.length; queue = read()) {
        const entry = queue[0];
        let answer;
        try {
          answer = await post(entry, queue.length === 1);
        } catch (e) {
          silent();
          around.later(drain, RETRY_MS);
          return;
        }
        write(read().slice(1));  // read again: a tap made while this one was on its way stays
        const { response, sent } = answer;
        if (response.type !== "opaqueredirect" && !response.redirected) {
          since = null;
          say();
          around.show(entry);
          return;
        }
        if (read().length) {  // another entry waits: it goes on from the version this one made
          try { await recorded(entry, sent); } catch (e) { /* no chain: a later entry may be refused as old */ }
        }
        last = { entry, response };
      }
      since = null;
      say();
      if (last) await around.arrive(last.entry, last.response);
    } finally {
      draining = false;
    }
  };
  const add = (/** @type {Tapped} */ tapped) => {
    const fields = new URLSearchParams(tapped.fields);
    const queue = read();
    // The same button again: within the hold it is the same tap; later, one more entry.
    const key = fields.get("entry_key") || "";
    const same = key ? queue.filter((entry) => keyOf(entry.body) === key) : [];
    if (same.length && around.now() - same[same.length - 1].made < around.sameTapMs) return;
    if (same.length) fields.set("entry_key", `${key}~${same.length + 1}`);
    queue.push({
      url: tapped.url, body: fields.toString(), then: tapped.then || tapped.url,
      label: tapped.label || "an entry", game: tapped.game,
      base: Number(fields.get("version") || 0), made: around.now(),
    });
    write(queue);
  };
  const waiting = read();
  if (waiting.length) { since = waiting[0].made; say(); drain(); }
  return {
    /** Keep a tap and send it (said at once while the server is slow: it joins the banner). */
    send: (/** @type {Tapped} */ tapped) => { add(tapped); say(); drain(); },
    /** The server may answer again (the phone is back online). */
    retry: () => { drain(); },
    /** What waits, oldest first. */
    waiting: read,
  };
}
