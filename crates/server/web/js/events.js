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
  switch (event.kind) {
    // Stumphög
    case 'opening':
      return `Roll for Stumpen ${f.dice[0]}–${f.dice[1]}: ${who(f.starter)} lays Stumpen and begins; ${who(f.other)} gets the other stone in Hög`;
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
      return `${who(f.by)} knocks out ${whose(f.owner)} ${f.piece} on ${f.at}`;
    case 'end_camp':
      return `${who(f.winner)} wins: two stones in the other camp`;
    case 'end_no_action':
      return `${who(f.winner)} wins: the other side has no move`;
    case 'end_repetition':
      return 'A draw: the same position for the third time';
    case 'end_ply_cap':
      return 'A draw: the move limit is reached';
    // Stortok
    case 'pick_up':
      return `${who(f.player)} picks up ${count(f.cards, 'card')}`;
    case 'trick_complete':
      return 'The trick is complete';
    case 'set_aside':
      return `${count(f.cards, 'card')} set aside`;
    case 'player_out':
      return `${who(f.player)} has no cards left and is out`;
    case 'end_stortok':
      return `${who(f.loser)} is left holding cards: the stortok`;
    case 'end_cap':
      return `The turn limit (${f.cap}) is reached: no loser`;
    case 'end_no_loser':
      return 'Nobody holds cards: no loser';
    // High-O Gammon and Tric-Trac
    case 'opening_doubled':
      return `Equal numbers in the roll for the start: the stake doubles to ${f.stake}`;
    case 'starts':
      return `${who(f.player)} rolled highest, chooses a colour and starts`;
    case 'colour_chosen':
      return f.colour === f.was
        ? `${who(f.player)} keeps ${f.colour} and starts`
        : `${who(f.player)} chose to play ${f.colour} (was ${f.was}); the others keep their turn order and take the next colours`;
    case 'opening_tie':
      return `${f.players.map(who).join(' and ')} tie for the highest and roll again`;
    case 'hit':
      return `${who(f.by)} hits ${who(f.victim)} on ${f.field}`;
    case 'won':
      return `${who(f.winner)} has won`;
    case 'roll_again':
      return `${who(f.player)} rolled a double and rolls again`;
    case 'take':
      return `${who(f.player)} takes the double`;
    case 'drop':
      return `${who(f.player)} drops out, owing ${f.owes}; those stones leave the board`;
    case 'won_by_drops':
      return `Everyone else dropped out: ${who(f.winner)} wins`;
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
