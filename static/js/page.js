// @ts-check
// What every page's scripts share: what they leave running (stopped when the next page is drawn in
// place), polling at the pace of a followed game, and the clock's format.

// How often a following page asks whether anything moved (a 304 of a few hundred bytes while nothing
// did): a save shows on the table view and the players' phones within a second (issue 45).
export const FOLLOW_MS = 750;
// 24-hour, as the server writes every time on the pages: one time format for the household (issue 60).
export const clock = (/** @type {number | string} */ when) => new Date(when).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

// What a page's scripts leave running (polls, listeners on the document, a screen kept on) belongs
// to `pageScope` and stops when the next page is drawn in place.
let pageScope = new AbortController();

// What this page's scripts leave running listens to this signal.
export function pageSignal() {
  return pageScope.signal;
}

// A page drawn in place: what the one before it left running stops.
export function startPage() {
  pageScope.abort();
  pageScope = new AbortController();
}

/** Call `fn` every `ms` milliseconds until the next page is drawn in place.
 * @param {number} ms
 * @param {() => void} fn
 */
export function every(ms, fn) {
  const timer = setInterval(fn, ms);
  pageSignal().addEventListener("abort", () => clearInterval(timer));
}
