// @ts-check
/**
 * The client in six languages. Without a browser: every catalogue has
 * exactly English's keys, with the same `{placeholders}`, and every key the
 * code names exists. In Chromium, in every language: the lobby and a board
 * show no catalogue key and no English text the language translates; the
 * page's `lang` and `dir` follow (Arabic and Persian right to left, their
 * boards not mirrored); the browser's language picks the language and the
 * switch changes it and is remembered. Screenshots of every board at both
 * sizes in Swedish and Arabic: `i18n-{lang}-{game}-{size}.png`, and of the
 * lobby in every language: `i18n-{lang}-lobby.png`.
 */

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createInLobby, newPage, playOneMove, REPO, serverAndBrowser, shot } from '../lib/harness.mjs';

const WEB = path.join(REPO, 'crates/server/web/js');
const LANGS = ['en', 'sv', 'de', 'el', 'ar', 'fa'];

/** @typedef {Record<string, string | Record<string, string>>} Catalogue */

/** @param {string} lang @returns {Promise<Catalogue>} */
async function catalogue(lang) {
  return (await import(`../../crates/server/web/js/i18n/${lang}.js`)).default;
}

/** The `{names}` a text (or each of its plural forms) fills in. @param {string | Record<string, string>} entry */
function placeholders(entry) {
  const texts = typeof entry === 'string' ? [entry] : Object.values(entry);
  return new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1])));
}

/** Every JavaScript file of the client, but the catalogues. */
function sources() {
  /** @type {string[]} */
  const out = [];
  const walk = (/** @type {string} */ dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) { if (entry.name !== 'i18n') walk(full); } else if (entry.name.endsWith('.js')) out.push(full);
    }
  };
  walk(WEB);
  return out;
}

test('every catalogue has English\'s keys, no others, the same placeholders and an `other` plural form', async () => {
  const en = await catalogue('en');
  assert.ok(Object.keys(en).length > 400);
  for (const lang of LANGS.slice(1)) {
    const cat = await catalogue(lang);
    assert.deepEqual(Object.keys(en).filter((k) => !(k in cat)), [], `${lang}: keys missing`);
    assert.deepEqual(Object.keys(cat).filter((k) => !(k in en)), [], `${lang}: keys English lacks`);
    for (const [key, entry] of Object.entries(cat)) {
      const want = placeholders(en[key]);
      const got = placeholders(entry);
      // A plural text may spell the number out ("ثانيتان") instead of {n}.
      const extra = [...got].filter((p) => !want.has(p));
      const missing = [...want].filter((p) => !got.has(p) && !(p === 'n' && typeof entry === 'object'));
      assert.deepEqual([extra, missing], [[], []], `${lang} ${key}: placeholders`);
      if (typeof entry === 'object') assert.ok(entry.other, `${lang} ${key}: an 'other' form`);
    }
  }
});

test('every catalogue key the code names exists in English', async () => {
  const en = await catalogue('en');
  const spaces = [...new Set(Object.keys(en).map((k) => k.split('.')[0]))];
  const literal = new RegExp(`['\`]((?:${spaces.join('|')})\\.[a-z0-9_.-]+)['\`]`, 'g');
  /** @type {string[]} */
  const unknown = [];
  let named = 0;
  for (const file of sources()) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(literal)) {
      named++;
      if (!(m[1] in en) && !Object.keys(en).some((k) => k.startsWith(`${m[1]}.`))) unknown.push(`${path.basename(file)}: ${m[1]}`);
    }
  }
  assert.ok(named > 300, `keys found in the code: ${named}`);
  assert.deepEqual(unknown, []);
});

test('a missing key shows as itself, so that the page tests below would find it', async () => {
  const { t } = await import('../../crates/server/web/js/i18n.js');
  assert.equal(t('lobby.no_such_key'), 'lobby.no_such_key');
  assert.equal(t('lobby.option_help', { help: 'H', value: 'V' }), 'H (default V)');
  assert.equal(t('time.day', { n: 1 }), '1 day');
  assert.equal(t('time.day', { n: 3 }), '3 days');
});

