// Scorekeeper's small helpers; the pages work without them (every action is a plain form).
"use strict";

import { GIVE_UP_MS, RETRY_MS, WAITING_AFTER_MS, createOutbox } from "./outbox.js";

// Keep the screen on while a game is open, with a switch that says how it holds it. The Wake Lock API
// exists only in a secure context (HTTPS, localhost); at the table the phones open plain
// http://192.168.x.x, where it does not, so there a tiny muted looping video is played inline — a
// playing video keeps a phone's screen on (the technique of NoSleep.js, in a few lines of our own).
// Browsers let a video start from a person's tap, so the switch is that tap; the choice is kept on
// the phone, and a later page starts it again at once where the browser allows it.
const SCREEN_KEY = "scorekeeper-screen-on";

function keepAwake() {
  const button = document.querySelector("button.screen-on");
  if (!button || !document.body.classList.contains("keep-awake")) return;
  const hasWakeLock = "wakeLock" in navigator;
  let lock = null;
  let video = null;
  const say = (on, how) => {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    // How it holds the screen is a detail a phone's narrow top bar leaves out (app.css: .how).
    button.textContent = on ? "Screen stays on" : "Keep this screen on";
    if (on) {
      const detail = document.createElement("span");
      detail.className = "how";
      detail.textContent = ` · ${how}`;
      button.appendChild(detail);
    }
    button.title = on ? "Tap to let the screen sleep again" : "Tap to keep the screen on while this page is open";
  };
  const remember = (on) => { try { localStorage.setItem(SCREEN_KEY, on ? "on" : "off"); } catch (e) { /* kept for this page only */ } };
  const wanted = () => { try { return localStorage.getItem(SCREEN_KEY) !== "off"; } catch (e) { return true; } };
  const silentVideo = () => {
    if (video) return video;
    video = document.createElement("video");
    video.muted = true;
    video.loop = true;
    video.playsInline = true;
    video.setAttribute("playsinline", "");
    video.setAttribute("aria-hidden", "true");
    video.className = "screen-on-video";
    for (const [type, url] of [["video/webm", button.dataset.webm], ["video/mp4", button.dataset.mp4]]) {
      const source = document.createElement("source");
      source.type = type;
      source.src = url;
      video.appendChild(source);
    }
    document.body.appendChild(video);
    return video;
  };
  const start = async () => {
    if (hasWakeLock) {
      try {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => { if (document.visibilityState === "visible" && wanted()) say(false); });
        say(true, "Wake Lock");
        return;
      } catch (e) { /* refused (battery saver, a page in the background): try the video */ }
    }
    try {
      await silentVideo().play();
      say(true, "silent video");
    } catch (e) {
      say(false);  // the browser wants a tap first: the switch is that tap
    }
  };
  const stop = () => {
    if (lock) lock.release().catch(() => {});
    lock = null;
    if (video) video.pause();
    say(false);
  };
  button.addEventListener("click", () => {
    if (button.getAttribute("aria-pressed") === "true") { remember(false); stop(); } else { remember(true); start(); }
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && wanted()) start();
  }, { signal: pageScope.signal });
  pageScope.signal.addEventListener("abort", () => { if (lock) lock.release().catch(() => {}); });
  if (wanted()) start();
}

// A double tap must not become two entries. The first tap of a Save or Buy submits; the page then
// changes within ~100 ms, and a second tap up to ~700 ms later lands on the *new* page (a buy button
// under the thumb where Save was). So: (1) once a form is sent, every button on the page is disabled
// until the page changes; (2) a page reached by a form sent or a link tapped a moment ago holds its
// buttons and links until SETTLE_MS after that tap, longer than the slowest double tap (the browser
// tests tap twice 100–700 ms apart), and looks held while it does: the quicker the answer, the
// shorter the hold left, and an answer slower than a double tap holds nothing; a page reached any
// other way (typed, reloaded, opened long after) takes the first tap at once; (3) a page brought back
// by Back from the browser's cache reloads, so its forms are drawn for the game as it is now.
const SETTLE_MS = 900;
const SENT_KEY = "scorekeeper-sent-at";

function markSent() {
  try { sessionStorage.setItem(SENT_KEY, String(Date.now())); } catch (e) { /* private mode: no guard */ }
}

// How much longer this page holds its buttons: what is left of SETTLE_MS since the tap that led here.
function holdLeft() {
  try {
    const sent = Number(sessionStorage.getItem(SENT_KEY) || 0);
    sessionStorage.removeItem(SENT_KEY);
    return sent > 0 ? Math.max(0, Math.min(SETTLE_MS, sent + SETTLE_MS - Date.now())) : 0;
  } catch (e) {
    return 0;
  }
}

function settleButtons() {
  // The links' fold at the top (the players' phones, the night's link) opens only once the page has
  // settled (app.css): the second tap of a double tap, landing as the next page draws, must not open
  // it and move the page under the thumb.
  const settled = () => document.documentElement.classList.add("settled");
  const hold = holdLeft();
  if (!hold) { settled(); return; }
  const buttons = Array.from(document.querySelectorAll("main button:not([disabled])"));
  buttons.forEach((button) => { button.disabled = true; });
  document.body.classList.add("settling");
  // A tap the hold takes is never lost unseen: a held button gets no click, but the finger's
  // pointer events still reach it, so it is said where the finger is (a second buy meant is one
  // more tap away).
  const held = (event) => {
    const button = event.target instanceof Element ? event.target.closest("main button") : null;
    if (button && buttons.includes(button) && document.body.classList.contains("settling")) sayHeld(button);
  };
  document.addEventListener("pointerup", held, { capture: true, signal: pageScope.signal });
  setTimeout(() => {
    settled();
    document.body.classList.remove("settling");
    document.removeEventListener("pointerup", held, true);
    if (!document.body.classList.contains("sending")) buttons.forEach((button) => { button.disabled = false; });
    document.dispatchEvent(new Event("page:settled"));
  }, hold);
}

function sayHeld(button) {
  const place = button.closest("li, p, form") || button.parentElement;
  place.classList.add("holds-note");  // the note floats just above the button: nothing moves under the thumb
  let note = place.querySelector(".held-note");
  if (!note) {
    note = document.createElement("span");
    note.className = "held-note";
    note.setAttribute("role", "status");
    place.appendChild(note);
  }
  note.textContent = button.classList.contains("buy")
    ? "That tap came with the last one: tap again for a second buy."
    : "That tap came with the last one: tap again if you meant it.";
  clearTimeout(note.timer);
  note.timer = setTimeout(() => note.remove(), 4000);
}

// A form sent from a scrolled page comes back to the same page (the game page after a buy): it
// reopens where it was, so the button under the thumb is the one it tapped, not what sits at that
// height at the top of the page. What the tap did is then said in a note floating over the screen,
// with its Undo, until the page's own message area is in sight: at the top, or at the bottom when
// the button tapped was near the top (the note never covers the button a thumb may tap again).
const PLACE_KEY = "scorekeeper-place";
const NOTE_ROOM = 140;  // px at the top of the screen the floating note may take

function keepPlace(tapped) {
  const tapY = tapped ? tapped.getBoundingClientRect().top : null;
  try {
    sessionStorage.setItem(PLACE_KEY, JSON.stringify({ path: window.location.pathname, y: window.scrollY, tapY }));
  } catch (e) { /* private mode: the page opens at the top */ }
}

