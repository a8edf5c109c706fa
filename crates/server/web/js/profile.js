// @ts-check
/**
 * A player's profile (`/@/{name}`): the name and since when; the ratings,
 * their history as charts, the finished games (replay, review) and the
 * tables being played, each where the server gives them; "No such player"
 * for an unknown name. On one's own profile, the account's settings:
 * change the password, sign out everywhere, delete the account.
 */

import * as api from './api.js';
import { ApiError } from './api.js';
import { account, accountError, field, passwordOk, setAccount, signOut } from './account.js';
import { dateText, ratingChart, ratingText } from './chart.js';
import { errorText } from './errors.js';
import { h, replace } from './dom.js';
import { gameNameById, signed } from './names.js';
import { listText, t } from './i18n.js';
import { loadPools, poolName } from './ratings.js';
import { toast } from './toast.js';

/** @typedef {import('./types.js').Profile} Profile */
/** @typedef {{go: (path: string) => void}} Nav */

/** A rating with `?` after it while provisional. @param {number} rating @param {boolean} provisional */
function ratingCell(rating, provisional) {
  return provisional
    ? h('span', { title: t('ratings.provisional_title'), dir: 'ltr' }, `${ratingText(rating)}?`)
    : ratingText(rating);
}

/** The table of a player's ratings, one row per pool. @param {Profile['ratings']} ratings */
function ratingsTable(ratings) {
  const pools = Object.entries(ratings || {});
  if (!pools.length) return h('p', { class: 'muted' }, t('profile.no_ratings'));
  return h('table', { class: 'data-table', 'data-testid': 'profile-ratings' },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('ratings.pool')), h('th', { scope: 'col' }, t('ratings.rating')),
      h('th', { scope: 'col' }, t('ratings.deviation')), h('th', { scope: 'col' }, t('ratings.games')))),
    h('tbody', {}, pools.map(([pool, r]) => h('tr', {},
      h('th', { scope: 'row' }, h('a', { href: `/ratings/${encodeURIComponent(pool)}`, 'data-nav': true }, poolName(pool))),
      h('td', { class: 'num' }, ratingCell(r.rating, r.provisional)),
      h('td', { class: 'num' }, h('span', { dir: 'ltr' }, `±${ratingText(r.deviation)}`)),
      h('td', { class: 'num' }, String(r.games))))));
}

/** A chart per pool of the rating over time. @param {NonNullable<Profile['history']>} history */
function historyCharts(history) {
  const pools = Object.entries(history).filter(([, points]) => Array.isArray(points) && points.length);
  if (!pools.length) return null;
  return h('section', { class: 'panel profile-section', 'aria-labelledby': 'profile-history' },
    h('h2', { id: 'profile-history' }, t('profile.history')),
    pools.map(([pool, points]) => h('figure', { class: 'chart-box' },
      h('figcaption', {}, poolName(pool)),
      ratingChart(points, t('profile.chart.label', { pool: poolName(pool) }), window.matchMedia('(max-width: 600px)').matches))));
}

/** Where a player finished: won or lost between two, else place n of m. @param {import('./types.js').FinishedGame} g */
function placeText(g) {
  if (g.players === 2) return t(g.place === 1 ? 'profile.won' : 'profile.lost');
  return t('profile.place', { place: g.place, players: g.players });
}

/** The finished games, newest first as the server sends them. @param {NonNullable<Profile['games']>} games */
function gamesList(games) {
  return h('section', { class: 'panel profile-section', 'aria-labelledby': 'profile-games' },
    h('h2', { id: 'profile-games' }, t('profile.games')),
    games.length === 0 ? h('p', { class: 'muted' }, t('profile.no_games')) : h('ul', { class: 'table-list', 'data-testid': 'profile-games' },
      games.map((g) => h('li', {},
        h('span', {},
          h('strong', {}, gameNameById(g.game)), ' · ', dateText(g.finished_at), ' · ',
          g.opponents && g.opponents.length ? t('profile.against', { names: listText(g.opponents) }) + ' · ' : '',
          placeText(g),
          typeof g.rating_change === 'number' ? [' ', h('span', { class: 'muted', dir: 'ltr' }, `(${signed(Math.round(g.rating_change))})`)] : null),
        h('span', { class: 'row' },
          h('a', { class: 'btn small', href: `/t/${encodeURIComponent(g.table)}?replay`, 'data-nav': true }, t('profile.replay')),
          h('a', { class: 'btn small', href: `/t/${encodeURIComponent(g.table)}?replay&analyse`, 'data-nav': true }, t('profile.review')))))));
}

/** The tables the player is at now. @param {NonNullable<Profile['playing']>} playing */
function playingList(playing) {
  return h('section', { class: 'panel profile-section', 'aria-labelledby': 'profile-playing' },
    h('h2', { id: 'profile-playing' }, t('profile.playing')),
    playing.length === 0 ? h('p', { class: 'muted' }, t('profile.not_playing')) : h('ul', { class: 'table-list', 'data-testid': 'profile-playing' },
      playing.map((p) => h('li', {},
        h('a', { href: `/t/${encodeURIComponent(p.table)}`, 'data-nav': true }, gameNameById(p.game))))));
}

/** An account's error in the settings, where a bad login is a wrong password. @param {unknown} e */
function settingsError(e) {
  return e instanceof ApiError && e.code === 'bad_login' ? t('account.error.wrong_password') : accountError(e);
}

