// @ts-check
/**
 * The games' events in words: each event comes typed from the server
 * (`kind`, `fields` with players as seat numbers, and an English `text`),
 * and is worded here with the names the page uses for each seat. The
 * games' own words (Stumpen, Hög, Ute, Stumpvarning) are kept.
 */

/**
 * @typedef {{kind: string, fields?: Record<string, any>, text?: string}} GameEvent
 *   One event as the server sends it.
 */

import { listText, t } from './i18n.js';
import { colourName } from './names.js';

/**
 * An event in words.
 * @param {GameEvent | string} event
 * @param {(seat: number) => string} who the page's name of a seat
 * @returns {string}
 */
export function eventText(event, who) {
  if (typeof event === 'string') return event;
  const f = event.fields || {};
  /**
   * The event's sentence about seat `p`: the `.you` form when `p` is the
   * viewer, with `who` (the seat's name) and the other values.
   * @param {string} key @param {number} p @param {Record<string, any>} [params]
   */
  const say = (key, p, params = {}) => t(isYou(who(p)) ? `${key}.you` : key, { who: who(p), ...params });
  switch (event.kind) {
    // Stumphög
    case 'opening':
      return t('ev.opening', { a: f.dice[0], b: f.dice[1], starts: say('ev.opening_starter', f.starter), other: say('ev.opening_other', f.other) });
    case 'stumpen_out':
      return f.stones === 1 ? say('ev.stumpen_out_one', f.by) : say('ev.stumpen_out', f.by, { n: f.stones, stay: f.stay });
    case 'over_stumpen':
      return say('ev.over_stumpen', f.to, { n: f.stones });
    case 'bat_in': {
      const parts = [];
      if (f.own_hog) parts.push(t('ev.from_own_hog', { n: f.own_hog }));
      if (f.their_ute) parts.push(t('ev.from_their_ute', { n: f.their_ute }));
      if (f.their_hog) parts.push(t('ev.from_their_hog', { n: f.their_hog }));
      return say('ev.bat_in', f.by, { n: f.own_hog + f.their_ute + f.their_hog, from: parts.join(', ') });
    }
    case 'bat_out':
      return say('ev.bat_out', f.by, { n: f.stumpen + f.own_hog, from: [t('ev.from_stumpen', { n: f.stumpen }), f.own_hog ? t('ev.from_own_hog', { n: f.own_hog }) : ''].filter(Boolean).join(', ') });
    case 'stumpvarning':
      return t('ev.stumpvarning', { who: who(f.player), n: f.ute });
    case 'end_ute':
      return t('ev.end_ute', { who: who(f.winner), n: f.ute });
    case 'end_dried_out':
      return t('ev.end_dried_out', { who: who(f.loser) });
    case 'end_both_dried_out':
      return t('ev.end_both_dried_out');
    case 'end_turn_cap':
      return t('ev.end_turn_cap', { n: f.cap });
    // Läger
    case 'knockout':
      return say('ev.knockout', f.by, { piece: t(`lager.piece.${f.piece}`), at: f.at, whose: isYou(who(f.owner)) ? t('ev.whose_you') : t('ev.whose', { who: who(f.owner) }) });
    case 'end_camp':
      return say('ev.end_camp', f.winner);
    case 'end_no_action':
      return say('ev.end_no_action', f.winner);
    case 'end_repetition':
      return t('ev.end_repetition');
    case 'end_ply_cap':
      return t('ev.end_ply_cap');
    // Stortok
    case 'pick_up':
      return say('ev.pick_up', f.player, { n: f.cards });
    case 'trick_complete':
      return t('ev.trick_complete');
    case 'set_aside':
      return t('ev.set_aside', { n: f.cards });
    case 'player_out':
      return say('ev.player_out', f.player);
    case 'end_stortok':
      return say('ev.end_stortok', f.loser);
    case 'end_cap':
      return t('ev.end_cap', { n: f.cap });
    case 'end_no_loser':
      return t('ev.end_no_loser');
    // High-O Gammon and Tric-Trac
    case 'opening_doubled':
      return t('ev.opening_doubled', { n: f.stake });
    case 'starts':
      return say('ev.starts', f.player);
    case 'colour_chosen':
      return f.colour === f.was
        ? say('ev.colour_kept', f.player, { colour: colourName(f.colour) })
        : say('ev.colour_chosen', f.player, { colour: colourName(f.colour), was: colourName(f.was) });
    case 'opening_tie':
      return t('ev.opening_tie', { who: listText(f.players.map(who)) });
    case 'hit':
      return isYou(who(f.victim))
        ? t('ev.hit_you', { who: who(f.by), field: f.field })
        : say('ev.hit', f.by, { victim: who(f.victim), field: f.field });
    case 'won':
      return say('ev.won', f.winner);
    case 'roll_again':
      return say('ev.roll_again', f.player);
    case 'take':
      return say('ev.take', f.player);
    case 'drop':
      return say('ev.drop', f.player, { n: f.owes });
    case 'won_by_drops':
      return say('ev.won_by_drops', f.winner);
    case 'stake':
      return t('ev.stake', { n: f.stake });
    default:
      return event.text || event.kind;
  }
}

