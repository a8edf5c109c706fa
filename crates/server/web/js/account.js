// @ts-check
/**
 * Accounts in the browser: who is signed in (from `GET /api/session` when
 * the page loads; the session itself is an HttpOnly cookie), the header's
 * control ("Sign in", or the name linking to the profile and "Sign out"),
 * and the sign-in dialog with its two forms, sign in and sign up.
 */

import * as api from './api.js';
import * as store from './store.js';
import { ApiError } from './api.js';
import { errorText } from './errors.js';
import { h, replace } from './dom.js';
import { t } from './i18n.js';

/** @typedef {import('./api.js').Account} Account */

/** The signed-in account, or null for a guest. @type {Account | null} */
let current = null;
/** Called when the account changes (the view is drawn again). @type {() => void} */
let changed = () => {};

/** The signed-in account, or null. */
export function account() {
  return current;
}

/**
 * The player key to send: a guest's key (kept in local storage); none when
 * signed in, since the session cookie says who the player is.
 * @returns {string | undefined}
 */
export function guestKey() {
  return current ? undefined : store.playerKey();
}

/** Asks the server who is signed in (a guest when it cannot say). */
export async function loadSession() {
  try {
    current = await api.getSession();
  } catch {
    current = null;
  }
}

/**
 * Sets the signed-in account (null: signed out) and draws the header and
 * the view again.
 * @param {Account | null} a
 */
export function setAccount(a) {
  current = a;
  drawAccount();
  changed();
}

/** A profile's address. @param {string} name */
export function profilePath(name) {
  return `/@/${encodeURIComponent(name)}`;
}

/**
 * An account error in words: the account's own codes first (a wrong
 * password, a taken name, too many tries, the name and password rules),
 * then the server's other errors.
 * @param {unknown} e
 */
export function accountError(e) {
  if (e instanceof ApiError) {
    if (e.code === 'bad_login') return t('account.error.bad_login');
    if (e.code === 'name_taken') return t('account.error.name_taken');
    if (e.code === 'rate_limited') return t('account.error.rate_limited');
    if (e.code === 'not_signed_in') return t('account.error.not_signed_in');
    if (e.code === 'bad_request') return t('account.error.rules');
  }
  return errorText(e);
}

/** The name rules of the server: 3 to 20 letters, digits, `_`, `-` or `.`. @param {string} name */
export function nameOk(name) {
  const n = [...name.normalize('NFKC')].length;
  return n >= 3 && n <= 20 && /^[\p{L}\p{M}\p{N}_.-]+$/u.test(name.normalize('NFKC'));
}

/** Passwords have 8 to 128 characters. @param {string} password */
export function passwordOk(password) {
  const n = [...password].length;
  return n >= 8 && n <= 128;
}

/**
 * A labelled field of a form.
 * @param {string} id @param {string} label @param {Record<string, any>} attrs
 */
export function field(id, label, attrs) {
  const input = h('input', { id, name: id, required: true, ...attrs });
  return { input, row: h('div', { class: 'field' }, h('label', { for: id }, label), input) };
}

/** The dialog of sign in and sign up (made once). @type {HTMLDialogElement | null} */
let dialog = null;

/**
 * Opens the sign-in dialog on one of its tabs.
 * @param {'signin' | 'signup'} which
 */