/** The signed-in player's settings on his own profile. @param {string} name */
function settings(name) {
  // Change the password.
  const old = field('old-password', t('settings.old_password'), { type: 'password', autocomplete: 'current-password', maxlength: 128 });
  const next = field('new-password', t('settings.new_password'), { type: 'password', autocomplete: 'new-password', maxlength: 128, 'aria-describedby': 'new-password-rules' });
  const pwMessage = h('div', { role: 'alert', 'data-testid': 'password-message' });
  const pwForm = h('form', { class: 'account-form', novalidate: true, 'data-testid': 'password-form' },
    h('h3', {}, t('settings.change_password')), old.row, next.row,
    h('p', { class: 'muted small', id: 'new-password-rules' }, t('settings.password_rules')), pwMessage,
    h('button', { class: 'btn', type: 'submit' }, t('settings.change_password')));
  pwForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    replace(pwMessage);
    if (!passwordOk(next.input.value)) {
      replace(pwMessage, h('div', { class: 'error-box' }, t('account.error.password_rules')));
      return;
    }
    try {
      await api.changePassword(old.input.value, next.input.value);
      old.input.value = '';
      next.input.value = '';
      replace(pwMessage, h('p', { class: 'ok-box' }, t('settings.password_changed')));
    } catch (err) {
      replace(pwMessage, h('div', { class: 'error-box' }, settingsError(err)));
    }
  });

  // Sign out on every device.
  const everywhere = h('button', { class: 'btn', type: 'button', 'data-testid': 'sign-out-everywhere' }, t('settings.sign_out_everywhere'));
  const everywhereMessage = h('div', { role: 'alert' });
  everywhere.addEventListener('click', async () => {
    try {
      await api.signOutEverywhere();
      toast(t('settings.signed_out_everywhere'));
      setAccount(null);
    } catch (err) {
      replace(everywhereMessage, h('div', { class: 'error-box' }, accountError(err)));
    }
  });

  // Delete the account: the password, then a confirmation.
  const pw = field('delete-password', t('settings.password'), { type: 'password', autocomplete: 'current-password', maxlength: 128 });
  const delMessage = h('div', { role: 'alert', 'data-testid': 'delete-message' });
  const confirmBox = h('div');
  const delForm = h('form', { class: 'account-form', novalidate: true, 'data-testid': 'delete-form' },
    h('h3', {}, t('settings.delete')), h('p', { class: 'muted small' }, t('settings.delete_help')), pw.row, delMessage, confirmBox,
    h('button', { class: 'btn danger', type: 'submit', 'data-testid': 'delete-account' }, t('settings.delete')));
  delForm.addEventListener('submit', (e) => {
    e.preventDefault();
    replace(delMessage);
    if (!pw.input.value) {
      replace(delMessage, h('div', { class: 'error-box' }, t('account.error.empty')));
      return;
    }
    const yes = h('button', { class: 'btn danger', type: 'button', 'data-testid': 'delete-confirm' }, t('settings.delete_confirm'));
    const no = h('button', { class: 'btn', type: 'button' }, t('account.cancel'));
    yes.addEventListener('click', async () => {
      yes.disabled = true;
      try {
        await api.deleteAccount(pw.input.value);
        toast(t('settings.deleted'));
        setAccount(null);
      } catch (err) {
        replace(confirmBox);
        replace(delMessage, h('div', { class: 'error-box' }, settingsError(err)));
      }
    });
    no.addEventListener('click', () => replace(confirmBox));
    replace(confirmBox, h('div', { class: 'inline-prompt', role: 'group', 'aria-label': t('settings.delete') },
      h('span', {}, t('settings.delete_question', { name })), yes, no));
    yes.focus();
  });

  return h('section', { class: 'panel profile-section', 'aria-labelledby': 'profile-settings', 'data-testid': 'settings' },
    h('h2', { id: 'profile-settings' }, t('settings.title')),
    pwForm,
    h('div', { class: 'account-form' }, h('h3', {}, t('settings.sessions')),
      h('button', { class: 'btn', type: 'button', 'data-testid': 'sign-out-here', onclick: () => signOut() }, t('account.sign_out')),
      everywhereMessage, everywhere, h('p', { class: 'muted small' }, t('settings.sign_out_everywhere_help'))),
    delForm);
}

/**
 * Shows a player's profile.
 * @param {HTMLElement} root @param {string} name @param {Nav} _nav
 * @returns {Promise<() => void>}
 */
export async function showProfile(root, name, _nav) {
  replace(root, h('p', { class: 'muted' }, t('lobby.loading')));
  /** @type {Profile} */
  let profile;
  try {
    profile = await api.getPlayer(name);
    // The pools' names (where a pool is not one game's) come from the pool list.
    if (profile.ratings && Object.keys(profile.ratings).length) await loadPools().catch(() => []);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      replace(root, h('div', { class: 'page narrow' },
        h('h1', { 'data-testid': 'no-such-player' }, t('profile.no_such_player')),
        h('p', { class: 'muted' }, t('profile.no_such_player_help', { name })),
        h('p', {}, h('a', { href: '/', 'data-nav': true }, t('profile.to_lobby')))));
    } else {
      replace(root, h('div', { class: 'error-box' }, errorText(e)));
    }
    return () => {};
  }
  const me = account();
  const own = me !== null && me.name === profile.name;
  replace(root, h('div', { class: 'page narrow profile' },
    h('h1', { 'data-testid': 'profile-name' }, profile.name),
    h('p', { class: 'muted', 'data-testid': 'member-since' }, t('profile.since', { date: dateText(profile.created_at, { dateStyle: 'long' }) })),
    profile.ratings ? h('section', { class: 'panel profile-section', 'aria-labelledby': 'profile-ratings-title' },
      h('h2', { id: 'profile-ratings-title' }, t('profile.ratings')), ratingsTable(profile.ratings)) : null,
    profile.history ? historyCharts(profile.history) : null,
    Array.isArray(profile.playing) ? playingList(profile.playing) : null,
    Array.isArray(profile.games) ? gamesList(profile.games) : null,
    own ? settings(profile.name) : null));
  return () => {};
}
