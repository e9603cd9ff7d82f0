// @ts-check
// The screen itself: kept on while a game is open, the display chosen on this phone (theme, text
// size), and the scores said aloud on request.

import { pageSignal } from "./page.js";

// Keep the screen on while a game is open, with a switch that says how it holds it. The Wake Lock API
// exists only in a secure context (HTTPS, localhost); at the table the phones open plain
// http://192.168.x.x, where it does not, so there a tiny muted looping video is played inline — a
// playing video keeps a phone's screen on (the technique of NoSleep.js, in a few lines of our own).
// Browsers let a video start from a person's tap, so the switch is that tap; the choice is kept on
// the phone, and a later page starts it again at once where the browser allows it.
const SCREEN_KEY = "scorekeeper-screen-on";

export function keepAwake() {
  const button = /** @type {HTMLElement | null} */ (document.querySelector("button.screen-on"));
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
  }, { signal: pageSignal() });
  pageSignal().addEventListener("abort", () => { if (lock) lock.release().catch(() => {}); });
  if (wanted()) start();
}

// How this phone shows the table (issue 44): four-colour suits and a theme, kept on the phone and
// applied to every page it opens.
const DISPLAY_KEY = "scorekeeper-display";
export function display() {
  let kept = {};
  try { kept = JSON.parse(localStorage.getItem(DISPLAY_KEY) || "{}"); } catch (e) { kept = {}; }
  const apply = () => {
    for (const [what, value] of Object.entries(kept)) {
      if (value) document.documentElement.dataset[what] = value;
      else delete document.documentElement.dataset[what];
    }
  };
  apply();
  /** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll("select[data-display]")).forEach((select) => {
    select.value = kept[select.dataset.display] || "";
    select.addEventListener("change", () => {
      kept[select.dataset.display] = select.value;
      try { localStorage.setItem(DISPLAY_KEY, JSON.stringify(kept)); } catch (e) { /* this page only */ }
      apply();
    });
  });
}

// The live and table views say the new scores to a screen reader, politely, when they change.
export function sayScores() {
  const live = document.getElementById("live");
  const said = document.querySelector(".live-said");
  if (!live || !said) return;
  const first = /** @type {HTMLElement | null} */ (live.querySelector(".said-now"));
  let last = first ? first.dataset.said || "" : "";
  live.addEventListener("live:updated", () => {
    const now = /** @type {HTMLElement | null} */ (live.querySelector(".said-now"));
    const text = now ? now.dataset.said : "";
    if (text && text !== last) said.textContent = `Scores: ${text}.`;
    last = text;
  });
}