function backInPlace() {
  let place;
  try {
    place = JSON.parse(sessionStorage.getItem(PLACE_KEY) || "null");
    sessionStorage.removeItem(PLACE_KEY);
  } catch (e) {
    return;
  }
  // Only a page with an outcome area (the game page) reopens in place: on any other page the
  // server's message sits at the top, and the top is where it opens.
  const outcome = document.querySelector(".outcome");
  if (!place || !outcome || place.path !== window.location.pathname || !place.y) return;
  window.scrollTo(0, place.y);
  const said = outcome.querySelector(".flash");
  if (!said || !("IntersectionObserver" in window)) return;
  const note = document.createElement("div");
  const low = place.tapY !== null && place.tapY !== undefined && place.tapY < NOTE_ROOM;
  note.className = `outcome-float ${said.classList.contains("flash-error") ? "is-error" : "is-ok"}${low ? " at-bottom" : ""}`;
  const words = document.createElement("p");
  words.setAttribute("aria-hidden", "true");  // the message itself is announced where it stands
  words.textContent = said.textContent.trim();
  note.appendChild(words);
  // The Undo of the message, within reach where the message is read: the page's own form, moved
  // here while the page's message area is out of sight.
  const undo = outcome.querySelector(".undo-offer");
  const home = undo ? undo.parentElement : null;
  document.body.appendChild(note);
  // In sight: the whole message area, its Undo included.
  new IntersectionObserver((entries) => {
    const inSight = entries.some((entry) => entry.intersectionRatio > 0.99);
    note.hidden = inSight;
    if (undo) (inSight ? home : note).appendChild(undo);
  }, { threshold: [0, 0.5, 1] }).observe(outcome);
}

// Nothing lost when the Wi-Fi drops (issue 41): the game page's writes (buys, undo, a round or a
// hand saved) go through the outbox (outbox.js: the queue, tested without a browser in tests/js/);
// here is what it shows on the page: the banner while the server is silent, the figures that do not
// count what waits, and the server's answer drawn in place.
// How often a following page asks whether anything moved (a 304 of a few hundred bytes while nothing
// did): a save shows on the table view and the players' phones within a second (issue 45).
const FOLLOW_MS = 750;
// 24-hour, as the server writes every time on the pages: one time format for the household (issue 60).
const clock = (when) => new Date(when).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

// Figures on this page that do not count entries still waiting (buys left, the scorepad) are dimmed
// and say so just below them: below, so nothing the thumb may tap again moves.
function markScores(waiting) {
  document.querySelectorAll("[data-scores-of]").forEach((scores) => {
    const mine = waiting.filter((entry) => entry.game === scores.dataset.scoresOf);
    let note = scores.nextElementSibling;
    if (!note || !note.classList.contains("not-saved-note")) {
      // Not a live region: the page's one banner says it (issue 60: it was announced three times).
      note = document.createElement("p");
      note.className = "behind-note not-saved-note";
      scores.after(note);
    }
    scores.classList.toggle("not-saved", mine.length > 0);
    note.hidden = !mine.length;
    const said = mine.length ? `Not yet saved: these figures do not count ${mine.map((entry) => entry.label).join(", ")}.` : "";
    if (note.textContent !== said) note.textContent = said;
  });
}

let outboxBanner = null;
function sayWaiting(queue, since) {
  markScores(since ? queue : []);
  if (!queue.length || !since) { if (outboxBanner) outboxBanner.hidden = true; return; }
  if (!outboxBanner || !outboxBanner.isConnected) {  // a page drawn in place leaves the old one behind
    outboxBanner = document.createElement("div");
    outboxBanner.className = "outbox-note";
    outboxBanner.setAttribute("role", "status");
    document.body.appendChild(outboxBanner);
  }
  outboxBanner.hidden = false;
  const what = queue.map((entry) => entry.label).join(", ");
  const said = `No answer from the server since ${clock(since)}: ${queue.length} waiting (${what}), `
    + "not yet saved; sent by themselves when it answers.";
  if (outboxBanner.textContent !== said) outboxBanner.textContent = said;  // said once, not at every retry
}

// The answer shown: the page the server answered with (the game page after a buy, an undo or a
// Save), drawn in place; an answer that was not followed, or cannot be drawn here, opens as a page.
async function arrive(entry, response) {
  if (response.redirected) {
    try {
      const then = new URL(entry.then, window.location.href);
      const url = new URL(response.url);
      if (url.pathname === then.pathname) url.hash = then.hash;
      if (drawnInPlace(await response.text(), url.href)) return;
    } catch (e) { /* opened as a page below */ }
  }
  window.location.assign(entry.then);
}

// Not recorded (a form refused with what was typed, a question): sent once more as a plain form, so
// the server's own page for it opens. No submit event: it does not come back through the outbox.
function showAsPage(entry) {
  const plain = document.createElement("form");
  plain.method = "post";
  plain.action = entry.url;
  plain.hidden = true;
  new URLSearchParams(entry.body).forEach((value, name) => {
    const field = document.createElement("input");
    field.type = "hidden";
    field.name = name;
    field.value = value;
    plain.appendChild(field);
  });
  document.body.appendChild(plain);
  plain.submit();
}

function outbox() {
  const box = createOutbox({
    storage: localStorage, fetch: (url, init) => fetch(url, init), now: () => Date.now(),
    later: (fn, ms) => setTimeout(fn, ms), cancel: (timer) => clearTimeout(timer),
    changed: sayWaiting, show: showAsPage, arrive, sameTapMs: SETTLE_MS,
  });
  window.addEventListener("online", box.retry);
  return {
    send: (form, submitter) => box.send({
      url: form.action, fields: new URLSearchParams(new FormData(form, submitter)), then: form.dataset.outbox,
      label: form.dataset.outboxLabel, game: form.dataset.outboxGame,
    }),
  };
}

// Pages drawn in place (issue 45): a link of the app, or a tap's answer, fetched and drawn into this
// document instead of opening a new one: on a slow phone the new document (its stylesheet and script
// taken up again) is most of a tap's wait. What a page's scripts leave running (polls, listeners on
// the document, a screen kept on) belongs to `pageScope` and stops when the next page is drawn.
// The address is the page's own (Back opens the page before it again, as it is now); the pages that
// follow a game by themselves (#live) always open as pages.
let pageScope = new AbortController();

function every(ms, fn) {
  const timer = setInterval(fn, ms);
  pageScope.signal.addEventListener("abort", () => clearInterval(timer));
}

// A write drawn in place keeps the keyboard's place (issue 60): focus goes back to the same control on
// the page drawn anew (the same player's buy), not to the page's body, seven Tabs from the next buy.
function focusKey(element) {
  if (!element || element === document.body || !element.tagName) return null;
  if (element.id) return `#${CSS.escape(element.id)}`;
  const player = element.dataset ? element.dataset.player : undefined;
  if (player === undefined || !element.classList.length) return null;
  return `${element.tagName.toLowerCase()}.${CSS.escape(element.classList[0])}[data-player="${CSS.escape(player)}"]`;
}

function drawnInPlace(html, address) {
  const next = new DOMParser().parseFromString(html, "text/html");
  if (!next.querySelector("main") || next.getElementById("live") || document.getElementById("live")) return false;
  const url = new URL(address, window.location.href);
  const samePage = url.pathname === window.location.pathname && url.search === window.location.search;
  const keyboardAt = samePage ? focusKey(lastFocused) : null;
  pageScope.abort();
  pageScope = new AbortController();
  document.documentElement.classList.remove("settled");
  document.body.replaceWith(document.adoptNode(next.body));
  document.title = next.title;
  if (url.href !== window.location.href) window.history.pushState(null, "", url.href);
  drawnAt = window.location.pathname + window.location.search;
  const anchor = url.hash ? document.getElementById(decodeURIComponent(url.hash.slice(1))) : null;
  if (anchor) anchor.scrollIntoView();
  else if (!samePage) window.scrollTo(0, 0);
  if (!samePage) focusNewPage();
  pageScripts();
  const again = keyboardAt ? document.querySelector(keyboardAt) : null;
  const focusAgain = () => { if (again && again.isConnected) again.focus({ preventScroll: true }); };
  // A button held against a double tap takes the focus once the hold ends.
  if (again && again.disabled) document.addEventListener("page:settled", focusAgain, { once: true, signal: pageScope.signal });
  else focusAgain();
  document.dispatchEvent(new Event("page:drawn"));
  return true;
}

