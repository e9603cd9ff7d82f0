// @ts-check
// Pages drawn in place (issue 45): a link of the app, or a tap's answer, fetched and drawn into this
// document, the keyboard's place kept, a page that did not answer said so.

import { drawable } from "./addresses.js";
import { pageSignal, startPage } from "./page.js";

// A write drawn in place keeps the keyboard's place (issue 60): focus goes back to the same control on
// the page drawn anew (the same player's buy), not to the page's body, seven Tabs from the next buy.
function focusKey(element) {
  if (!element || element === document.body || !element.tagName) return null;
  if (element.id) return `#${CSS.escape(element.id)}`;
  const player = element.dataset ? element.dataset.player : undefined;
  if (player === undefined || !element.classList.length) return null;
  return `${element.tagName.toLowerCase()}.${CSS.escape(element.classList[0])}[data-player="${CSS.escape(player)}"]`;
}

// Drawn instead of opening a new document: on a slow phone the new document (its stylesheet and script
// taken up again) is most of a tap's wait. The address is the page's own (Back opens the page before
// it again, as it is now); the pages that follow a game by themselves (#live) always open as pages.
export function drawnInPlace(html, address) {
  const next = new DOMParser().parseFromString(html, "text/html");
  if (!next.querySelector("main") || next.getElementById("live") || document.getElementById("live")) return false;
  const url = new URL(address, window.location.href);
  const samePage = url.pathname === window.location.pathname && url.search === window.location.search;
  const keyboardAt = samePage ? focusKey(lastFocused) : null;
  startPage();
  document.documentElement.classList.remove("settled");
  document.body.replaceWith(document.adoptNode(next.body));
  document.title = next.title;
  if (url.href !== window.location.href) window.history.pushState(null, "", url.href);
  drawnAt = window.location.pathname + window.location.search;
  const anchor = url.hash ? document.getElementById(decodeURIComponent(url.hash.slice(1))) : null;
  if (anchor) anchor.scrollIntoView();
  else if (!samePage) window.scrollTo(0, 0);
  if (!samePage) focusNewPage();
  drawScripts();
  const again = /** @type {HTMLButtonElement | null} */ (keyboardAt ? document.querySelector(keyboardAt) : null);
  const focusAgain = () => { if (again && again.isConnected) again.focus({ preventScroll: true }); };
  // A button held against a double tap takes the focus once the hold ends.
  if (again && again.disabled) document.addEventListener("page:settled", focusAgain, { once: true, signal: pageSignal() });
  else focusAgain();
  document.dispatchEvent(new Event("page:drawn"));
  return true;
}

// The control last focused, kept while a write is on its way (the button is disabled meanwhile, and a
// disabled button gives its focus back to the page); a tap counts too: Safari does not focus a button.
let lastFocused = null;
document.addEventListener("focusin", (event) => { lastFocused = event.target; });
document.addEventListener("pointerdown", (event) => {
  lastFocused = event.target instanceof Element ? event.target.closest("button, a, input, select, textarea, summary") : null;
}, true);

let drawnAt = window.location.pathname + window.location.search;

// A new page drawn in place is said as one: a screen reader reads from its heading (or the box the
// page asks to be typed in first), where a page opened by the browser would start.
function focusNewPage() {
  const first = /** @type {HTMLElement | null} */ (document.querySelector("main [autofocus]") || document.querySelector("main h1, main h2"));
  if (!first) return;
  if (!first.matches("[autofocus]") && !first.hasAttribute("tabindex")) first.setAttribute("tabindex", "-1");
  first.focus({ preventScroll: true });
}

// An address drawn in place: a page of the app (not a file, not the API, not a page that follows a
// game, not a jump within this page), asked from a page that does not follow one either.
function drawableAddress(url) {
  return drawable(url, window.location, Boolean(document.getElementById("live")));
}

// A link tapped plainly (not for a new tab or window, not a download).
function drawableLink(link, event) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  if (link.hasAttribute("download") || (link.target && link.target !== "_self")) return false;
  return drawableAddress(new URL(link.href));
}

let asking = null;  // the page on its way; a second one asked meanwhile wins

export async function openInPlace(href) {
  if (asking) asking.abort();
  const mine = new AbortController();
  asking = mine;
  document.documentElement.setAttribute("aria-busy", "true");  // a page is on its way (tests wait on it too)
  try {
    const response = await fetch(href, { signal: mine.signal });
    const type = response.headers.get("Content-Type") || "";
    if (type.startsWith("text/html")) {
      const html = await response.text();
      if (asking !== mine) return;
      const url = new URL(response.url);
      url.hash = new URL(href).hash;
      if (drawnInPlace(html, url.href)) return;
    }
  } catch (e) {
    if (!mine.signal.aborted) sayNoAnswer();
    return;
  } finally {
    if (asking === mine) document.documentElement.removeAttribute("aria-busy");
  }
  window.location.assign(href);  // what cannot be drawn here opens as a page
}

// A page asked while the Wi-Fi is down: this page stays, and says so (the browser's own error page
// would leave the game behind, and Back to it would not load either); the same tap works once the
// server answers again.
function sayNoAnswer() {
  let note = /** @type {(HTMLElement & { timer?: number }) | null} */ (document.querySelector(".offline-note"));
  if (!note) {
    note = document.createElement("div");
    note.className = "offline-note";
    note.setAttribute("role", "status");
    document.body.appendChild(note);
  }
  note.hidden = false;
  note.textContent = "No answer from the server: this page stays as it is. Tap again when the Wi-Fi is back.";
  clearTimeout(note.timer);
  note.timer = setTimeout(() => { note.hidden = true; }, 6000);
}

// A form that asks (method get: the meld checker, the season's filter) opens its answer in place too.
export function askedInPlace(form, submitter) {
  if (form.method !== "get" || (form.target && form.target !== "_self")) return null;
  const url = new URL(form.action, window.location.href);
  url.search = new URLSearchParams(/** @type {any} */ (new FormData(form, submitter))).toString();  // FormData of a form is all text
  url.hash = "";
  return drawableAddress(url) ? url.href : null;
}

// The scripts of a page drawn in place (pageScripts, handed over by pagesInPlace).
let drawScripts = () => {};

export function pagesInPlace(scripts) {
  drawScripts = scripts;
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!(link instanceof HTMLAnchorElement) || !drawableLink(link, event)) return;
    event.preventDefault();
    openInPlace(link.href);
  });
  // Back or Forward to another page drawn in place: it opens again, as it is now.
  window.addEventListener("popstate", () => {
    if (window.location.pathname + window.location.search !== drawnAt) window.location.reload();
  });
}
