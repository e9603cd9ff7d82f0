// @ts-check
// Words on the page: printed cards named for a screen reader, the terms explained on a tap, the
// results card copied.

import { pageSignal } from "./page.js";

// Words with each printed card (K♦, 10♥, JKR) shown to the eye and named to a screen reader, as the
// server's pages do (issue 60: "K black diamond suit"; words.py's cards_said).
const SPOKEN_RANKS = { A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", 10: "ten", J: "jack", Q: "queen", K: "king" };
const SPOKEN_SUITS = { "♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs" };
// No lookbehind: Safari before iOS 16.4 refuses it, and a syntax error stops the whole script. The
// character before a card (or the line's start) is matched as group 1 and kept as it is.
const PRINTED_CARD = /(^|[^\w♠♥♦♣])((10|[2-9AJQK])([♠♥♦♣])|JKR)(?![\w♠♥♦♣])/g;

export function cardsSaid(text) {
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
export function terms() {
  const closeAll = () => {
    (/** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".term-text"))).forEach((text) => { text.hidden = true; });
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
  document.addEventListener("click", closeAll, { signal: pageSignal() });
}

// The results card's text copied with one tap. A page served over the home network's plain http has
// no Clipboard API: the text is selected and copied the old way, and stays selected for a long-press.
export function copyCard() {
  /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button.copy-card")).forEach((button) => {
    const text = /** @type {HTMLTextAreaElement} */ (document.getElementById(button.dataset.copy || ""));
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
