/** A full page navigation (a server route, another site): one place, which tests replace. */
export function leavePage(url: string): void {
  window.location.assign(url);
}
