// @ts-check
// The scorekeeper's forms: a new game's dealers, the round form (with its kept draft), the meld
// checker and the hand form of a game played by sides.

import { countOrText, plain, signed, steppers, takeLineToChecker, tapPad } from "./card_pad.js";
import { draftsFromPhones, pointsFromPhones } from "./from_phones.js";

// New game: label the first-dealer choices with the names as they are typed.
export function relabelDealers() {
  const select = document.querySelector("[data-relabel-from]");
  if (!select) return;
  const inputs = /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll(".player-inputs input"));
  const update = () => {
    inputs.forEach((input, seat) => {
      const option = select.querySelector(`option[value="${seat}"]`);
      if (option) option.textContent = input.value.trim() || `Player ${seat + 1}`;
    });
  };
  inputs.forEach((input) => input.addEventListener("input", update));
  update();
}

// Round entry: who went out (their box is closed), and live points from the engine.
export function roundForm() {
  const form = /** @type {HTMLElement | null} */ (document.querySelector(".round-form"));
  if (!form) return;
  const error = /** @type {HTMLElement | null} */ (form.querySelector(".preview-error"));
  const outName = () => {
    const checked = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="went_out"]:checked'));
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
    const hint = /** @type {HTMLElement | null} */ (form.querySelector(".preview-hint"));
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
  const atOnce = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="at_once"]'));
  atOnce?.addEventListener("change", () => { edited = true; schedulePreview(); draft.save(); });
  const cutter = /** @type {HTMLSelectElement | null} */ (form.querySelector('select[name="cut_exactly"]'));
  cutter?.addEventListener("change", () => { edited = true; schedulePreview(); draft.save(); });
  // Disabled inputs are not submitted; re-enable just before sending so nothing typed is lost.
  form.addEventListener("submit", () => pad.rows.forEach((row) => { pad.inputOf(row).disabled = false; }));

  const preview = async () => {
    const caught = {};
    pad.rows.filter((row) => row.dataset.player !== outName())
      .forEach((row) => { caught[row.dataset.player] = pad.inputOf(row).value; });
    const body = {
      went_out: outName(), caught, round: Number(form.dataset.round), at_once: Boolean(atOnce?.checked),
      cut_exactly: cutter?.value || null,
    };
    // Nothing is wrong before anyone is marked out: the next step is said as a hint, not an error.
    const hint = /** @type {HTMLElement | null} */ (form.querySelector(".preview-hint"));
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

// A round or hand being entered is kept on this phone until it is saved or discarded: leaving for the
// meld checker (or any page) and coming back finds it again. Keyed by the form's page and round, so
// it never fills another round's form; what the server drew (a refused Save) wins over the draft.
// Kept: the boxes a person types, taps or chooses from (not the form's version, key or token, which
// belong to the page as drawn).
const KEPT_FIELDS = 'input[type="text"], input:not([type]), input[type="number"], input[type="radio"], input[type="checkbox"], select';
const ticked = (f) => f.type === "radio" || f.type === "checkbox";  // kept by whether it is checked

function keepDraft(form, word, cleared) {
  const key = `scorekeeper-draft:${window.location.pathname}:${word}-${form.dataset.round}`;
  const fields = () => Array.from(form.querySelectorAll(KEPT_FIELDS)).filter((f) => f.name);
  const typed = () => {
    const values = {};
    fields().forEach((f) => {
      if (!ticked(f)) values[f.name] = f.value;
      else if (f.checked) values[f.name] = f.value;
    });
    return values;
  };
  const setAll = (values) => fields().forEach((f) => {
    if (ticked(f)) f.checked = values[f.name] === f.value;
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

export function forgetSavedDraft() {
  try {
    const sent = sessionStorage.getItem(DRAFT_SENT_KEY);
    sessionStorage.removeItem(DRAFT_SENT_KEY);
    if (sent && !sent.startsWith(`scorekeeper-draft:${window.location.pathname}:`)) localStorage.removeItem(sent);
  } catch (e) { /* nothing kept */ }
}

export function meldForm() {
  const form = document.querySelector(".meld-form");
  if (form) tapPad(form, () => true, () => {});
}

// Hand entry by sides (Pennies From Heaven): each side's score and game total as it is entered.
export function handForm() {
  const form = /** @type {HTMLElement | null} */ (document.querySelector(".hand-form"));
  if (!form) return;
  const error = /** @type {HTMLElement | null} */ (form.querySelector(".preview-error"));
  const sides = Array.from(/** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll("fieldset.side")));
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
    const checked = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="went_out"]:checked'));
    const out = checked ? checked.value : null;
    sides.forEach((fieldset) => {
      const isOut = JSON.parse(fieldset.dataset.players).includes(out);
      (/** @type {NodeListOf<HTMLElement>} */ (fieldset.querySelectorAll(".left-in-hand"))).forEach((box) => {
        box.hidden = isOut;
        box.querySelectorAll("input").forEach((input) => { input.disabled = isOut; });
      });
      /** @type {HTMLElement} */ (fieldset.querySelector(".went-out-note")).hidden = !isOut;
      // Another side went out and this one melded nothing: it is caught off the board, and its piles
      // count (issue 60: they sat in a closed, unmarked fold). Opened and marked; never closed here.
      const melded = ["natural", "mixed", "sevens", "wild", "melded_points"].some((kind) => {
        const box = /** @type {HTMLInputElement | null} */ (fieldset.querySelector(`input[name$="-${kind}"]`));
        return box && Number(box.value) > 0;
      }) || Boolean((/** @type {HTMLInputElement | null} */ (fieldset.querySelector('input[name$="-melded"]')) || { value: "" }).value.trim());
      const counts = Boolean(out) && out !== "nobody" && !isOut && !melded;
      /** @type {NodeListOf<HTMLDetailsElement>} */ (fieldset.querySelectorAll("details.pile")).forEach((fold) => {
        if (counts) fold.open = true;
        /** @type {HTMLElement} */ (fold.querySelector(".pile-counts")).hidden = !counts;
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
    const checked = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="went_out"]:checked'));
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
