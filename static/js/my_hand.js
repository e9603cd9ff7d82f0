// @ts-check
import { tapPad } from "./card_pad.js";
import { NIGHT_ME_KEY } from "./live.js";
import { GIVE_UP_MS, RETRY_MS, WAITING_AFTER_MS } from "./outbox.js";
import { clock } from "./page.js";

// A player's own hand, from the live view on their own phone (issue 27): they say once who they are
// (kept on the phone), then tap the cards they were caught with; each change is sent as a draft the
// scorekeeper's round form shows. A draft changes nothing in the game: the scorekeeper saves the round.
const ME_KEY = "scorekeeper-phone-is";

export function myHand() {
  const section = /** @type {(HTMLElement & { holdsHand?: () => boolean }) | null} */ (document.querySelector(".my-hand"));
  if (!section) return;
  const form = /** @type {HTMLDetailsElement | null} */ (section.querySelector(".my-hand-form"));
  const who = /** @type {HTMLSelectElement | null} */ (section.querySelector('select[name="me"]'));
  const status = section.querySelector(".my-hand-status");
  const error = /** @type {HTMLElement | null} */ (section.querySelector(".my-hand-error"));
  const late = /** @type {HTMLElement | null} */ (section.querySelector(".my-hand-late"));
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
    const marker = /** @type {HTMLElement | null} */ (document.querySelector("#live .live-round"));
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
    const cards = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="cards"]'));
    const points = /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="points"]'));
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
    /** @type {HTMLElement} */ (late.querySelector(".send-correction")).hidden = !offerCorrection;
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