/** Whether a seat's name is the viewer's ("You"). @param {string} name */
function isYou(name) {
  return name === t('name.you');
}

/**
 * Whether an event is a Stumpvarning (shown as a prompt beside the dice).
 * @param {GameEvent | string} event
 */
export function isWarning(event) {
  return typeof event === 'object' && event.kind === 'stumpvarning';
}

/**
 * How a finished game ended, in the game's own terms: sentences built from
 * the server's outcome (`ending`, winner, loser), the final observation and
 * the returns; nothing is worked out from the rules here.
 * @param {string} game
 * @param {{ending: string, winner?: number | null, loser?: number | null} | null | undefined} outcome
 * @param {any} obs the final observation
 * @param {number[]} returns
 * @param {(seat: number) => string} who the page's name of a seat ("You" for the viewer)
 * @returns {string[]}
 */
export function outcomeText(game, outcome, obs, returns, who) {
  if (!outcome) return [];
  const w = outcome.winner;
  const l = outcome.loser;
  const winner = w === null || w === undefined ? '' : who(w);
  const loser = l === null || l === undefined ? (w === 0 || w === 1 ? who(1 - w) : '') : who(l);
  const points = w === null || w === undefined ? 0 : returns[w] || 0;
  const cube = obs && obs.cube_enabled && obs.cube > 1 ? t('end.cube', { n: obs.cube }) : '';
  /**
   * The ending's sentence: the `.you` form when `name` is the viewer.
   * @param {string} key @param {string} name @param {Record<string, any>} [params]
   */
  const say = (key, name, params = {}) => t(isYou(name) ? `${key}.you` : key, { winner, loser, n: points, cube, ...params });
  /** As `say`, with the `.lost` form when the viewer lost (no "You" mid-sentence). @param {string} key */
  const told = (key) => (isYou(loser) ? t(`${key}.lost`, { winner, n: points, cube }) : say(key, winner));
  switch (outcome.ending) {
    // Tawla and backgammon
    case 'single':
      return [say('end.single', winner)];
    case 'gammon':
      return [told(game === 'tawla' ? 'end.diplo' : 'end.gammon')];
    case 'backgammon':
      return [told('end.backgammon')];
    case 'resigned':
      return [told('end.resigned')];
    case 'mother':
      return [isYou(loser) ? t('end.mother_yours', { winner, n: points, cube }) : say('end.mother', winner)];
    case 'both_mothers':
      return [t('end.both_mothers')];
    case 'dead_position':
      return [t('end.dead_position')];
    case 'dropped':
      if (game === 'high-gammon' || game === 'tric-trac') return [say('end.dropped_all', winner)];
      return [isYou(loser) ? t('end.dropped_by_you', { winner, n: points }) : say('end.dropped', winner)];
    case 'match': {
      const lines = [say('end.match', winner, { to: obs.match_to, a: obs.score[0], b: obs.score[1] })];
      if (obs.last_ending) {
        const last = outcomeText(game, { ending: obs.last_ending, winner: w }, { ...obs, cube_enabled: false }, [obs.last_game ? obs.last_game[1] : 0, obs.last_game ? obs.last_game[1] : 0], who);
        if (last.length) lines.push(t('end.last_game', { text: last[0] }));
      }
      return lines;
    }
    // High-O Gammon and Tric-Trac
    case 'borne_off':
      return [say('end.borne_off', winner)];
    case 'goal_points':
      return [say('end.goal_points', winner)];
    // Stumphög
    case 'dried_out':
      return [say('end.dried_out', loser)];
    case 'both_dried_out':
      return [t('end.both_dried_out')];
    case 'ute_threshold': {
      const ute = obs && obs.ute && w !== null && w !== undefined ? obs.ute[w] : null;
      const limit = obs && obs.rules ? obs.rules.win - 1 : 40;
      return [ute === null ? say('end.ute_over', winner, { limit }) : say('end.ute', winner, { ute, limit })];
    }
    case 'turn_cap':
      if (game === 'stortok') return [t('end.stortok_cap')];
      if (game === 'lager') return [t('end.move_cap')];
      return [t('end.turn_cap')];
    // Läger
    case 'camp':
      return [isYou(loser) ? t('end.camp_yours', { winner }) : say('end.camp', winner)];
    case 'no_move':
      return [isYou(loser) ? t('end.no_move_you', { winner }) : say('end.no_move', winner)];
    case 'repetition':
      return [t('end.repetition')];
    // Stortok
    case 'stortok':
      return [say('end.stortok', loser)];
    default:
      return [];
  }
}

