// @ts-check
import { FOLLOW_MS, every } from "./page.js";

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

export function draftsFromPhones(form, pad, changed) {
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
export function pointsFromPhones(form, changed) {
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
