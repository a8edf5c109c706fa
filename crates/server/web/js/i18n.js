// @ts-check
/**
 * The page's language: `t(key, params)` gives a text of the chosen
 * language's catalogue (`js/i18n/{lang}.js`), English where a catalogue
 * lacks a key, and the key itself where English lacks it too (a test looks
 * for keys in the page). `{name}` in a text is replaced by `params.name`; a
 * text given per plural form (`{one, other, ...}`) is chosen by `params.n`.
 * The language comes from the player's choice (remembered), else the
 * browser's languages, else English; Arabic and Persian read right to left.
 */

import en from './i18n/en.js';

/** @typedef {string | Partial<Record<Intl.LDMLPluralRule, string>>} Entry */
/** @typedef {Record<string, Entry>} Catalogue */

/** The languages offered, each named in itself. */
export const LANGUAGES = /** @type {const} */ ([
  { code: 'en', name: 'English', rtl: false },
  { code: 'sv', name: 'Svenska', rtl: false },
  { code: 'de', name: 'Deutsch', rtl: false },
  { code: 'el', name: 'Ελληνικά', rtl: false },
  { code: 'ar', name: 'العربية', rtl: true },
  { code: 'fa', name: 'فارسی', rtl: true },
]);

const STORE_KEY = 'spelbord.lang';

/** @type {Catalogue} */
let catalogue = en;
let current = 'en';
/** @type {Intl.PluralRules} */
let plurals = new Intl.PluralRules('en');

/** Whether a code is one of the offered languages. @param {string} code */
function offered(code) {
  return LANGUAGES.some((l) => l.code === code);
}

/**
 * The language to show: the remembered choice, else the first of the
 * browser's languages that is offered, else English.
 * @returns {string}
 */
export function preferredLanguage() {
  let saved = null;
  try {
    saved = localStorage.getItem(STORE_KEY);
  } catch {
    saved = null;
  }
  if (saved && offered(saved)) return saved;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (offered(base)) return base;
  }
  return 'en';
}

/**
 * Loads a language's catalogue and sets the page's `lang` and `dir`.
 * @param {string} code
 */
export async function setLanguage(code) {
  const lang = offered(code) ? code : 'en';
  if (lang === 'en') {
    catalogue = en;
  } else {
    const loaded = await import(`./i18n/${lang}.js`);
    catalogue = loaded.default;
  }
  current = lang;
  plurals = new Intl.PluralRules(lang);
  const root = document.documentElement;
  root.lang = lang;
  root.dir = isRtl() ? 'rtl' : 'ltr';
}

/** Remembers the player's choice of language. @param {string} code */
export function rememberLanguage(code) {
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch {
    // Private windows may refuse; the choice lasts until a reload.
  }
}

/** The language shown now (`en`, `sv`, ...). */
export function language() {
  return current;
}

/** Whether the language shown reads right to left. */
export function isRtl() {
  return LANGUAGES.some((l) => l.code === current && l.rtl);
}

/**
 * Picks a catalogue entry's text for `n` (plural forms) or as it is.
 * @param {Entry | undefined} entry @param {Record<string, any>} params
 * @param {Intl.PluralRules} rules
 * @returns {string | undefined}
 */
function pick(entry, params, rules) {
  if (entry === undefined || typeof entry === 'string') return entry;
  const n = Number(params.n);
  const form = Number.isFinite(n) ? rules.select(n) : 'other';
  return entry[form] ?? entry.other;
}

/**
 * A text in the page's language.
 * @param {string} key
 * @param {Record<string, any>} [params] values for `{name}` placeholders
 * @returns {string}
 */
export function t(key, params = {}) {
  const text = pick(catalogue[key], params, plurals) ?? pick(en[key], params, new Intl.PluralRules('en'));
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/**
 * A text that may be missing: the key's text, or `fallback` when no
 * catalogue has the key (names of options and values the server may add).
 * @param {string} key @param {string} fallback @param {Record<string, any>} [params]
 */
export function tOr(key, fallback, params = {}) {
  return key in en || key in catalogue ? t(key, params) : fallback;
}

/** Whether the catalogues have a text for `key`. @param {string} key */
export function has(key) {
  return key in en || key in catalogue;
}

/**
 * A move in notation kept left to right inside a right-to-left sentence
 * (Unicode isolates; unchanged in left-to-right languages), so that
 * "13/7 8/2" is not read backwards.
 * @param {string} text
 */
export function ltr(text) {
  return isRtl() ? `\u2066${text}\u2069` : text;
}

/** A list in words ("a, b and c") in the page's language. @param {string[]} items */
export function listText(items) {
  try {
    return new Intl.ListFormat(current, { style: 'long', type: 'conjunction' }).format(items);
  } catch {
    return items.join(', ');
  }
}