// The control last focused, kept while a write is on its way (the button is disabled meanwhile, and a
// disabled button gives its focus back to the page); a tap counts too: Safari does not focus a button.
let lastFocused = null;
document.addEventListener("focusin", (event) => { lastFocused = event.target; });
document.addEventListener("pointerdown", (event) => {
  lastFocused = event.target.closest ? event.target.closest("button, a, input, select, textarea, summary") : null;
}, true);

let drawnAt = window.location.pathname + window.location.search;

// A new page drawn in place is said as one: a screen reader reads from its heading (or the box the
// page asks to be typed in first), where a page opened by the browser would start.
function focusNewPage() {
  const first = document.querySelector("main [autofocus]") || document.querySelector("main h1, main h2");
  if (!first) return;
  if (!first.matches("[autofocus]") && !first.hasAttribute("tabindex")) first.setAttribute("tabindex", "-1");
  first.focus({ preventScroll: true });
}

// An address drawn in place: a page of the app (not a file, not the API, not a page that follows a
// game, not a jump within this page), asked from a page that does not follow one either.
function drawableAddress(url) {
  const path = url.pathname;
  if (url.origin !== window.location.origin || document.getElementById("live")) return false;
  if (/^\/(static|api|live|night)\//.test(path) || /\/table$/.test(path) || path.split("/").pop().includes(".")) return false;
  return !(path === window.location.pathname && url.search === window.location.search && url.hash);
}

// A link tapped plainly (not for a new tab or window, not a download).
function drawableLink(link, event) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  if (link.hasAttribute("download") || (link.target && link.target !== "_self")) return false;
  return drawableAddress(new URL(link.href));
}

let asking = null;  // the page on its way; a second one asked meanwhile wins

async function openInPlace(href) {
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
  let note = document.querySelector(".offline-note");
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
function askedInPlace(form, submitter) {
  if (form.method !== "get" || (form.target && form.target !== "_self")) return null;
  const url = new URL(form.action, window.location.href);
  url.search = new URLSearchParams(new FormData(form, submitter)).toString();
  url.hash = "";
  return drawableAddress(url) ? url.href : null;
}

function pagesInPlace() {
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!link || !drawableLink(link, event)) return;
    event.preventDefault();
    openInPlace(link.href);
  });
  // Back or Forward to another page drawn in place: it opens again, as it is now.
  window.addEventListener("popstate", () => {
    if (window.location.pathname + window.location.search !== drawnAt) window.location.reload();
  });
}

function oneSubmitPerPage(box) {
  document.addEventListener("submit", (event) => {
    if (document.body.classList.contains("sending")) { event.preventDefault(); return; }
    const form = event.target;
    const asked = askedInPlace(form, event.submitter || null);
    if (asked) {
      event.preventDefault();
      markSent();
      openInPlace(asked);
      return;
    }
    if (form.dataset.outbox) {  // through the outbox: the page stays usable while it waits
      event.preventDefault();
      markSent();
      keepPlace(event.submitter || null);
      box.send(form, event.submitter || null);
      return;
    }
    document.body.classList.add("sending");
    markSent();
    keepPlace(event.submitter || null);
    // Disable after the form's data is taken, so the button tapped is still part of it.
    setTimeout(() => document.querySelectorAll("main button").forEach((b) => { b.disabled = true; }), 0);
  });
  // A link that opens another page of the app is a send too: its second tap must not land there.
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[href]");
    if (link && link.origin === window.location.origin && !link.hasAttribute("download")) markSent();
  });
  window.addEventListener("pageshow", (event) => { if (event.persisted) window.location.reload(); });
}

// New game: label the first-dealer choices with the names as they are typed.
function relabelDealers() {
  const select = document.querySelector("[data-relabel-from]");
  if (!select) return;
  const inputs = document.querySelectorAll(".player-inputs input");
  const update = () => {
    inputs.forEach((input, seat) => {
      const option = select.querySelector(`option[value="${seat}"]`);
      if (option) option.textContent = input.value.trim() || `Player ${seat + 1}`;
    });
  };
  inputs.forEach((input) => input.addEventListener("input", update));
  update();
}

// The tap pad: each tap adds one card to the selected line (a player's hand, or a meld).
// `isOpen(row)` says which rows take cards; `changed()` runs after every edit. With `onlyForCards`
// the pad shows only while a card line is chosen (a form that is mostly number boxes).
function tapPad(form, isOpen, changed, onlyForCards = false) {
  const rows = Array.from(form.querySelectorAll(".hand-row"));
  const inputOf = (row) => row.querySelector(".hand-input");
  const openRows = () => rows.filter(isOpen);
  let active = null;
  const pad = form.querySelector(".tap-pad");
  // Every line in one view above the sticky card pad (below the sticky strip) where they fit, so the
  // round reads whole before Save; else the line being filled.
  const keepInSight = (row, whole) => {
    form.style.setProperty("--pad-height", `${pad.offsetHeight + 8}px`);
    const lines = whole ? row.closest("fieldset.caught") : null;
    const strip = document.querySelector(".contract-strip");
    const top = strip ? strip.getBoundingClientRect().bottom : 0;
    const bottom = pad.getBoundingClientRect().top;
    const box = lines ? lines.getBoundingClientRect() : null;
    if (!box || box.height > bottom - top) { row.scrollIntoView({ block: "nearest" }); return; }
    if (box.top < top || box.bottom > bottom) window.scrollBy(0, box.bottom > bottom ? box.bottom - bottom : box.top - top);
  };
  // whole: the person chose a line (tapped it, or a card for it); a line chosen for them as the page
  // opens only comes into sight, so the page's own message (a refused Save) stays where it is read.
  // The line the pad types into is marked for every reader, not only by its colour (issue 60): it is
  // the current one, and the pad's own name says whose line its buttons fill.
  const padLabel = pad ? pad.getAttribute("aria-label") : "";
  const select = (row, whole = true) => {
    rows.forEach((r) => {
      r.classList.toggle("active", r === row);
      if (r === row) r.setAttribute("aria-current", "true"); else r.removeAttribute("aria-current");
    });
    const name = row && row.querySelector(".hand-name");
    if (pad) pad.setAttribute("aria-label", name ? `${padLabel}: ${name.textContent.trim()}` : padLabel);
    active = row;
    if (onlyForCards && pad) pad.hidden = !row;
    if (row && pad) keepInSight(row, whole);
  };
  // The line to fill first: the one a refused Save named, else the first open one.
  const firstToFill = () => openRows().find((r) => r.querySelector(".field-error")) || openRows()[0] || null;
  const edit = (change) => {
    if (!active || !isOpen(active)) select(firstToFill());
    if (!active) return;
    const input = inputOf(active);
    const cards = input.value.trim().split(/[\s,]+/).filter(Boolean);
    change(cards);
    input.value = cards.join(" ");
    changed();
  };
  form.querySelectorAll("[data-card]").forEach((button) =>
    button.addEventListener("click", () => edit((cards) => cards.push(button.dataset.card))));
  form.querySelectorAll("[data-suit]").forEach((button) =>
    button.addEventListener("click", () => edit((cards) => {
      const last = cards.pop();
      if (last === undefined) return;
      const bare = last.replace(/[SHDC♠♥♦♣]$/i, "");
      cards.push(/^(JKR|JK|JOKER|\*)$/i.test(bare) ? bare : bare + button.dataset.suit);
    })));
  form.querySelector('[data-action="back"]').addEventListener("click", () => edit((cards) => cards.pop()));
  // A pad of one line (a phone's own hand) has no Next key.
  form.querySelector('[data-action="next"]')?.addEventListener("click", () => {
    const open = openRows();
    select(open[(open.indexOf(active) + 1) % open.length] || null);
  });
  // An error shown for a line goes as soon as the line is edited: the edit may well fix it.
  rows.forEach((row) => inputOf(row).addEventListener("input", () =>
    row.querySelectorAll(".field-error").forEach((e) => e.remove())));
  rows.forEach((row) => {
    row.addEventListener("click", () => { if (isOpen(row)) select(row); });
    // A tap on the name chooses the line without focusing its box: a phone would open its keyboard
    // over the card pad. The box takes focus only when tapped itself (the person chose to type).
    const name = row.querySelector(".hand-name");
    if (name) name.addEventListener("click", (event) => event.preventDefault());
    inputOf(row).addEventListener("focus", () => select(row));
    inputOf(row).addEventListener("input", changed);
  });
  if (onlyForCards) {
    // A number box or a stepper chosen: no card pad over the form.
    form.addEventListener("focusin", (event) => {
      if (event.target.matches("input:not(.hand-input), .step")) select(null);
    });
  }
  return {
    rows,
    inputOf,
    activeRow: () => active,
    reselect: () => { if (!active || !isOpen(active)) select(firstToFill(), false); },
  };
}

