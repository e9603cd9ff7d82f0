// @ts-check
import { tapPad } from "./card_pad.js";
import { FOLLOW_MS, clock, every } from "./page.js";
import { cardsSaid } from "./words.js";

// Live view: poll the game's version; when it moves, fetch the new scorepad in place. Opened from a
// night's link, it follows the night: when the night's next game starts (for a player's phone: the
// next game that player sits in), the page goes to it by itself.
export const NIGHT_ME_KEY = "scorekeeper-night-me";

function nightMe(night) {
  try { return localStorage.getItem(`${NIGHT_ME_KEY}:${night}`) || ""; } catch (e) { return ""; }
}

export function liveView() {
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
      const hand = /** @type {(HTMLElement & { holdsHand?: () => boolean }) | null} */ (document.querySelector(".my-hand"));
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
export function yourRound() {
  const panel = /** @type {HTMLElement | null} */ (document.querySelector(".your-round"));
  if (!panel) return;
  const who = /** @type {HTMLInputElement | null} */ (document.querySelector('.my-hand select[name="me"]'));
  const facts = panel.querySelector(".your-round-facts");
  const box = panel.querySelector(".go-down-form");
  const input = /** @type {HTMLInputElement | null} */ (box.querySelector(".hand-input"));
  const answer = box.querySelector(".go-down-answer");
  const currentRound = () => {
    const marker = /** @type {HTMLElement | null} */ (document.querySelector("#live .live-round"));
    return marker ? marker.dataset.round : "";
  };
  const show = () => {
    const mine = Array.from(/** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#live .your-round-of"))).find((list) => list.dataset.player === who.value);
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
