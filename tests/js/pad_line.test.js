// The card pad's line (static/js/pad_line.js), from what a player taps: "K", then "♥", makes K♥; a
// joker takes no suit; Back takes the last card away; a line typed with commas reads the same.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cardsOf, withCard, withSuit, withoutLast } from "../../static/js/pad_line.js";

test("a card tap adds the card at the end of the line", () => {
  assert.equal(withCard("", "K"), "K");
  assert.equal(withCard("K♥ 7", "Q"), "K♥ 7 Q");
});

test("a suit tap gives the last card that suit, in place of the one it had", () => {
  assert.equal(withSuit("10♠ K", "♥"), "10♠ K♥");
  assert.equal(withSuit("K♥", "♣"), "K♣");
  assert.equal(withSuit("ks", "♦"), "k♦");  // a suit typed as a letter is replaced too
});

test("a joker keeps no suit, and a suit on an empty line does nothing", () => {
  assert.equal(withSuit("5♦ JKR", "♠"), "5♦ JKR");
  assert.equal(withSuit("*", "♥"), "*");
  assert.equal(withSuit("", "♥"), "");
});

test("Back takes the last card away, and nothing from an empty line", () => {
  assert.equal(withoutLast("K♥ 7♣ JKR"), "K♥ 7♣");
  assert.equal(withoutLast(""), "");
});

test("a line typed with commas and spaces is the same cards", () => {
  assert.deepEqual(cardsOf(" K♥, 7♣  ,JKR "), ["K♥", "7♣", "JKR"]);
  assert.equal(withCard("K♥,7♣", "2"), "K♥ 7♣ 2");
});
