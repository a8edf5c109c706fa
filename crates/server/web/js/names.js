// @ts-check
/** Names of games, seats, agents and actions, in words for people. */

/** @typedef {import('./types.js').SeatInfo} SeatInfo */
/** @typedef {import('./types.js').ActionInfo} ActionInfo */
/** @typedef {import('./types.js').GameInfo} GameInfo */
/** @typedef {import('./types.js').OptionSpec} OptionSpec */

import { has, t, tOr } from './i18n.js';

/** The AI levels offered in the lobby. */
export const LEVELS = ['easy', 'medium', 'hard', 'expert'];

/**
 * A seat's role in the game: its colour or side.
 * @param {string} game @param {number} seat @param {any} [obs]
 */
export function seatRole(game, seat, obs) {
  switch (game) {
    case 'tawla':
    case 'backgammon':
      return seat === 0 ? t('role.white') : t('role.black');
    case 'lager':
      return seat === 0 ? t('role.south') : t('role.north');
    case 'stumphog':
      return t('role.player', { n: seat + 1 });
    case 'stortok':
      return seat === 0 ? t('role.dealer') : t('role.player', { n: seat + 1 });
    case 'high-gammon':
    case 'tric-trac':
      return obs && obs.players && obs.players[seat] ? colourName(obs.players[seat].colour) : t('role.player', { n: seat + 1 });
    default:
      return t('role.seat', { n: seat + 1 });
  }
}

/** The colour swatch of a seat (CSS colour). @param {string} game @param {number} seat @param {any} [obs] */
export function seatColour(game, seat, obs) {
  if (game === 'tawla' || game === 'backgammon') return seat === 0 ? '#f8f3e6' : '#2c2a29';
  if (game === 'lager') return seat === 0 ? '#f5e9cc' : '#3a2b22';
  if (game === 'high-gammon' || game === 'tric-trac') {
    const colour = obs && obs.players && obs.players[seat] ? obs.players[seat].colour : '';
    /** @type {Record<string, string>} */
    const colours = { Blue: '#2f6fd6', Red: '#c8372d', Yellow: '#f2c31b', Green: '#2e9a52' };
    return colours[colour] || '#999';
  }
  return ['#9c3d24', '#2f6fd6', '#2e9a52', '#f2c31b', '#7b4bb3'][seat % 5];
}

/**
 * An agent's name for people, numbered by its seat so that several
 * computers at one table are told apart.
 * @param {string | undefined} agent @param {number} [seat]
 */
export function agentName(agent, seat) {
  if (!agent) return seat === undefined ? t('name.computer') : t('name.computer_n', { n: seat + 1 });
  const level = levelName(agent);
  return seat === undefined ? t('name.computer_level', { level }) : t('name.computer_n_level', { n: seat + 1, level });
}

/** A computer's level in words ("medium"), or the agent's own name. @param {string} agent */
export function levelName(agent) {
  const level = agent.startsWith('ai:') ? agent.slice(3) : agent;
  return tOr(`level.${level}`, level);
}

/** A High-O Gammon colour in words (the server names them in English). @param {string} colour */
export function colourName(colour) {
  return tOr(`colour.${String(colour).toLowerCase()}`, colour);
}

/** A game's name. @param {GameInfo} game */
export function gameName(game) {
  return tOr(`game.${game.id}.name`, game.name);
}

/** A game's name by its id. @param {string} id */
export function gameNameById(id) {
  return tOr(`game.${id}.name`, id);
}

/** A game's one-line summary. @param {GameInfo} game */
export function gameSummary(game) {
  return tOr(`game.${game.id}.summary`, withoutRuleIds(game.summary));
}

/**
 * Text without the rules' IDs ("(TAW-11)", "(HG-16..HG-18)"): they are for
 * the tests and the rules' authors, not for players.
 * @param {string} text
 */
export function withoutRuleIds(text) {
  const id = /\b[A-Z]{2,4}-\d+(?:\s*(?:\.\.|to|-|–)\s*[A-Z]{2,4}-\d+)?\b/;
  return text
    .replace(/\s*\(([^()]*)\)/g, (/** @type {string} */ whole, /** @type {string} */ inner) => {
      if (!id.test(inner)) return whole;
      const rest = inner.split(/,\s*/).filter((/** @type {string} */ part) => !id.test(part)).join(', ');
      return rest ? ` (${rest})` : '';
    })
    .replace(new RegExp(`\\s*${id.source}`, 'g'), '');
}

