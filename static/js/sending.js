// @ts-check
// Nothing lost when the Wi-Fi drops (issue 41): the game page's writes (buys, undo, a round or a
// hand saved) go through the outbox (outbox.js: the queue, tested without a browser in tests/js/);
// here is what it shows on the page: the banner while the server is silent, the figures that do not
// count what waits, and the server's answer drawn in place.

import { drawnInPlace } from "./in_place.js";
import { createOutbox } from "./outbox.js";
import { clock } from "./page.js";
import { SETTLE_MS } from "./taps.js";

// Figures on this page that do not count entries still waiting (buys left, the scorepad) are dimmed
// and say so just below them: below, so nothing the thumb may tap again moves. Figures with controls
// below them (the standings strip above the buttons, data-scores-note="none") are dimmed and ringed
// only: a note there pushed every button down (issue 59); the banner and the buys' note say it.
function markScores(waiting) {
  (/** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-scores-of]"))).forEach((scores) => {
    const mine = waiting.filter((entry) => entry.game === scores.dataset.scoresOf);
    scores.classList.toggle("not-saved", mine.length > 0);
    if (scores.dataset.scoresNote === "none") return;
    let note = /** @type {HTMLElement | null} */ (scores.nextElementSibling);
    if (!note || !note.classList.contains("not-saved-note")) {
      // Not a live region: the page's one banner says it (issue 60: it was announced three times).
      note = document.createElement("p");
      note.className = "behind-note not-saved-note";
      scores.after(note);
    }
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

export function outbox() {
  const box = createOutbox({
    storage: localStorage, fetch: (url, init) => fetch(url, init), now: () => Date.now(),
    later: (fn, ms) => setTimeout(fn, ms), cancel: (timer) => clearTimeout(/** @type {number} */ (timer)),
    changed: sayWaiting, show: showAsPage, arrive, sameTapMs: SETTLE_MS,
  });
  window.addEventListener("online", box.retry);
  return {
    send: (form, submitter) => box.send({
      url: form.action, fields: new URLSearchParams(/** @type {any} */ (new FormData(form, submitter))), then: form.dataset.outbox,
      label: form.dataset.outboxLabel, game: form.dataset.outboxGame,
    }),
  };
}
