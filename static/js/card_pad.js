// @ts-check
// The card pad and the small controls every entry form shares: a tap adds a card to the chosen line,
// steppers for counts, a count or the cards typed, signed figures.

import { withCard, withSuit, withoutLast } from "./pad_line.js";

// The tap pad: each tap adds one card to the selected line (a player's hand, or a meld).
// `isOpen(row)` says which rows take cards; `changed()` runs after every edit. With `onlyForCards`
// the pad shows only while a card line is chosen (a form that is mostly number boxes).
export function tapPad(form, isOpen, changed, onlyForCards = false) {
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
    input.value = change(input.value);
    changed();
  };
  form.querySelectorAll("[data-card]").forEach((button) =>
    button.addEventListener("click", () => edit((text) => withCard(text, button.dataset.card))));
  form.querySelectorAll("[data-suit]").forEach((button) =>
    button.addEventListener("click", () => edit((text) => withSuit(text, button.dataset.suit))));
  form.querySelector('[data-action="back"]').addEventListener("click", () => edit(withoutLast));
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

// "Check melds" from a form takes the cards of the line being filled (or the first line with cards),
// so the hand typed so far is the question; `stage` is the checker's question to ask of them.
export function takeLineToChecker(pad, stage) {
  const link = /** @type {HTMLAnchorElement | null} */ (document.querySelector("a.check-melds"));
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

// Steppers (red threes, books): − and + change the count by one, never below 0.
export function steppers() {
  document.querySelectorAll(".stepper").forEach((stepper) => {
    const input = stepper.querySelector("input");
    (/** @type {NodeListOf<HTMLElement>} */ (stepper.querySelectorAll("[data-step]"))).forEach((button) => button.addEventListener("click", () => {
      const now = parseInt(input.value || "0", 10);
      input.value = String(Math.min(99, Math.max(0, (Number.isNaN(now) ? 0 : now) + Number(button.dataset.step))));
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }));
  });
}

// A number the table counted, or what was typed (the app says why it is not a number).
export function countOrText(input) {
  const text = input.value.trim();
  if (text === "") return null;
  return /^\d+$/.test(text) ? Number(text) : text;
}

const MINUS = "\u2212";
export const plain = (n) => (n < 0 ? MINUS + Math.abs(n) : String(n));
export const signed = (n) => (n > 0 ? "+" + n : plain(n));
