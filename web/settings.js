// The person's settings, kept in localStorage.

const KEY = "fivefold.settings";

export const DEFAULTS = {
  rule: 0,
  size: 15,
  engineSide: "white",
  opening: "free",
  timeMode: "move",
  moveSeconds: 2,
  gameMinutes: 5,
  maxDepth: 0,
  maxNode: 0,
  strength: 100,
  multipv: 3,
  labelKind: "winrate",
  analysisMode: false,
  ponder: false,
  showLines: true,
  numbers: true,
  coords: true,
};

/** @typedef {typeof DEFAULTS} Settings */

/** @returns {Settings} */
export function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    /** @type {any} */
    const out = { ...DEFAULTS };
    for (const key of Object.keys(DEFAULTS)) {
      if (typeof saved[key] === typeof (/** @type {any} */ (DEFAULTS))[key]) out[key] = saved[key];
    }
    return out;
  } catch {
    return { ...DEFAULTS };
  }
}

/** @param {Settings} s */
export function saveSettings(s) {
  try {
    localStorage.setItem(KEY, JSON.stringify(s));
  } catch {
    // storage full or refused (a private window): the settings last for this visit
  }
}
