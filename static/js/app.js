// @ts-check
// Scorekeeper's small helpers; the pages work without them (every action is a plain form). This is
// the entry: it runs each page's scripts, from the modules beside it (each one job, each <= 300 lines).

import { forgetSavedDraft, handForm, meldForm, relabelDealers, roundForm } from "./forms.js";
import { pagesInPlace } from "./in_place.js";
import { liveView, yourRound } from "./live.js";
import { myHand } from "./my_hand.js";
import { display, keepAwake, sayScores } from "./screen.js";
import { outbox } from "./sending.js";
import { backInPlace, oneSubmitPerPage, settleButtons } from "./taps.js";
import { copyCard, terms } from "./words.js";

// The scripts of one page: run when it loads, and again for a page drawn in place.
function pageScripts() {
  forgetSavedDraft();
  backInPlace();
  settleButtons();
  keepAwake();
  relabelDealers();
  roundForm();
  handForm();
  meldForm();
  liveView();
  myHand();
  yourRound();
  terms();
  copyCard();
  display();
  sayScores();
}

document.addEventListener("DOMContentLoaded", () => {
  oneSubmitPerPage(outbox());
  pagesInPlace(pageScripts);
  pageScripts();
});