export function openSignIn(which = 'signin') {
  dialog?.remove();
  let mode = which;
  const name = field('account-name', t('account.name'), { type: 'text', autocomplete: 'username', maxlength: 40, autocapitalize: 'none', spellcheck: 'false' });
  const password = field('account-password', t('account.password'), { type: 'password', maxlength: 128 });
  const rules = h('p', { class: 'muted small', id: 'account-rules' });
  const errorBox = h('div', { role: 'alert', 'data-testid': 'account-error' });
  const submit = h('button', { class: 'btn primary', type: 'submit', 'data-testid': 'account-submit' });
  const tabs = /** @type {const} */ (['signin', 'signup']).map((m) => h('button', {
    type: 'button', role: 'tab', id: `account-tab-${m}`, 'aria-controls': 'account-form', 'data-testid': `account-tab-${m}`,
    onclick: () => { mode = m; draw(); },
  }, t(`account.tab.${m}`)));
  const tabList = h('div', { class: 'tabs', role: 'tablist', 'aria-label': t('account.title') }, tabs);
  // The arrow keys move between the tabs (the tab pattern).
  tabList.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    mode = mode === 'signin' ? 'signup' : 'signin';
    draw();
    tabs[mode === 'signin' ? 0 : 1].focus();
    e.preventDefault();
  });
  const form = h('form', { id: 'account-form', role: 'tabpanel', class: 'account-form', novalidate: true },
    name.row, password.row, rules, errorBox,
    h('div', { class: 'row' }, submit,
      h('button', { class: 'btn', type: 'button', onclick: () => close() }, t('account.cancel'))));
  const draw = () => {
    tabs.forEach((tab, i) => {
      const on = (i === 0) === (mode === 'signin');
      tab.setAttribute('aria-selected', on ? 'true' : 'false');
      tab.tabIndex = on ? 0 : -1;
    });
    form.setAttribute('aria-labelledby', `account-tab-${mode}`);
    password.input.autocomplete = mode === 'signin' ? 'current-password' : 'new-password';
    submit.textContent = t(`account.submit.${mode}`);
    rules.textContent = mode === 'signup' ? t('account.rules') : '';
    if (mode === 'signup') password.input.setAttribute('aria-describedby', 'account-rules');
    else password.input.removeAttribute('aria-describedby');
    replace(errorBox);
  };
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    replace(errorBox);
    const n = name.input.value.trim();
    const p = password.input.value;
    if (mode === 'signup' && (!nameOk(n) || !passwordOk(p))) {
      replace(errorBox, h('div', { class: 'error-box' }, t(nameOk(n) ? 'account.error.password_rules' : 'account.error.name_rules')));
      return;
    }
    if (!n || !p) {
      replace(errorBox, h('div', { class: 'error-box' }, t('account.error.empty')));
      return;
    }
    submit.disabled = true;
    try {
      // The guest's key goes along: his tables become the account's.
      const key = store.playerKey();
      const a = mode === 'signin' ? await api.signIn(n, p, key) : await api.signUp(n, p, key);
      close();
      setAccount(a);
    } catch (err) {
      replace(errorBox, h('div', { class: 'error-box' }, accountError(err)));
      password.input.focus();
    } finally {
      submit.disabled = false;
    }
  });
  const d = /** @type {HTMLDialogElement} */ (h('dialog', { class: 'account-dialog', 'aria-labelledby': 'account-title', 'data-testid': 'account-dialog' },
    h('h2', { id: 'account-title' }, t('account.title')), tabList, form));
  const close = () => {
    d.close();
    d.remove();
    if (dialog === d) dialog = null;
  };
  d.addEventListener('cancel', (e) => { e.preventDefault(); close(); });
  dialog = d;
  draw();
  document.body.append(d);
  d.showModal();
  name.input.focus();
}

/** Signs out of this browser. */
export async function signOut() {
  try {
    await api.signOut();
  } catch (e) {
    console.warn(e);
  }
  setAccount(null);
}

/** Draws the header's account control in the page's language. */
export function drawAccount() {
  const slot = document.querySelector('header.top .account-slot');
  if (!slot) return;
  if (current) {
    replace(slot,
      h('a', { href: profilePath(current.name), 'data-nav': true, class: 'account-name', 'data-testid': 'account-link', 'aria-label': t('account.profile_of', { name: current.name }) }, current.name),
      h('button', { type: 'button', class: 'top-btn', 'data-testid': 'sign-out', onclick: () => signOut() }, t('account.sign_out')));
  } else {
    replace(slot, h('button', { type: 'button', class: 'top-btn', 'data-testid': 'sign-in', onclick: () => openSignIn('signin') }, t('account.sign_in')));
  }
}

/**
 * Starts the header's control: reads who is signed in, draws it, and calls
 * `onChange` whenever the account changes.
 * @param {() => void} onChange
 */
export async function startAccount(onChange) {
  await loadSession();
  changed = onChange;
  drawAccount();
}
