// Scorekeeper's small helpers; the pages work without them (every action is a plain form).
"use strict";

// Keep the screen awake while a game is open (Wake Lock API where the browser has it).
function keepAwake() {
  if (!document.body.classList.contains("keep-awake") || !("wakeLock" in navigator)) return;
  const request = () => navigator.wakeLock.request("screen").catch(() => {});
  request();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") request();
  });
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
// `isOpen(row)` says which rows take cards; `changed()` runs after every edit.
function tapPad(form, isOpen, changed) {
  const rows = Array.from(form.querySelectorAll(".hand-row"));
  const inputOf = (row) => row.querySelector(".hand-input");
  const openRows = () => rows.filter(isOpen);
  let active = null;
  const select = (row) => {
    rows.forEach((r) => r.classList.toggle("active", r === row));
    active = row;
  };
  const edit = (change) => {
    if (!active || !isOpen(active)) select(openRows()[0] || null);
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
  form.querySelector('[data-action="next"]').addEventListener("click", () => {
    const open = openRows();
    select(open[(open.indexOf(active) + 1) % open.length] || null);
  });
  rows.forEach((row) => {
    row.addEventListener("click", () => { if (isOpen(row)) select(row); });
    inputOf(row).addEventListener("focus", () => select(row));
    inputOf(row).addEventListener("input", changed);
  });
  return {
    rows,
    inputOf,
    reselect: () => { if (!active || !isOpen(active)) select(openRows()[0] || null); },
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
  const schedulePreview = () => { clearTimeout(timer); timer = setTimeout(preview, 250); };
  const pad = tapPad(form, (row) => row.dataset.player !== outName(), schedulePreview);
  const markOut = () => {
    pad.rows.forEach((row) => {
      const isOut = row.dataset.player === outName();
      row.classList.toggle("is-out", isOut);
      pad.inputOf(row).disabled = isOut;
    });
    pad.reselect();
  };
  form.querySelectorAll('input[name="went_out"]').forEach((radio) =>
    radio.addEventListener("change", () => { markOut(); schedulePreview(); }));
  // Disabled inputs are not submitted; re-enable just before sending so nothing typed is lost.
  form.addEventListener("submit", () => pad.rows.forEach((row) => { pad.inputOf(row).disabled = false; }));

  const preview = async () => {
    const caught = {};
    pad.rows.filter((row) => row.dataset.player !== outName())
      .forEach((row) => { caught[row.dataset.player] = pad.inputOf(row).value; });
    const body = { went_out: outName(), caught, round: Number(form.dataset.round) };
    if (!body.went_out) { error.hidden = false; error.textContent = "Tap who went out."; return; }
    try {
      const response = await fetch(form.dataset.previewUrl, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      const data = await response.json();
      if (!response.ok) { error.hidden = false; error.textContent = data.error; return; }
      error.hidden = true;
      pad.rows.forEach((row) => {
        const r = data[row.dataset.player];
        row.querySelector(".live").textContent = !r ? "" : form.dataset.penny === "1"
          ? `${r.points} pts · ${r.pennies}¢` : `${r.points} pts`;
      });
    } catch (e) {
      error.hidden = false;
      error.textContent = "No connection to the app: points will show when it is back. Nothing is lost.";
    }
  };
  markOut();
  if (outName()) preview();
}

function meldForm() {
  const form = document.querySelector(".meld-form, .hand-form");
  if (form) tapPad(form, () => true, () => {});
}

// Live view: poll the game's version; when it moves, fetch the new scorepad in place.
function liveView() {
  const live = document.getElementById("live");
  if (!live) return;
  let version = live.dataset.version;
  const poll = async () => {
    try {
      const response = await fetch(live.dataset.stateUrl, { cache: "no-store" });
      const data = await response.json();
      if (String(data.version) !== version) {
        const html = await (await fetch(live.dataset.fragmentUrl, { cache: "no-store" })).text();
        live.innerHTML = html;
        version = String(data.version);
      }
    } catch (e) {
      // The Wi-Fi dropped: keep the last scores on screen and try again at the next tick.
    }
  };
  setInterval(poll, 2000);
}

document.addEventListener("DOMContentLoaded", () => {
  keepAwake();
  relabelDealers();
  roundForm();
  meldForm();
  liveView();
});