// ---- in the browser ----

/** The server and the browser of this file's tests. */
const env = serverAndBrowser();
/** @type {Record<string, Catalogue>} */
const cats = {};

before(async () => {
  for (const lang of LANGS) cats[lang] = await catalogue(lang);
});

/**
 * What a player reads on the page: its text, title, and the names,
 * titles and placeholders of its elements (board targets included).
 * @param {import('playwright-core').Page} page
 */
async function readable(page) {
  return page.evaluate(() => {
    const parts = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
      for (const a of ['aria-label', 'title', 'placeholder']) parts.push(el.getAttribute(a) || '');
    }
    for (const el of document.querySelectorAll('svg text')) parts.push(el.textContent || '');
    return parts.join('\n');
  });
}

/**
 * Catalogue keys in the page, and English texts the language has in other
 * words (whole sentences of 16 characters or more, without placeholders).
 * @param {string} text the page's readable text @param {string} lang
 */
function untranslated(text, lang) {
  const en = cats.en;
  const cat = cats[lang];
  const spaces = [...new Set(Object.keys(en).map((k) => k.split('.')[0]))];
  const keys = [...text.matchAll(new RegExp(`\\b(?:${spaces.join('|')})\\.[a-z][a-z0-9_-]*(?:\\.[a-z0-9_-]+)*`, 'g'))].map((m) => m[0]);
  const english = lang === 'en' ? [] : Object.entries(en)
    .filter(([k, v]) => typeof v === 'string' && v.length >= 16 && !v.includes('{') && cat[k] !== v && text.includes(v))
    .map(([k]) => k);
  return { keys, english };
}

for (const lang of LANGS) {
  test(`${lang}: the lobby and a Tawla board, every word in the language`, async () => {
    const { context, page, errors } = await newPage(env.browser, 'desktop', { lang });
    await page.goto(env.server.url + '/');
    await page.waitForSelector('.game-card');
    const rtl = lang === 'ar' || lang === 'fa';
    assert.deepEqual(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]), [lang, rtl ? 'rtl' : 'ltr']);
    assert.equal((await page.locator('[data-testid="create"]').textContent())?.trim(), cats[lang]['lobby.create']);
    assert.deepEqual(untranslated(await readable(page), lang), { keys: [], english: [] }, `${lang}: lobby`);
    await shot(page, `i18n-${lang}-lobby`);
    // Every game's options in the lobby.
    for (const game of ['tawla', 'backgammon', 'high-gammon', 'tric-trac', 'stumphog', 'stortok', 'lager']) {
      await page.click(`[data-game="${game}"]`);
      assert.deepEqual(untranslated(await readable(page), lang), { keys: [], english: [] }, `${lang}: lobby, ${game}`);
      assert.doesNotMatch(await readable(page), /\b[A-Z]{2,4}-\d+\b/, `${lang}: no rule IDs in the lobby (${game})`);
    }
    await createInLobby(page, env.server.url, 'tawla', {}, ['you', 'ai']);
    await page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn'), null, { timeout: 60000 });
    const src = page.locator('.board-svg [data-state="src"]');
    if (await src.count()) await src.first().focus();
    assert.deepEqual(untranslated(await readable(page), lang), { keys: [], english: [] }, `${lang}: table`);
    assert.equal(await page.evaluate(() => document.documentElement.dir), rtl ? 'rtl' : 'ltr');
    // The board is never mirrored: point 1 (the player's home) lies right of point 12.
    const [one, twelve] = await page.evaluate(() => ['p:1', 'p:12'].map((id) => {
      const r = /** @type {Element} */ (document.querySelector(`[data-target="${id}"]`)).getBoundingClientRect();
      return r.left + r.width / 2;
    }));
    assert.ok(twelve > 0 && one > twelve, `${lang}: point 1 (at ${one}) right of point 12 (at ${twelve})`);
    assert.equal(await page.locator('.board-svg').evaluate((el) => getComputedStyle(el).direction), 'ltr');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the browser\'s language chooses the page\'s; the switch changes it and is remembered', async () => {
  const { context, page, errors } = await newPage(env.browser, 'desktop', { locale: 'el-GR' });
  await page.goto(env.server.url + '/');
  await page.waitForSelector('.game-card');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'el');
  assert.equal((await page.locator('[data-testid="create"]').textContent())?.trim(), cats.el['lobby.create']);
  await page.selectOption('[data-testid="language"]', 'fa');
  await page.waitForFunction(() => document.documentElement.lang === 'fa');
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
  assert.equal((await page.locator('[data-testid="create"]').textContent())?.trim(), cats.fa['lobby.create']);
  assert.equal(await page.locator('[data-testid="language"]').getAttribute('aria-label'), cats.fa['nav.language']);
  await page.reload();
  await page.waitForSelector('.game-card');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'fa', 'the choice outlasts a reload');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a browser in a language not offered gets English', async () => {
  const { context, page } = await newPage(env.browser, 'desktop', { locale: 'ja-JP' });
  await page.goto(env.server.url + '/');
  await page.waitForSelector('.game-card');
  assert.deepEqual(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]), ['en', 'ltr']);
  await context.close();
});

