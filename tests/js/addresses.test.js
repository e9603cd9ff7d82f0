// Which taps draw a page in place (static/js/addresses.js, issue 45): the app's own pages; never a
// PDF or a CSV, the API, a static file, a page that follows a game by itself, another site, or a
// jump to a part of the page already shown.
import assert from "node:assert/strict";
import { test } from "node:test";

import { drawable } from "../../static/js/addresses.js";

const here = new URL("http://192.168.1.20:5000/games/3");
const at = (address) => new URL(address, here);

test("a page of the app is drawn in place", () => {
  for (const address of ["/games/3/history", "/nights/1", "/games/3/rounds/new", "/players/Ann?season=2026"]) {
    assert.equal(drawable(at(address), here, false), true, address);
  }
});

test("files, the API, static files and the following pages open as the browser opens them", () => {
  for (const address of ["/games/3/scorepad.pdf", "/nights/1/export.csv", "/api/games/3", "/static/css/app.css",
    "/live/3", "/night/abc", "/games/3/table"]) {
    assert.equal(drawable(at(address), here, false), false, address);
  }
});

test("another site, or a page that follows a game itself, is never drawn in place", () => {
  assert.equal(drawable(new URL("https://www.pagat.com/rummy/"), here, false), false);
  assert.equal(drawable(at("/games/3/history"), here, true), false);
});

test("a jump within the page shown is left to the browser; the same page asked again is drawn", () => {
  assert.equal(drawable(at("/games/3#scorepad"), here, false), false);
  assert.equal(drawable(at("/games/3"), here, false), true);
  assert.equal(drawable(at("/games/3?from=history#scorepad"), here, false), true);
});