/** An option's name. @param {string} key */
export function optionLabel(key) {
  return tOr(`opt.${key}.label`, key.replace(/_/g, ' '));
}

/** What an option does. @param {string} game @param {OptionSpec} option */
export function optionHelp(game, option) {
  if (has(`opt.${game}.${option.key}.help`)) return t(`opt.${game}.${option.key}.help`);
  return tOr(`opt.${option.key}.help`, withoutRuleIds(option.help));
}

/** An option's value in words. @param {string} key @param {string} value */
export function optionValue(key, value) {
  if (has(`opt.${key}.${value}`)) return t(`opt.${key}.${value}`);
  return tOr(`opt.value.${value}`, value);
}

/**
 * A computer's name: numbered by its seat where the table has several.
 * @param {SeatInfo} seat @param {SeatInfo[]} [seats] the table's seats
 */
function computerName(seat, seats) {
  const several = !seats || seats.filter((s) => s.kind === 'ai').length > 1;
  return agentName(seat.agent, several ? seat.seat : undefined);
}

/**
 * The person at a seat.
 * @param {SeatInfo} seat @param {number | null} mySeat @param {SeatInfo[]} [seats] the table's seats
 */
export function seatPerson(seat, mySeat, seats) {
  if (seat.seat === mySeat) return seat.name ? t('name.you_named', { name: seat.name }) : t('name.you');
  if (seat.kind === 'ai') return computerName(seat, seats);
  if (seat.kind === 'open') return t('name.open_seat');
  return seat.name || t('name.guest');
}

/**
 * A short person name for boards.
 * @param {SeatInfo} seat @param {number | null} mySeat @param {SeatInfo[]} [seats] the table's seats
 */
export function shortName(seat, mySeat, seats) {
  if (seat.seat === mySeat) return t('name.you');
  if (seat.kind === 'ai') return computerName(seat, seats);
  if (seat.kind === 'open') return t('name.open_seat');
  return seat.name || t('name.guest');
}

/**
 * A button's label for an action made off the board.
 * @param {ActionInfo} action
 */
export function actionLabel(action) {
  const j = action.json;
  if (j === 'pick_up') return t('action.pick_up');
  if (j === 'pass') return t('action.pass');
  if (j === 'roll') return t('action.roll');
  if (j === 'double') return t('action.double');
  if (j === 'take') return t('action.take');
  if (j === 'drop') return t('action.drop');
  if (j === 'bat_in_from_opponent') return t('action.bat_in_from_opponent');
  if (j && typeof j === 'object' && 'bat_in' in j) return t('action.bat_in', { n: j.bat_in });
  if (j && typeof j === 'object' && 'bat_out' in j) return t('action.bat_out', { n: j.bat_out });
  if (j && typeof j === 'object' && 'colour' in j) return t('action.colour', { colour: colourName(j.colour) });
  const text = action.text;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A thing a seat owns, in words: "your camp" for the viewer ("You"), else
 * "South's camp".
 * @param {string} name the seat's name as the page shows it
 * @param {string} thing
 */
export function possessive(name, thing) {
  return name === t('name.you') ? t('poss.yours', { thing }) : t('poss.of', { who: name, thing });
}

/** @param {number} v */
export function signed(v) {
  const r = Math.round(v * 100) / 100;
  return r > 0 ? `+${r}` : String(r);
}

/**
 * A length of time in words ("90 seconds", "5 minutes", "1 day").
 * @param {number} seconds
 */
export function durationText(seconds) {
  const units = /** @type {const} */ ([['day', 86400], ['hour', 3600], ['minute', 60]]);
  for (const [name, size] of units) {
    if (seconds >= size && seconds % size === 0) return t(`time.${name}`, { n: seconds / size });
  }
  return t('time.second', { n: seconds });
}

/**
 * A table's inactivity rule in words: what happens to the player to move
 * who does not act in time.
 * @param {{seconds: number, then: 'forfeit' | 'ai'} | null | undefined} rule
 */
export function inactivityText(rule) {
  if (!rule) return '';
  return t(rule.then === 'ai' ? 'away.rule_ai' : 'away.rule_forfeit', { time: durationText(rule.seconds) });
}