/** @type {Record<string, string[]>} */
const GAMES = {
  tawla: ['you', 'ai'],
  backgammon: ['you', 'ai'],
  'high-gammon': ['you', 'ai'],
  'tric-trac': ['you', 'ai'],
  stumphog: ['you', 'ai'],
  stortok: ['you', 'ai', 'ai'],
  lager: ['you', 'ai'],
};

for (const lang of ['sv', 'ar']) {
  for (const size of /** @type {const} */ (['desktop', 'phone'])) {
    test(`${lang} at ${size}: every board, screenshots, nothing untranslated`, async () => {
      const { context, page, errors } = await newPage(env.browser, size, { lang });
      for (const [game, seats] of Object.entries(GAMES)) {
        await createInLobby(page, env.server.url, game, {}, seats);
        await page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn')
          && document.querySelectorAll('.controls button').length > 0, null, { timeout: 60000 });
        await page.evaluate(() => window.scrollTo(0, 0));
        assert.deepEqual(untranslated(await readable(page), lang), { keys: [], english: [] }, `${lang} ${game} ${size}`);
        await shot(page, `i18n-${lang}-${game}-${size}`);
      }
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

test('sv: Stumphög\'s moves in the log are worded in Swedish, live and after a reload', async () => {
  const { context, page, errors } = await newPage(env.browser, 'desktop', { lang: 'sv' });
  await createInLobby(page, env.server.url, 'stumphog', {}, ['you', 'ai']);
  let seed = 7;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const moves = () => page.locator('[data-testid="log-move"] .mv').allTextContents();
  for (let turn = 0; turn < 4 && !(await moves()).some((m) => /från (Hitom|Bortom)/.test(m)); turn++) {
    await page.waitForFunction(() => document.querySelector('.status-bar')?.classList.contains('your-turn')
      && !document.querySelector('.controls .muted'), null, { timeout: 60000 });
    await playOneMove(page, random);
  }
  for (const when of ['live', 'after a reload']) {
    if (when !== 'live') {
      await page.reload();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="log-move"]').length > 0);
    }
    const words = await moves();
    assert.ok(words.some((m) => /^\d+ sten(ar)? \d+ steg från (Hitom|Bortom) \d$/.test(m)), `${when}: ${words.join(' | ')}`);
    assert.ok(!words.some((m) => /\b(stones?|steps?|from|bat in|bat out)\b/.test(m)), `${when}: no English: ${words.join(' | ')}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
