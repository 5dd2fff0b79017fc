// The entry holding the current match, or the one a suggestion landed on: aria-current="true".

export class CurrentEntry {
  constructor() { this.entry = null; }

  mark(entry) {
    if (entry === this.entry) return;
    this.entry?.removeAttribute("aria-current");
    entry?.setAttribute("aria-current", "true");
    this.entry = entry;
  }
}
