// @ts-check
// Which addresses a page may draw in place (issue 45; tested without a browser in tests/js/): the
// app's own pages only. Files (a PDF, a CSV), the API, the static files, the pages that follow a
// game by themselves (/live/, /night/, the table view) and a jump within the page itself open as
// the browser opens them.

/** Whether `url` may be drawn into the page at `here`.
 * @param {URL} url the address asked for
 * @param {URL | Location} here the page's own address
 * @param {boolean} following whether this page follows a game by itself (#live): it is never replaced in place
 */
export function drawable(url, here, following) {
  const path = url.pathname;
  if (url.origin !== here.origin || following) return false;
  if (/^\/(static|api|live|night)\//.test(path) || /\/table$/.test(path) || (path.split("/").pop() || "").includes(".")) return false;
  return !(path === here.pathname && url.search === here.search && url.hash);
}
