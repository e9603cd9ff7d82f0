// @ts-check
// A thumb at the table: a double tap is one entry, a page reached by a tap holds its buttons until a
// second tap has passed, the place on the page is kept across a write, and one form is sent at a time.

import { askedInPlace, openInPlace } from "./in_place.js";
import { pageSignal } from "./page.js";

// A double tap must not become two entries. The first tap of a Save or Buy submits; the page then
// changes within ~100 ms, and a second tap up to ~700 ms later lands on the *new* page (a buy button
// under the thumb where Save was). So: (1) once a form is sent, every button on the page is disabled
// until the page changes; (2) a page reached by a form sent or a link tapped a moment ago holds its
// buttons and links until SETTLE_MS after that tap, longer than the slowest double tap (the browser
// tests tap twice 100–700 ms apart), and looks held while it does: the quicker the answer, the
// shorter the hold left, and an answer slower than a double tap holds nothing; a page reached any
// other way (typed, reloaded, opened long after) takes the first tap at once; (3) a page brought back
// by Back from the browser's cache reloads, so its forms are drawn for the game as it is now.
export const SETTLE_MS = 900;
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

export function settleButtons() {
  // The links' fold at the top (the players' phones, the night's link) opens only once the page has
  // settled (app.css): the second tap of a double tap, landing as the next page draws, must not open
  // it and move the page under the thumb.
  const settled = () => document.documentElement.classList.add("settled");
  const hold = holdLeft();
  if (!hold) { settled(); return; }
  const buttons = Array.from(/** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("main button:not([disabled])")));
  buttons.forEach((button) => { button.disabled = true; });
  document.body.classList.add("settling");
  // A tap the hold takes is never lost unseen: a held button gets no click, but the finger's
  // pointer events still reach it, so it is said where the finger is (a second buy meant is one
  // more tap away).
  const held = (event) => {
    const button = event.target instanceof Element ? event.target.closest("main button") : null;
    if (button instanceof HTMLButtonElement && buttons.includes(button) && document.body.classList.contains("settling")) sayHeld(button);
  };
  document.addEventListener("pointerup", held, { capture: true, signal: pageSignal() });
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

export function backInPlace() {
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

export function oneSubmitPerPage(box) {
  document.addEventListener("submit", (event) => {
    if (document.body.classList.contains("sending")) { event.preventDefault(); return; }
    const form = /** @type {HTMLFormElement} */ (event.target);
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
    setTimeout(() => /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("main button")).forEach((b) => { b.disabled = true; }), 0);
  });
  // A link that opens another page of the app is a send too: its second tap must not land there.
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (link instanceof HTMLAnchorElement && link.origin === window.location.origin && !link.hasAttribute("download")) markSent();
  });
  window.addEventListener("pageshow", (event) => { if (event.persisted) window.location.reload(); });
}
