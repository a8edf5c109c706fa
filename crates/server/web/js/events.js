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

/**
 * An event in words.
 * @param {GameEvent | string} event
 * @param {(seat: number) => string} who the page's name of a seat
 * @returns {string}
 */
export function eventText(event, who) {
  if (typeof event === 'string') return event;
  const f = event.fields || {};
  /** @param {number} n @param {string} one @param {string} [many] */
  const count = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  /** A seat's possessive ("your" for the viewer). @param {number} p */
  const whose = (p) => (who(p) === 'You' ? 'your' : `${who(p)}'s`);
  /** A seat and its verb: "You pick up", "Blue picks up". @param {number} p @param {string} says @param {string} say */
  const does = (p, says, say) => `${who(p)} ${who(p) === 'You' ? say : says}`;
  switch (event.kind) {
    // Stumphög
    case 'opening':
      return `Roll for Stumpen ${f.dice[0]}–${f.dice[1]}: ${does(f.starter, 'lays Stumpen and begins', 'lay Stumpen and begin')}; ${does(f.other, 'gets', 'get')} the other stone in Hög`;
    case 'stumpen_out':
      return f.stones === 1
        ? `Slå ut: the stone goes on from Stumpen to ${whose(f.by)} Ute`
        : `Slå ut: 1 of the ${f.stones} stones goes on to ${whose(f.by)} Ute, ${f.stay} stay in Stumpen`;
    case 'over_stumpen':
      return `Slagna över: ${count(f.stones, 'stone')} past Stumpen to ${whose(f.to)} Hög`;
    case 'bat_in': {
      const parts = [];
      if (f.own_hog) parts.push(`${f.own_hog} from own Hög`);
      if (f.their_ute) parts.push(`${f.their_ute} from the other's Ute`);
      if (f.their_hog) parts.push(`${f.their_hog} from the other's Hög`);
      return `Slå in: ${count(f.own_hog + f.their_ute + f.their_hog, 'stone')} to ${whose(f.by)} Port (${parts.join(', ')})`;
    }
    case 'bat_out':
      return `Slå ut: ${count(f.stumpen + f.own_hog, 'stone')} to ${whose(f.by)} Ute (${f.stumpen} from Stumpen${f.own_hog ? `, ${f.own_hog} from own Hög` : ''})`;
    case 'stumpvarning':
      return `Stumpvarning! ${who(f.player)}: ${f.ute} stones in Ute`;
    case 'end_ute':
      return `${who(f.winner)}: ${f.ute} stones in Ute, the game is won`;
    case 'end_dried_out':
      return `${who(f.loser)}: uttorkad (no stones in Hög or Ute), the game is lost`;
    case 'end_both_dried_out':
      return 'Both players are uttorkade: a draw';
    case 'end_turn_cap':
      return `The turn limit (${f.cap}) is reached: a draw`;
    // Läger
    case 'knockout':
      return `${does(f.by, 'knocks out', 'knock out')} ${whose(f.owner)} ${f.piece} on ${f.at}`;
    case 'end_camp':
      return `${does(f.winner, 'wins', 'win')}: two stones in the other camp`;
    case 'end_no_action':
      return `${does(f.winner, 'wins', 'win')}: the other side has no move`;
    case 'end_repetition':
      return 'A draw: the same position for the third time';
    case 'end_ply_cap':
      return 'A draw: the move limit is reached';
    // Stortok
    case 'pick_up':
      return `${does(f.player, 'picks up', 'pick up')} ${count(f.cards, 'card')}`;
    case 'trick_complete':
      return 'The trick is complete';
    case 'set_aside':
      return `${count(f.cards, 'card')} set aside`;
    case 'player_out':
      return `${does(f.player, 'has no cards left and is out', 'have no cards left and are out')}`;
    case 'end_stortok':
      return `${does(f.loser, 'is', 'are')} left holding cards: the stortok`;
    case 'end_cap':
      return `The turn limit (${f.cap}) is reached: no loser`;
    case 'end_no_loser':
      return 'Nobody holds cards: no loser';
    // High-O Gammon and Tric-Trac
    case 'opening_doubled':
      return `Equal numbers in the roll for the start: the stake doubles to ${f.stake}`;
    case 'starts':
      return `${does(f.player, 'rolled highest, chooses a colour and starts', 'rolled highest, choose a colour and start')}`;
    case 'colour_chosen':
      return f.colour === f.was
        ? `${does(f.player, 'keeps', 'keep')} ${f.colour} and ${who(f.player) === 'You' ? 'start' : 'starts'}`
        : `${who(f.player)} chose to play ${f.colour} (was ${f.was}); the others keep their turn order and take the next colours`;
    case 'opening_tie':
      return `${f.players.map(who).join(' and ')} tie for the highest and roll again`;
    case 'hit':
      return `${does(f.by, 'hits', 'hit')} ${who(f.victim) === 'You' ? 'you' : who(f.victim)} on ${f.field}`;
    case 'won':
      return `${does(f.winner, 'has', 'have')} won`;
    case 'roll_again':
      return `${does(f.player, 'rolled a double and rolls again', 'rolled a double and roll again')}`;
    case 'take':
      return `${does(f.player, 'takes', 'take')} the double`;
    case 'drop':
      return `${does(f.player, 'drops', 'drop')} out, owing ${f.owes}; those stones leave the board`;
    case 'won_by_drops':
      return `Everyone else dropped out: ${does(f.winner, 'wins', 'win')}`;
    case 'stake':
      return `The stake is now ${f.stake}`;
    default:
      return event.text || event.kind;
  }
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
  /** A seat's possessive ("your" for the viewer). @param {string} name */
  const whose = (name) => (name === 'You' ? 'your' : `${name}'s`);
  const points = w === null || w === undefined ? 0 : returns[w] || 0;
  const pts = (/** @type {number} */ n) => `${n} point${n === 1 ? '' : 's'}`;
  const cube = obs && obs.cube_enabled && obs.cube > 1 ? ` (the cube stands at ${obs.cube})` : '';
  switch (outcome.ending) {
    // Tawla and backgammon
    case 'single':
      return [`${winner} bore off all 15 checkers first: a single game, ${pts(points)}${cube}.`];
    case 'gammon':
      return game === 'tawla'
        ? [`${winner} bore off all 15 checkers before ${loser} bore off any: a double game (diplo), ${pts(points)}${cube}.`]
        : [`${winner} bore off all 15 checkers before ${loser} bore off any: a gammon, ${pts(points)}${cube}.`];
    case 'backgammon':
      return [`${winner} bore off all 15 checkers while ${loser} had borne off none and still had a checker on the bar or in ${whose(winner)} home: a backgammon, ${pts(points)}${cube}.`];
    case 'mother':
      return [`${winner} pinned ${whose(loser)} mother (the last checker on its starting point): the mother rule, ${pts(points)}${cube}.`];
    case 'both_mothers':
      return ['Both mothers are pinned: a draw, no points.'];
    case 'dead_position':
      return ['Neither side can ever move again: a draw, no points.'];
    case 'dropped':
      if (game === 'high-gammon' || game === 'tric-trac') return [`Everyone else dropped the double: ${winner} ${winner === 'You' ? 'win' : 'wins'}.`];
      return [`${loser} dropped the double: ${winner} ${winner === 'You' ? 'win' : 'wins'} the stake, ${pts(points)}.`];
    case 'match': {
      const lines = [`${winner} won the match to ${obs.match_to}, ${obs.score[0]}–${obs.score[1]}.`];
      if (obs.last_ending) {
        const last = outcomeText(game, { ending: obs.last_ending, winner: w }, { ...obs, cube_enabled: false }, [obs.last_game ? obs.last_game[1] : 0, obs.last_game ? obs.last_game[1] : 0], who);
        if (last.length) lines.push(`The last game: ${last[0]}`);
      }
      return lines;
    }
    // High-O Gammon and Tric-Trac
    case 'borne_off':
      return [`${winner} bore off all 9 stones first.`];
    case 'goal_points':
      return [`${winner} filled the three goal points, three stones on each.`];
    // Stumphög
    case 'dried_out':
      return [`${loser} dried out (uttorkad): no stones left in Hög or Ute.`];
    case 'both_dried_out':
      return ['Both players dried out (uttorkade) at once: a draw.'];
    case 'ute_threshold': {
      const ute = obs && obs.ute && w !== null && w !== undefined ? obs.ute[w] : null;
      return [`${winner} ${winner === 'You' ? 'have' : 'has'} ${ute === null ? 'more than 40' : ute} stones in Ute, more than ${obs && obs.rules ? obs.rules.win - 1 : 40}: the game is won.`];
    }
    case 'turn_cap':
      if (game === 'stortok') return ['Nobody is left alone holding cards (or the turn limit came first): no stortok, a draw.'];
      if (game === 'lager') return ['The move limit is reached: a draw.'];
      return ['The turn limit is reached: a draw.'];
    // Läger
    case 'camp':
      return [`${winner} ${winner === 'You' ? 'have' : 'has'} two stones in ${whose(loser)} camp.`];
    case 'no_move':
      return [`${loser} had no move on ${loser === 'You' ? 'your' : 'their'} turn: ${winner} ${winner === 'You' ? 'win' : 'wins'}.`];
    case 'repetition':
      return ['The same position came a third time: a draw.'];
    // Stortok
    case 'stortok':
      return [`${loser} ${loser === 'You' ? 'are' : 'is'} left holding cards: the stortok, who loses.`];
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
  const n = (/** @type {number} */ k, /** @type {string} */ one) => `${k} ${one}${k === 1 ? '' : 's'}`;
  if (obs.game === 'tric-trac') return `pays ${p.pays}`;
  switch (obs.scoring) {
    case 'points': {
      const parts = [];
      if (p.short_of_goal) parts.push(`${n(p.short_of_goal, 'stone')} short of the goal points × 4`);
      if (p.bar) parts.push(`${n(p.bar, 'stone')} on the bar × 8`);
      return `pays ${p.pays}${parts.length ? `: ${parts.join(', ')}` : ': every stone home'}`;
    }
    case 'cube':
      return p.dropped_at !== null && p.dropped_at !== undefined ? `dropped out at stake ${p.dropped_at}, pays ${p.pays}` : `pays the stake, ${p.pays}`;
    case 'traditional':
      return `pays ${p.pays}: ${['', 'single (a stone borne off)', 'double (none borne off)', 'triple (none borne off, a stone on the bar or short of the home stretch)'][p.pays] || ''}`;
    default:
      return `pays ${p.pays}`;
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
  lines.push(`The match, to ${obs.match_to}: ${who(0)} ${obs.score[0]}, ${who(1)} ${obs.score[1]}.`);
  return lines;
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
  const word = game === 'tawla' ? 'pins' : 'hits';
  return `${out} (${marks > 1 ? `${word} ${marks}` : word})`;
}