// Round entry: who went out (their box is closed), and live points from the engine.
function roundForm() {
  const form = document.querySelector(".round-form");
  if (!form) return;
  const error = form.querySelector(".preview-error");
  const outName = () => {
    const checked = form.querySelector('input[name="went_out"]:checked');
    return checked ? checked.value : "";
  };
  let timer = null;
  let edited = false;  // has the person changed anything since the page was drawn?
  const schedulePreview = () => { clearTimeout(timer); timer = setTimeout(preview, 250); };
  const draft = keepDraft(form, "round", () => {
    markOut();
    pad.rows.forEach((row) => { row.querySelector(".live").textContent = ""; });
  });
  const pad = tapPad(form, (row) => row.dataset.player !== outName(), () => { edited = true; schedulePreview(); draft.save(); });
  takeLineToChecker(pad, "hand");
  const markOut = () => {
    const hint = form.querySelector(".preview-hint");
    if (hint) hint.hidden = Boolean(outName());
    pad.rows.forEach((row) => {
      const isOut = row.dataset.player === outName();
      row.classList.toggle("is-out", isOut);
      pad.inputOf(row).disabled = isOut;
    });
    pad.reselect();
  };
  form.querySelectorAll('input[name="went_out"]').forEach((radio) =>
    radio.addEventListener("change", () => { edited = true; markOut(); schedulePreview(); }));
  // Disabled inputs are not submitted; re-enable just before sending so nothing typed is lost.
  form.addEventListener("submit", () => pad.rows.forEach((row) => { pad.inputOf(row).disabled = false; }));

  const preview = async () => {
    const caught = {};
    pad.rows.filter((row) => row.dataset.player !== outName())
      .forEach((row) => { caught[row.dataset.player] = pad.inputOf(row).value; });
    const body = { went_out: outName(), caught, round: Number(form.dataset.round) };
    // Nothing is wrong before anyone is marked out: the next step is said as a hint, not an error.
    const hint = form.querySelector(".preview-hint");
    if (hint) hint.hidden = Boolean(body.went_out);
    if (!body.went_out) {
      error.hidden = true;
      pad.rows.forEach((row) => { row.querySelector(".live").textContent = ""; });
      return;
    }
    try {
      const response = await fetch(form.dataset.previewUrl, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      const data = await response.json();
      if (!response.ok) {
        error.hidden = false;
        error.textContent = data.error;
        // No points for a line that does not read as cards (nor, when the fault is the round's, any line).
        pad.rows.filter((row) => !data.player || row.dataset.player === data.player)
          .forEach((row) => { row.querySelector(".live").textContent = ""; });
        return;
      }
      error.hidden = true;
      // The whole round reads after an edit: the errors of the last Save about what was typed no
      // longer stand. Never on load (the server's reason must be seen), and never a refusal
      // because the game moved on (.standing): that stays until the person acts.
      if (edited) {
        form.parentElement.querySelectorAll(".flash-error:not(.standing), .hand-row .field-error, .went-out .field-error")
          .forEach((e) => e.remove());
      }
      pad.rows.forEach((row) => {
        const r = data[row.dataset.player];
        row.querySelector(".live").textContent = !r ? "" : form.dataset.penny === "1"
          ? `${r.points} pts · ${r.pennies} p` : `${r.points} pts`;  // a count of pennies, never cents
      });
    } catch (e) {
      error.hidden = false;
      error.textContent = "No connection to the app: points will show when it is back. Nothing is lost.";
    }
  };
  draftsFromPhones(form, pad, () => { edited = true; schedulePreview(); draft.save(); });
  markOut();
  if (outName()) preview();
}

// "Check melds" from a form takes the cards of the line being filled (or the first line with cards),
// so the hand typed so far is the question; `stage` is the checker's question to ask of them.
function takeLineToChecker(pad, stage) {
  const link = document.querySelector("a.check-melds");
  if (!link) return;
  link.addEventListener("click", () => {
    const chosen = pad.activeRow();
    const withCards = pad.rows.filter((row) => pad.inputOf(row).value.trim());
    const row = chosen && pad.inputOf(chosen).value.trim() ? chosen : withCards[0];
    const url = new URL(link.href, window.location.href);
    url.searchParams.delete("melds-0");
    url.searchParams.delete("stage");
    if (row) {
      url.searchParams.set("melds-0", pad.inputOf(row).value.trim());
      if (stage) url.searchParams.set("stage", stage);
    }
    link.href = url.toString();
  });
}

// A round or hand being entered is kept on this phone until it is saved or discarded: leaving for the
// meld checker (or any page) and coming back finds it again. Keyed by the form's page and round, so
// it never fills another round's form; what the server drew (a refused Save) wins over the draft.
// Kept: the boxes a person types or taps (not the form's version, key or token, which belong to the
// page as drawn).
const KEPT_FIELDS = 'input[type="text"], input:not([type]), input[type="number"], input[type="radio"]';

function keepDraft(form, word, cleared) {
  const key = `scorekeeper-draft:${window.location.pathname}:${word}-${form.dataset.round}`;
  const fields = () => Array.from(form.querySelectorAll(KEPT_FIELDS)).filter((f) => f.name);
  const typed = () => {
    const values = {};
    fields().forEach((f) => {
      if (f.type !== "radio") values[f.name] = f.value;
      else if (f.checked) values[f.name] = f.value;
    });
    return values;
  };
  const setAll = (values) => fields().forEach((f) => {
    if (f.type === "radio") f.checked = values[f.name] === f.value;
    else f.value = values[f.name] || "";
  });
  // A form drawn from the server's record (not a Save it refused) is where a draft comes back.
  const fresh = form.dataset.fresh === "1";
  const drawn = typed();
  const same = (values) => JSON.stringify(values) === JSON.stringify(drawn);
  const save = () => {
    const values = typed();
    try {
      if (fresh && same(values)) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(values));
    } catch (e) { /* storage full or off: the form still works, only the draft is not kept */ }
  };
  const note = () => {
    const p = document.createElement("p");
    p.className = "flash flash-ok draft-note";
    p.setAttribute("role", "status");
    p.textContent = "Restored what you were entering on this phone (not saved yet). ";
    const discard = document.createElement("button");
    discard.type = "button";
    discard.className = "button small";
    discard.textContent = "Discard it";
    discard.addEventListener("click", () => {
      try { localStorage.removeItem(key); } catch (e) { /* nothing kept */ }
      setAll(drawn);
      p.remove();
      cleared();
    });
    p.appendChild(discard);
    form.parentElement.insertBefore(p, form);
  };
  let kept;
  try { kept = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { kept = null; }
  if (fresh && kept && typeof kept === "object" && !same(kept)) {
    setAll(kept);
    note();
  }
  form.addEventListener("input", save);
  form.addEventListener("change", save);
  form.addEventListener("submit", () => {
    try { sessionStorage.setItem(DRAFT_SENT_KEY, key); } catch (e) { /* kept until discarded */ }
  });
  return { save };
}

// A draft sent with Save is done with once the app has moved on to another page (the game page: it
// was saved); a form drawn again at the same page (refused) keeps it.
const DRAFT_SENT_KEY = "scorekeeper-draft-sent";

function forgetSavedDraft() {
  try {
    const sent = sessionStorage.getItem(DRAFT_SENT_KEY);
    sessionStorage.removeItem(DRAFT_SENT_KEY);
    if (sent && !sent.startsWith(`scorekeeper-draft:${window.location.pathname}:`)) localStorage.removeItem(sent);
  } catch (e) { /* nothing kept */ }
}

function meldForm() {
  const form = document.querySelector(".meld-form");
  if (form) tapPad(form, () => true, () => {});
}

// Steppers (red threes, books): − and + change the count by one, never below 0.
function steppers() {
  document.querySelectorAll(".stepper").forEach((stepper) => {
    const input = stepper.querySelector("input");
    stepper.querySelectorAll("[data-step]").forEach((button) => button.addEventListener("click", () => {
      const now = parseInt(input.value || "0", 10);
      input.value = String(Math.min(99, Math.max(0, (Number.isNaN(now) ? 0 : now) + Number(button.dataset.step))));
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }));
  });
}

// A number the table counted, or what was typed (the app says why it is not a number).
function countOrText(input) {
  const text = input.value.trim();
  if (text === "") return null;
  return /^\d+$/.test(text) ? Number(text) : text;
}

const MINUS = "\u2212";
const plain = (n) => (n < 0 ? MINUS + Math.abs(n) : String(n));
const signed = (n) => (n > 0 ? "+" + n : plain(n));

// Hand entry by sides (Pennies From Heaven): each side's score and game total as it is entered.
function handForm() {
  const form = document.querySelector(".hand-form");
  if (!form) return;
  const error = form.querySelector(".preview-error");
  const sides = Array.from(form.querySelectorAll("fieldset.side"));
  let timer = null;
  const schedule = () => { clearTimeout(timer); timer = setTimeout(preview, 300); };
  const draft = keepDraft(form, "hand", () => schedule());
  const pad = tapPad(form, (row) => row.offsetParent !== null, () => { schedule(); draft.save(); }, true);
  takeLineToChecker(pad, "");
  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);
  // The side that went out has nothing left in hand: its boxes are hidden and not sent (kept as typed,
  // should the choice change).
  const markSides = () => {
    const checked = form.querySelector('input[name="went_out"]:checked');
    const out = checked ? checked.value : null;
    sides.forEach((fieldset) => {
      const isOut = JSON.parse(fieldset.dataset.players).includes(out);
      fieldset.querySelectorAll(".left-in-hand").forEach((box) => {
        box.hidden = isOut;
        box.querySelectorAll("input").forEach((input) => { input.disabled = isOut; });
      });
      fieldset.querySelector(".went-out-note").hidden = !isOut;
      // Another side went out and this one melded nothing: it is caught off the board, and its piles
      // count (issue 60: they sat in a closed, unmarked fold). Opened and marked; never closed here.
      const melded = ["natural", "mixed", "sevens", "wild", "melded_points"].some((kind) => {
        const box = fieldset.querySelector(`input[name$="-${kind}"]`);
        return box && Number(box.value) > 0;
      }) || Boolean((fieldset.querySelector('input[name$="-melded"]') || { value: "" }).value.trim());
      const counts = Boolean(out) && out !== "nobody" && !isOut && !melded;
      fieldset.querySelectorAll("details.pile").forEach((fold) => {
        if (counts) fold.open = true;
        fold.querySelector(".pile-counts").hidden = !counts;
      });
    });
  };
  form.querySelectorAll('input[name="went_out"]').forEach((radio) => radio.addEventListener("change", markSides));
  form.addEventListener("input", markSides);
  markSides();

  const sideData = (fieldset) => {
    const side = { players: JSON.parse(fieldset.dataset.players), books: {}, hands: {}, piles: {} };
    fieldset.querySelectorAll("[data-count]").forEach((input) => {
      const count = countOrText(input);
      if (input.dataset.count === "red_threes") side.red_threes = count;
      else side.books[input.dataset.count] = count;
    });
    const meldedPoints = countOrText(fieldset.querySelector('[data-points="melded"]'));
    const melded = fieldset.querySelector('[data-cards="melded"]').value.trim();
    if (meldedPoints !== null) side.melded_points = meldedPoints;
    if (melded) side.melded = melded;
    for (const role of ["hand", "pile"]) {
      const into = role === "hand" ? side.hands : side.piles;
      const sent = (selector) => Array.from(fieldset.querySelectorAll(selector)).filter((input) => !input.disabled);
      sent(`[data-cards="${role}"]`).forEach((input) => { into[input.dataset.player] = input.value; });
      sent(`[data-points="${role}"]`).forEach((input) => {
        const points = countOrText(input);
        if (points !== null) into[input.dataset.player] = points;
      });
    }
    return side;
  };
  const show = (fieldset, result) => {
    fieldset.querySelector(".side-live").textContent = result
      ? `This hand ${signed(result.score)} · game total ${plain(result.total)}` : "";
  };
  const preview = async () => {
    const checked = form.querySelector('input[name="went_out"]:checked');
    const wentOut = checked && checked.value !== "nobody" ? checked.value : null;
    const body = { went_out: wentOut, sides: sides.map(sideData), round: Number(form.dataset.round) };
    try {
      const response = await fetch(form.dataset.previewUrl, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      const data = await response.json();
      const problem = response.ok ? data.problem : data.error;
      error.hidden = !problem;
      error.textContent = problem || "";
      sides.forEach((fieldset) => show(fieldset, response.ok ? data.sides[fieldset.dataset.side] : null));
    } catch (e) {
      error.hidden = false;
      error.textContent = "No connection to the app: totals will show when it is back. Nothing is lost.";
    }
  };
  steppers();
  pointsFromPhones(form, () => { schedule(); draft.save(); });
  preview();
}

// A player's own hand, from the live view on their own phone (issue 27): they say once who they are
// (kept on the phone), then tap the cards they were caught with; each change is sent as a draft the
// scorekeeper's round form shows. A draft changes nothing in the game: the scorekeeper saves the round.
const ME_KEY = "scorekeeper-phone-is";

function myHand() {
  const section = document.querySelector(".my-hand");
  if (!section) return;
  const form = section.querySelector(".my-hand-form");
  const who = section.querySelector('select[name="me"]');
  const status = section.querySelector(".my-hand-status");
  const error = section.querySelector(".my-hand-error");
  const late = section.querySelector(".my-hand-late");
  const roundLabel = section.querySelector(".my-hand-round");
  // Followed from the night's link, the phone says once who it is for the whole night.
  const key = section.dataset.night ? `${NIGHT_ME_KEY}:${section.dataset.night}` : `${ME_KEY}:${section.dataset.game}`;
  const bySides = section.dataset.bySides === "1";
  const word = bySides ? "hand" : "round";  // what the table calls one deal
  const Word = `${word[0].toUpperCase()}${word.slice(1)}`;
  const json = (method, url, body) => fetch(url, {
    method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const currentRound = () => {
    const marker = document.querySelector("#live .live-round");
    return marker ? marker.dataset.round : "";
  };
  const choose = async (name) => {
    try { localStorage.setItem(key, name); } catch (e) { /* asked again next time */ }
    form.hidden = !name;
    try { await json("PUT", section.dataset.phoneUrl, { player: name || null }); } catch (e) { /* sent with the next draft */ }
  };
  const inputs = () => Array.from(form.querySelectorAll("input"));
  const typed = () => inputs().map((input) => input.value).join("|");
  // A hand belongs to the round it was typed in: the round is fixed by its first tap, and every send
  // of that hand goes to that round, also once the view has moved on. A round saved meanwhile takes
  // it only as a correction request, when the player says so; it is never filed in the next round.
  let draftRound = "";
  let correcting = false;  // the player chose to send this hand as a correction request
  let acknowledged = null;  // what the server last took for draftRound (null: nothing yet)
  let timer = null;
  let pending = false;  // typed, not yet sent
  let waitingSince = null;  // the server has not answered since
  // The hand on its way, kept in the page's storage until the server answers: a reload (or the tab
  // closed) while the server is away does not lose it; the next load sends it again (it replaces
  // whatever that phone sent before, so twice is once).
  const waitingKey = `scorekeeper-hand-waiting:${section.dataset.game}`;
  const keepWaiting = (hand) => {
    try {
      if (hand) localStorage.setItem(waitingKey, JSON.stringify(hand)); else localStorage.removeItem(waitingKey);
    } catch (e) { /* this page only */ }
  };
  const showRound = () => {
    const number = draftRound || currentRound();
    roundLabel.textContent = number ? `for ${word} ${number}` : "";
  };
  const settle = (text) => {
    late.hidden = true;
    error.hidden = true;
    status.textContent = text;
  };
  const startAfresh = () => {
    inputs().forEach((input) => { input.value = ""; });
    draftRound = "";
    correcting = false;
    acknowledged = null;
    pending = false;
    clearTimeout(timer);
    const now = currentRound();
    const next = bySides ? "enter the points left in your hand when it ends" : "tap the cards you are caught with when it ends";
    settle(now ? `${Word} ${now}: ${next}.` : "The game is over.");
    section.hidden = !now;  // no pad left at game over: the result and the money are what is shown
    showRound();
  };
  const send = async () => {
    clearTimeout(timer);
    pending = false;
    const me = who.value;
    if (!draftRound || !me) return;
    const round = draftRound;
    const sending = typed();
    const cards = form.querySelector('input[name="cards"]');
    const points = form.querySelector('input[name="points"]');
    const body = cards ? { cards: cards.value } : { points: points.value.trim() === "" ? null : Number(points.value) };
    if (correcting) body.correction = true;
    const url = `${section.dataset.draftsUrl.replace("/rounds/0/", `/rounds/${round}/`)}/${encodeURIComponent(me)}`;
    let response;
    let data;
    const waiting = () => {
      if (!waitingSince) waitingSince = Date.now();
      status.textContent = `Waiting for the server since ${clock(waitingSince)}: your hand for ${word} ${round} `
        + "is kept on this phone and sent by itself when it answers.";
    };
    const stop = new AbortController();
    const slow = setTimeout(waiting, WAITING_AFTER_MS);
    const hung = setTimeout(() => stop.abort(), GIVE_UP_MS);
    keepWaiting({ url, body, round });
    try {
      response = await fetch(url, {
        method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal: stop.signal,
      });
      data = await response.json();
    } catch (e) {
      waiting();
      pending = true;
      timer = setTimeout(send, RETRY_MS);
      return;
    } finally {
      clearTimeout(slow);
      clearTimeout(hung);
    }
    waitingSince = null;
    keepWaiting(null);
    if (round !== draftRound) return;  // cleared meanwhile: that hand is done with
    if (response.ok) {
      acknowledged = sending;
      // Words a player reads, not the scorepad's shorthand (issue 60: "5 p." on phones).
      const scored = `${data.points} points${data.pennies ? ` · ${data.pennies} ${data.pennies === 1 ? "penny" : "pennies"}` : ""}`;
      if (!data.correction && currentRound() !== round) {
        holdSaved(round);  // taken just before the round was saved: in it, or kept as a correction request
        return;
      }
      settle(data.correction
        ? `Sent to the scorekeeper as a correction request for ${word} ${round}: ${scored}.`
        : `Sent to the scorekeeper for ${word} ${round}: ${scored}.`);
      if (data.correction) showLate(false); else late.hidden = true;
      return;
    }
    refused(data.error || "");
  };
  // Not taken: what was typed stays in sight with the reason; for a round saved meanwhile, with the
  // offer to send it as a correction request.
  const refused = (why) => {
    acknowledged = null;
    form.open = true;  // a refusal is never folded away out of sight
    error.hidden = false;
    error.textContent = why;
    const saved = / was saved already/.test(why);
    if (saved) showLate(true); else late.hidden = true;
    status.textContent = saved
      ? `Your cards for ${word} ${draftRound} are kept here, not sent.`
      : "Not sent: see why below. What you typed is kept.";
  };
  // The round this hand was sent for is saved (issue 58). The hand stays in sight, for its round,
  // until the player goes on: a tap landing now adds to that round's hand (sent only as a correction
  // request, when the player says so), never to the next round's. The server kept the hand as a
  // correction request if the Save neither took it nor showed it to the scorekeeper: said so here.
  const holdSaved = async (round) => {
    let mine = null;
    try {
      const url = section.dataset.draftsUrl.replace("/rounds/0/", `/rounds/${round}/`);
      const data = await (await fetch(url, { cache: "no-store" })).json();
      mine = data.drafts.find((draft) => draft.player === who.value) || null;
    } catch (e) { /* the Wi-Fi dropped: the scorepad says what counted */ }
    if (round !== draftRound || acknowledged !== typed()) return;  // typed on or cleared meanwhile
    correcting = Boolean(mine);  // a tap more changes the request
    settle(mine
      ? `${Word} ${round} was saved before your last change reached the scorekeeper: `
        + `${mine.cards === null ? "" : `${mine.cards} `}(${mine.points} points) waits there as a correction request.`
      : `${Word} ${round} is saved: your line on the scorepad shows what counted.`);
    showLate(false);
  };
  // The choices beside a hand kept for a saved round: send it as a correction request (unless it is
  // one already), or clear it and go on.
  const showLate = (offerCorrection) => {
    late.hidden = false;
    late.querySelector(".send-correction").hidden = !offerCorrection;
    late.querySelector(".send-correction").textContent = `Send as a correction request for ${word} ${draftRound}`;
    const next = currentRound();
    late.querySelector(".clear-late").textContent = next ? `Clear: go on to ${word} ${next}` : "Clear: the game is over";
  };
  // Cards tapped for a round the phone knows is saved are kept here at once, with the offer to send
  // them as a correction request (the server would refuse them as a draft).
  const keepForSavedRound = () => {
    clearTimeout(timer);
    pending = false;
    refused(`${word} ${draftRound} was saved already: tell the scorekeeper, or send it as a correction request`);
  };
  // A hand that was on its way when the page was left: sent again until the server takes or refuses it.
  const resendKeptHand = async () => {
    let hand;
    try { hand = JSON.parse(localStorage.getItem(waitingKey) || "null"); } catch (e) { hand = null; }
    if (!hand) return;
    status.textContent = `Your ${word === "hand" ? "cards" : "hand"} for ${word} ${hand.round}, typed before this page was reloaded, is being sent.`;
    try {
      const response = await json("PUT", hand.url, hand.body);
      keepWaiting(null);
      status.textContent = response.ok
        ? `Sent to the scorekeeper for ${word} ${hand.round}, as typed before this page was reloaded.`
        : `Your ${word === "hand" ? "cards" : "hand"} for ${word} ${hand.round}, typed before this page was reloaded, was not taken: ${(await response.json()).error}`;
    } catch (e) {
      status.textContent = `Waiting for the server: your hand for ${word} ${hand.round} is kept on this phone and sent when it answers.`;
      setTimeout(resendKeptHand, RETRY_MS);
    }
  };
  const schedule = () => {
    if (!draftRound) draftRound = currentRound();
    showRound();
    if (draftRound !== currentRound() && !correcting) {
      keepForSavedRound();
      return;
    }
    acknowledged = null;
    pending = true;
    clearTimeout(timer);
    timer = setTimeout(send, 500);
  };
  // A hand not done with (typed and not yet taken, or refused and kept): the night's next game waits
  // for it, so the phone never leaves cards the player has not sent or cleared.
  const nextGame = "The night's next game has started: send or clear your hand, then this phone goes on to it.";
  section.holdsHand = () => {
    const holds = Boolean(draftRound) && (pending || acknowledged !== typed());
    if (holds && !status.textContent.endsWith(nextGame)) status.textContent = `${status.textContent} ${nextGame}`;
    return holds;
  };
  if (form.querySelector(".tap-pad")) tapPad(form, () => true, schedule);
  form.addEventListener("input", schedule);
  who.addEventListener("change", () => choose(who.value));
  late.querySelector(".send-correction").addEventListener("click", () => { correcting = true; send(); });
  late.querySelector(".clear-late").addEventListener("click", startAfresh);
  // The scorekeeper saved the round (the live scorepad moved on): a hand the server took for it is
  // done with; one not yet taken (still typed, on its way, refused) stays in sight, for its round.
  let shownRound = currentRound();
  document.getElementById("live").addEventListener("live:updated", () => {
    const now = currentRound();
    if (now === shownRound) return;
    shownRound = now;
    const empty = typed().replace(/\|/g, "").trim() === "";
    if (!draftRound || empty) {
      startAfresh();
    } else if (pending) {
      send();  // on its way now: the server says whether its round still takes it
    } else if (acknowledged === typed() && !correcting) {
      holdSaved(draftRound);
    }
    showRound();
  });
  showRound();
  resendKeptHand();
  let remembered = "";
  try { remembered = localStorage.getItem(key) || ""; } catch (e) { remembered = ""; }
  if (remembered && Array.from(who.options).some((o) => o.value === remembered)) {
    who.value = remembered;
    choose(remembered);
  }
}

// The scorekeeper's round form shows each player's draft as it arrives (issue 27): an empty line is
// filled with it, marked "from Bob's phone"; a line the scorekeeper typed differently keeps what was
// typed and offers the phone's version beside it. One Save records the round as always.
// What the form showed of the phones' drafts goes with Save (issue 58): a draft that reached the server
// after the form last looked, and that the Save did not take, stays as a correction request.
function seenDrafts(form) {
  const seen = {};
  const field = form.querySelector('input[name="drafts_seen"]');
  return (player, text) => {
    seen[player] = text;
    if (field) field.value = JSON.stringify(seen);
  };
}

function draftsFromPhones(form, pad, changed) {
  const url = form.dataset.draftsUrl;
  if (!url) return;
  const filled = {};  // player → the draft text last put into their line
  const saw = seenDrafts(form);
  const mark = (row, text) => {
    let note = row.querySelector(".from-phone");
    if (!note) {
      note = document.createElement("span");
      note.className = "from-phone small";
      row.appendChild(note);
    }
    note.textContent = text;
  };
  // A line the scorekeeper typed otherwise than the player's phone: one tap takes the phone's version.
  const offer = (row, draft, said) => {
    let use = row.querySelector(".use-draft");
    if (draft === null) { if (use) use.remove(); return; }
    if (!use) {
      use = document.createElement("button");
      use.type = "button";
      use.className = "button small use-draft";
      use.textContent = `Use ${draft.player}'s version`;
      row.appendChild(use);
    }
    use.onclick = () => {
      pad.inputOf(row).value = draft.cards;
      filled[draft.player] = draft.cards;
      row.classList.add("has-draft");
      mark(row, said);
      offer(row, null);
      changed();
    };
  };
  const poll = async () => {
    try {
      const response = await fetch(url, { cache: "no-store" });
      if (!response.ok) return;
      const data = await response.json();
      let any = false;
      data.drafts.forEach((draft) => {
        const row = pad.rows.find((r) => r.dataset.player === draft.player);
        if (!row || draft.cards === null) return;
        saw(draft.player, draft.cards);
        const input = pad.inputOf(row);
        const said = `from ${draft.player}'s phone${draft.points !== null ? ` · ${draft.points} pts` : ""}`;
        // The line holds the phone's cards (filled in here, or kept by the form after a refused Save).
        const same = input.value.trim() === draft.cards.trim();
        if (input.value.trim() === "" || input.value === filled[draft.player] || same) {
          if (input.value !== draft.cards) { input.value = draft.cards; any = true; }
          filled[draft.player] = draft.cards;
          row.classList.add("has-draft");
          mark(row, said);
          offer(row, null);
        } else {
          mark(row, `${said}: ${draft.cards || "nothing"}`);
          offer(row, draft, said);
        }
      });
      if (any) changed();
    } catch (e) { /* the Wi-Fi dropped: the next tick tries again */ }
  };
  poll();
  every(FOLLOW_MS, poll);
}

// By sides (Pennies From Heaven): a player's draft is the points left in their hand; an empty
// "Left in hand: points" box is filled with it, marked as from that phone.
function pointsFromPhones(form, changed) {
  const url = form.dataset.draftsUrl;
  if (!url) return;
  const filled = {};
  const saw = seenDrafts(form);
  const poll = async () => {
    try {
      const response = await fetch(url, { cache: "no-store" });
      if (!response.ok) return;
      let any = false;
      (await response.json()).drafts.forEach((draft) => {
        const input = form.querySelector(`[data-points="hand"][data-player="${CSS.escape(draft.player)}"]`);
        if (!input || draft.points === null || input.disabled) return;  // disabled: the side went out
        const text = String(draft.points);
        saw(draft.player, text);
        if (input.value.trim() === "" || input.value === filled[draft.player]) {
          if (input.value !== text) { input.value = text; any = true; }
          filled[draft.player] = text;
          input.title = `from ${draft.player}'s phone`;
          input.classList.add("has-draft");
        }
      });
      if (any) changed();
    } catch (e) { /* the next tick tries again */ }
  };
  poll();
  every(FOLLOW_MS, poll);
}

// Live view: poll the game's version; when it moves, fetch the new scorepad in place. Opened from a
// night's link, it follows the night: when the night's next game starts (for a player's phone: the
// next game that player sits in), the page goes to it by itself.
const NIGHT_ME_KEY = "scorekeeper-night-me";

function nightMe(night) {
  try { return localStorage.getItem(`${NIGHT_ME_KEY}:${night}`) || ""; } catch (e) { return ""; }
}

function liveView() {
  const live = document.getElementById("live");
  if (!live) return;
  let version = live.dataset.version;
  const night = live.dataset.night;
  // A poll that fails says so over the scores it keeps showing (issue 41), and when they are from.
  const behind = document.createElement("p");
  behind.className = "behind-note";
  behind.setAttribute("role", "status");
  behind.hidden = true;
  live.before(behind);
  let heard = Date.now();
  const forPlayer = live.dataset.followsPlayer === "1";
  const withMe = (url) => {
    const me = forPlayer ? nightMe(night) : "";
    return me ? `${url}?me=${encodeURIComponent(me)}` : url;
  };
  const moved = async () => {
    if (!night) {
      const response = await fetch(live.dataset.stateUrl, { cache: "no-cache" });
      return (await response.json()).version;
    }
    const data = await (await fetch(withMe(live.dataset.nightStateUrl), { cache: "no-cache" })).json();
    if (String(data.game || "") !== (live.dataset.game || "")) {
      const hand = document.querySelector(".my-hand");
      if (hand && hand.holdsHand && hand.holdsHand()) return null;  // it says so beside the hand
      window.location.assign(withMe(live.dataset.nightUrl));  // the night's next game: shown at once
      return null;
    }
    return data.version;
  };
  const poll = async () => {
    try {
      // no-cache: the browser asks with the version it has (If-None-Match) and gets 304, no body,
      // while nothing changed; the fragment itself is fetched only when the version moved.
      const now = await moved();
      heard = Date.now();
      behind.hidden = true;
      if (now === null || now === undefined || String(now) === version) return;
      const html = await (await fetch(live.dataset.fragmentUrl, { cache: "no-store" })).text();
      live.innerHTML = html;
      version = String(now);
      live.dispatchEvent(new CustomEvent("live:updated"));
    } catch (e) {
      // The Wi-Fi dropped: keep the last scores on screen, say so, and try again at the next tick.
      behind.hidden = false;
      behind.textContent = `Reconnecting — these scores are from ${clock(heard)}.`;
    }
  };
  every(FOLLOW_MS, poll);
  if (night && forPlayer) poll();  // a phone that said who it is before goes to its own game at once
}

// The player's own round on their phone, and "Can I go down with these?": asked of the server for the
// round in play, answered on this phone only (nothing is stored, the scorekeeper is not told).
function yourRound() {
  const panel = document.querySelector(".your-round");
  if (!panel) return;
  const who = document.querySelector('.my-hand select[name="me"]');
  const facts = panel.querySelector(".your-round-facts");
  const box = panel.querySelector(".go-down-form");
  const input = box.querySelector(".hand-input");
  const answer = box.querySelector(".go-down-answer");
  const currentRound = () => {
    const marker = document.querySelector("#live .live-round");
    return marker ? marker.dataset.round : "";
  };
  const show = () => {
    const mine = Array.from(document.querySelectorAll("#live .your-round-of")).find((list) => list.dataset.player === who.value);
    panel.hidden = !who.value || !mine;
    facts.replaceChildren(...(mine ? Array.from(mine.children, (line) => line.cloneNode(true)) : []));
  };
  const line = (text, className) => {
    const p = document.createElement("p");
    p.append(cardsSaid(text));
    if (className) p.className = className;
    return p;
  };
  const list = (items) => {
    const ul = document.createElement("ul");
    items.forEach((item) => { const li = document.createElement("li"); li.append(cardsSaid(item)); ul.append(li); });
    return ul;
  };
  const ask = async () => {
    const number = currentRound();
    if (!number) return;
    answer.replaceChildren(line("Asking…"));
    try {
      const response = await fetch(panel.dataset.goDownUrl.replace("/rounds/0/", `/rounds/${number}/`), {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ cards: input.value }),
      });
      const body = await response.json();
      if (body.error) answer.replaceChildren(line(body.error, "field-error"));
      else if (body.makes_contract) answer.replaceChildren(line("Yes: you can go down.", "go-down-yes"), list(body.arrangement));
      else {
        answer.replaceChildren(line(`Not yet: ${body.missing}.`, "go-down-no"));
        if (body.arrangement.length) answer.append(line("You have:"), list(body.arrangement));
      }
    } catch (e) {
      answer.replaceChildren(line("No answer: the server cannot be reached just now. Ask again in a moment.", "field-error"));
    }
  };
  tapPad(box, () => true, () => answer.replaceChildren());
  box.querySelector(".go-down-ask").addEventListener("click", ask);
  who.addEventListener("change", show);
  document.getElementById("live").addEventListener("live:updated", show);
  show();
}

// Words with each printed card (K♦, 10♥, JKR) shown to the eye and named to a screen reader, as the
// server's pages do (issue 60: "K black diamond suit"; words.py's cards_said).
const SPOKEN_RANKS = { A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", 10: "ten", J: "jack", Q: "queen", K: "king" };
const SPOKEN_SUITS = { "♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs" };
// No lookbehind: Safari before iOS 16.4 refuses it, and a syntax error stops the whole script. The
// character before a card (or the line's start) is matched as group 1 and kept as it is.
const PRINTED_CARD = /(^|[^\w♠♥♦♣])((10|[2-9AJQK])([♠♥♦♣])|JKR)(?![\w♠♥♦♣])/g;

function cardsSaid(text) {
  const words = document.createDocumentFragment();
  let from = 0;
  for (const found of text.matchAll(PRINTED_CARD)) {
    const start = found.index + found[1].length;
    words.append(text.slice(from, start));
    const shown = document.createElement("span");
    shown.setAttribute("aria-hidden", "true");
    shown.textContent = found[2];
    const said = document.createElement("span");
    said.className = "visually-hidden";
    said.textContent = found[3] ? `${SPOKEN_RANKS[found[3]]} of ${SPOKEN_SUITS[found[4]]}` : "joker";
    words.append(shown, said);
    from = start + found[2].length;
  }
  words.append(text.slice(from));
  return words;
}

// A word the table uses: its "?" shows one sentence, and any other tap closes it.
function terms() {
  const closeAll = () => {
    document.querySelectorAll(".term-text").forEach((text) => { text.hidden = true; });
    document.querySelectorAll("button.term").forEach((button) => button.setAttribute("aria-expanded", "false"));
  };
  document.querySelectorAll("button.term").forEach((button) => {
    const text = document.getElementById(button.getAttribute("aria-controls"));
    button.addEventListener("click", (event) => {
      event.preventDefault();
      event.stopPropagation();
      const opening = text.hidden;
      closeAll();
      text.hidden = !opening;
      button.setAttribute("aria-expanded", String(opening));
    });
  });
  document.addEventListener("click", closeAll, { signal: pageScope.signal });
}

// The results card's text copied with one tap. A page served over the home network's plain http has
// no Clipboard API: the text is selected and copied the old way, and stays selected for a long-press.
function copyCard() {
  document.querySelectorAll("button.copy-card").forEach((button) => {
    const text = document.getElementById(button.dataset.copy);
    const said = button.parentElement.querySelector(".copy-said");
    button.addEventListener("click", async () => {
      text.focus();
      text.select();
      let copied = false;
      try {
        if (navigator.clipboard && window.isSecureContext) {
          await navigator.clipboard.writeText(text.value);
          copied = true;
        }
      } catch (e) { /* the old way below */ }
      if (!copied) {
        try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
      }
      said.textContent = copied ? "Copied: paste it into the chat." : "Selected: copy it with your phone's menu.";
    });
  });
}

// How this phone shows the table (issue 44): four-colour suits and a theme, kept on the phone and
// applied to every page it opens.
const DISPLAY_KEY = "scorekeeper-display";
function display() {
  let kept = {};
  try { kept = JSON.parse(localStorage.getItem(DISPLAY_KEY) || "{}"); } catch (e) { kept = {}; }
  const apply = () => {
    for (const [what, value] of Object.entries(kept)) {
      if (value) document.documentElement.dataset[what] = value;
      else delete document.documentElement.dataset[what];
    }
  };
  apply();
  document.querySelectorAll("select[data-display]").forEach((select) => {
    select.value = kept[select.dataset.display] || "";
    select.addEventListener("change", () => {
      kept[select.dataset.display] = select.value;
      try { localStorage.setItem(DISPLAY_KEY, JSON.stringify(kept)); } catch (e) { /* this page only */ }
      apply();
    });
  });
}

// The live and table views say the new scores to a screen reader, politely, when they change.
function sayScores() {
  const live = document.getElementById("live");
  const said = document.querySelector(".live-said");
  if (!live || !said) return;
  let last = (live.querySelector(".said-now") || {}).dataset?.said || "";
  live.addEventListener("live:updated", () => {
    const now = live.querySelector(".said-now");
    const text = now ? now.dataset.said : "";
    if (text && text !== last) said.textContent = `Scores: ${text}.`;
    last = text;
  });
}

// The scripts of one page: run when it loads, and again for a page drawn in place.
function pageScripts() {
  forgetSavedDraft();
  backInPlace();
  settleButtons();
  keepAwake();
  relabelDealers();
  roundForm();
  handForm();
  meldForm();
  liveView();
  myHand();
  yourRound();
  terms();
  copyCard();
  display();
  sayScores();
}

document.addEventListener("DOMContentLoaded", () => {
  oneSubmitPerPage(outbox());
  pagesInPlace();
  pageScripts();
});
