// @ts-check
// A line of the card pad as text (issue 59: the pad's state, tested without a browser in tests/js/):
// the cards typed or tapped so far, separated by spaces; a card tap adds one, a suit tap gives the
// last card its suit (a joker has none), Back takes the last one away.

/** The cards of a line, as typed (spaces or commas between them).
 * @param {string} text
 * @returns {string[]}
 */
export function cardsOf(text) {
  return text.trim().split(/[\s,]+/).filter(Boolean);
}

/** @param {string[]} cards */
const lineOf = (cards) => cards.join(" ");

/** A card tapped: added at the end.
 * @param {string} text
 * @param {string} card
 */
export function withCard(text, card) {
  return lineOf([...cardsOf(text), card]);
}

/** A suit tapped: the last card takes it in place of the one it had (a joker keeps none); nothing
 * happens on an empty line.
 * @param {string} text
 * @param {string} suit
 */
export function withSuit(text, suit) {
  const cards = cardsOf(text);
  const last = cards.pop();
  if (last === undefined) return lineOf(cards);
  const bare = last.replace(/[SHDC♠♥♦♣]$/i, "");
  return lineOf([...cards, /^(JKR|JK|JOKER|\*)$/i.test(bare) ? bare : bare + suit]);
}

/** Back: the last card goes.
 * @param {string} text
 */
export function withoutLast(text) {
  return lineOf(cardsOf(text).slice(0, -1));
}
