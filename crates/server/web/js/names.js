// @ts-check
/** Names of games, seats, agents and actions, in words for people. */

/** @typedef {import('./types.js').SeatInfo} SeatInfo */
/** @typedef {import('./types.js').ActionInfo} ActionInfo */

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
      return seat === 0 ? 'White' : 'Black';
    case 'lager':
      return seat === 0 ? 'South' : 'North';
    case 'stumphog':
      return `Player ${seat + 1}`;
    case 'stortok':
      return seat === 0 ? 'Player 1, dealer' : `Player ${seat + 1}`;
    case 'high-gammon':
    case 'tric-trac':
      return obs && obs.players && obs.players[seat] ? obs.players[seat].colour : `Player ${seat + 1}`;
    default:
      return `Seat ${seat + 1}`;
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
  const number = seat === undefined ? '' : ` ${seat + 1}`;
  if (!agent) return `Computer${number}`;
  const level = agent.startsWith('ai:') ? agent.slice(3) : agent;
  return `Computer${number} (${level})`;
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
  if (seat.seat === mySeat) return seat.name ? `You (${seat.name})` : 'You';
  if (seat.kind === 'ai') return computerName(seat, seats);
  if (seat.kind === 'open') return 'Open seat';
  return seat.name || 'Guest';
}

/**
 * A short person name for boards.
 * @param {SeatInfo} seat @param {number | null} mySeat @param {SeatInfo[]} [seats] the table's seats
 */
export function shortName(seat, mySeat, seats) {
  if (seat.seat === mySeat) return 'You';
  if (seat.kind === 'ai') return computerName(seat, seats);
  if (seat.kind === 'open') return 'Open seat';
  return seat.name || 'Guest';
}

/**
 * A button's label for an action made off the board.
 * @param {ActionInfo} action
 */
export function actionLabel(action) {
  const j = action.json;
  if (j === 'pick_up') return 'Pick up the pile';
  if (j === 'pass') return 'Pass';
  if (j === 'roll') return 'Roll the dice';
  if (j === 'double') return 'Double';
  if (j === 'take') return 'Take the double';
  if (j === 'drop') return 'Drop (give up the game)';
  if (j === 'bat_in_from_opponent') return 'Bat in 6 from your opponent';
  if (j && typeof j === 'object' && 'bat_in' in j) return `Bat in ${j.bat_in}`;
  if (j && typeof j === 'object' && 'bat_out' in j) return `Bat out ${j.bat_out}`;
  const text = action.text;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A name's possessive: "your" for "You", else "Name's". @param {string} name */
export function possessive(name) {
  return name === 'You' ? 'your' : `${name}'s`;
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
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${name}${n === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/**
 * A table's inactivity rule in words: what happens to the player to move
 * who does not act in time.
 * @param {{seconds: number, then: 'forfeit' | 'ai'} | null | undefined} rule
 */
export function inactivityText(rule) {
  if (!rule) return '';
  const what = rule.then === 'ai' ? 'the computer takes over' : 'forfeit';
  return `No move for ${durationText(rule.seconds)}: ${what}`;
}