/**
 * What a High-O Gammon player pays the winner, and why, once it is over;
 * empty for the winner and in the other games.
 * @param {any} obs @param {number} seat
 * @returns {string}
 */
export function paysText(obs, seat) {
  const p = obs && obs.players ? obs.players[seat] : null;
  if (!p || p.pays === null || p.pays === undefined || obs.winner === seat) return '';
  if (obs.game === 'tric-trac') return t('pays.plain', { n: p.pays });
  switch (obs.scoring) {
    case 'points': {
      const parts = [];
      if (p.short_of_goal) parts.push(t('pays.short', { n: p.short_of_goal }));
      if (p.bar) parts.push(t('pays.bar', { n: p.bar }));
      return parts.length ? t('pays.points', { n: p.pays, why: parts.join(', ') }) : t('pays.all_home', { n: p.pays });
    }
    case 'cube':
      return p.dropped_at !== null && p.dropped_at !== undefined ? t('pays.dropped', { n: p.pays, at: p.dropped_at }) : t('pays.stake', { n: p.pays });
    case 'traditional':
      return p.pays >= 1 && p.pays <= 3 ? t(`pays.traditional_${p.pays}`) : t('pays.plain', { n: p.pays });
    default:
      return t('pays.plain', { n: p.pays });
  }
}

/**
 * A game of a match that has just ended while the match goes on, in words:
 * how it ended and the match score, when `obs` follows `before` across the
 * end of a game (the server starts the next game in the same action);
 * otherwise nothing.
 * @param {string} game @param {any} before the observation before the action
 * @param {any} obs the observation after it
 * @param {(seat: number) => string} who the page's name of a seat
 * @returns {string[]}
 */
export function matchGameEnded(game, before, obs, who) {
  if (!before || !obs || !(obs.match_to > 0) || !obs.last_game || obs.phase === 'over') return [];
  const same = JSON.stringify([before.score, before.last_game]) === JSON.stringify([obs.score, obs.last_game]);
  if (same) return [];
  const [winner, points] = obs.last_game;
  const loser = winner === null ? null : 1 - winner;
  const lines = outcomeText(game, { ending: obs.last_ending, winner, loser }, { ...obs, cube_enabled: false }, [points, points], who);
  lines.push(t('end.match_score', { to: obs.match_to, first: who(0), a: obs.score[0], second: who(1), b: obs.score[1] }));
  return lines;
}

/**
 * A chance step's notation in words: an opening roll (`open 5-3`, High-O
 * Gammon's `open B3 R6 Y4`) said as the roll for the start; other dice as
 * they are written.
 * @param {string} text
 * @returns {string}
 */
export function chanceText(text) {
  const opening = /^open (.+)$/.exec(text);
  return opening ? t('log.opening_roll', { dice: opening[1] }) : text;
}

/**
 * A Stumphög action in the viewer's language from its JSON: "2 stones 3
 * steps from Hitom 1" (the other side's Hitom is the viewer's Bortom),
 * bat in, bat out, pass; null for anything else.
 * @param {any} json @param {boolean} otherSide
 * @returns {string | null}
 */
export function stumphogMoveText(json, otherSide) {
  if (json === 'pass') return t('action.pass');
  if (json === 'bat_in_from_opponent') return t('action.bat_in_from_opponent');
  if (!json || typeof json !== 'object') return null;
  if ('bat_in' in json) return t('action.bat_in', { n: json.bat_in });
  if ('bat_out' in json) return t('action.bat_out', { n: json.bat_out });
  const m = json.move;
  if (!m) return null;
  const hitom = (m.row === 'hitom') !== otherSide;
  return t('sh.log_move', { stones: t('sh.n_stones', { n: m.stones }), steps: t('sh.n_steps', { n: m.steps }), row: hitom ? 'Hitom' : 'Bortom', col: m.col });
}

/**
 * A move's notation as the viewer reads it: a move by the other side in
 * the viewer's own terms (Tawla and backgammon: its point n is the viewer's
 * 25 − n; Stumphög: its Hitom is the viewer's Bortom), and a hit or pin
 * (`*`) said in words.
 * @param {string} game @param {string} text
 * @param {boolean} otherSide whether the other side made the move
 * @returns {string}
 */
export function moveInViewersTerms(game, text, otherSide) {
  if (game === 'stumphog') {
    return otherSide ? text.replace(/\b(Hitom|Bortom)\b/g, (w) => (w === 'Hitom' ? 'Bortom' : 'Hitom')) : text;
  }
  if (game !== 'tawla' && game !== 'backgammon') return text;
  let out = text;
  if (otherSide) out = out.replace(/(?<![(\d-])\b([1-9]|1\d|2[0-4])\b(?![-\d)])/g, (d) => String(25 - Number(d)));
  const marks = (out.match(/\*/g) || []).length;
  if (marks === 0) return out;
  return `${out} (${t(game === 'tawla' ? 'log.pins' : 'log.hits', { n: marks })})`;
}
