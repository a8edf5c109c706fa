// @ts-check
/**
 * Shapes shared by the modules (JSDoc only; this file exports nothing at run time).
 *
 * @typedef {{text: string, json: any}} ActionInfo
 *   A legal action: its notation and its JSON form, as the engine gives them.
 * @typedef {{kind: 'player', seat: number} | {kind: 'chance'} | {kind: 'over'}} TurnInfo
 * @typedef {{version: number, turn: TurnInfo, observation: any, text: string,
 *   legal?: ActionInfo[], steps?: import('./games/steps.js').StepGraph,
 *   returns?: number[], outcome?: Outcome | null}} StateView
 * @typedef {{result: 'win' | 'loss' | 'ranking' | 'draw', winner: number | null,
 *   loser: number | null, places: number[], ending: string}} Outcome
 *   How a finished game came out, and how it ended in the game's own terms.
 *   The state as one viewer may see it (the server's `state` objects).
 * @typedef {{seat: number, kind: 'open' | 'human' | 'ai', name?: string | null,
 *   agent?: string, account?: string, auto_roll?: 'ask' | 'useless' | 'always',
 *   rating?: {rating: number, deviation: number, provisional: boolean}}} SeatInfo
 *   A seat; `account` where a signed-in player took it, `rating` (in the
 *   table's body only) where that account has a rating in a rated table's pool.
 * @typedef {{seat: number, url: string}} Invite
 * @typedef {{id: string, game: string, options: Record<string, string>,
 *   auto_forced: boolean, hidden_information: boolean,
 *   status: 'waiting' | 'playing' | 'finished', seats: SeatInfo[],
 *   invites: Invite[], viewer: {seat: number} | 'spectator', version: number,
 *   created_at: number, updated_at: number, ws: string, state: StateView,
 *   dice?: {scheme: string, table: string, commitment: string,
 *     server_seed: string | null, seat_seeds: string[]} | null,
 *   inactivity?: Inactivity, ending?: Ending | null,
 *   rematch?: string | null, rematch_of?: string | null, rated?: boolean,
 *   clock?: import('./clock.js').ClockInfo | null}} TableInfo
 * @typedef {{seconds: number, then: 'forfeit' | 'ai'}} Inactivity
 *   What happens to the player to move who does not act for `seconds`.
 * @typedef {{reason: 'resigned' | 'forfeit' | 'closed' | 'abandoned' | 'time',
 *   seat: number | null, returns: number[] | null}} Ending
 *   How a table ended early.
 * @typedef {{key: string, default: string, kind: 'choice' | 'int',
 *   values?: string[], min?: number, max?: number, help: string}} OptionSpec
 * @typedef {{id: string, name: string, summary: string,
 *   players: {min: number, max: number}, hidden_information: boolean,
 *   options: OptionSpec[], agents: string[], rules?: string}} GameInfo
 * @typedef {{win: number, win_gammon: number, win_backgammon: number,
 *   lose_gammon: number, lose_backgammon: number}} Outcomes
 * @typedef {{kind: 'cubeless' | 'cubeful' | 'match_winning_chance', value: number,
 *   outcomes: Outcomes | null}} Equity
 * @typedef {{text: string, json: any, estimate: number, confidence: number,
 *   margin?: number | null, samples: number, equity?: Equity | null}} Hint
 *
 * @typedef {Object} BoardContext  Everything a board needs to draw itself.
 * @property {any} obs the engine's observation for this viewer
 * @property {ActionInfo[]} legal the viewer's legal actions (empty when not his turn)
 * @property {import('./games/steps.js').StepGraph | null} [steps] the legal
 *   plays made step by step (the tables games), with the legal actions
 * @property {number | null} seat the viewer's seat (null: a spectator)
 * @property {string[]} names a display name per seat
 * @property {any} pick the board's partial selection (see each game)
 * @property {{seat: number, json: any} | null} [last] the last move made on
 *   the board, by whom (to mark it)
 * @property {ActionInfo | null} [preview] an action to show as a suggestion (a hint)
 * @property {string} [text] the engine's text drawing of the position
 * @property {boolean} [portrait] draw for a narrow, tall screen (a phone held upright)
 * @property {number} [slideMs] slide the last move's pieces in over this many
 *   milliseconds (0 or absent: draw them in place)
 * @property {{boards: any[], step: number} | null} [frame] the last move shown
 *   step by step: the positions it passed through as the server sent them
 *   (the one before it first) and the step shown now (1 and on); `obs` holds
 *   `boards[step]`, and only that step's piece slides in
 *
 * @typedef {Object} GameUI  One game family's board: drawing and building a move.
 * @property {() => any} emptyPick a selection with nothing chosen
 * @property {(ctx: BoardContext) => SVGSVGElement} render the board as SVG;
 *   elements with `data-target` are clickable targets
 * @property {(ctx: BoardContext, target: string) => any} choose the selection
 *   after clicking `target` (the same object when nothing changes)
 * @property {(ctx: BoardContext, from: string, to: string) => any} [drag] the
 *   selection after dragging from one target to another
 * @property {(ctx: BoardContext) => ActionInfo[]} candidates the legal actions
 *   that agree with the selection so far
 * @property {(ctx: BoardContext) => ActionInfo | null} complete the one action
 *   the selection names in full, ready to confirm
 * @property {(ctx: BoardContext) => any} undo the selection without its last part
 * @property {(ctx: BoardContext) => boolean} isEmpty whether nothing is chosen
 * @property {(ctx: BoardContext) => string} prompt what to do next, in words
 * @property {(action: ActionInfo) => boolean} onBoard whether an action is
 *   made on the board (others get buttons)
 * @property {(obs: any) => string} summary a one-line state summary (dice, stake)
 * @property {(obs: any, board: any) => any} [withBoard] the observation with
 *   one of the positions a played move passed through, as the server sent it
 *   (a game whose moves are shown step by step)
 *
 * @typedef {Object} Seek  A seek in the lobby: a table someone wants to play.
 * @property {string} id
 * @property {string} game
 * @property {Record<string, string>} options
 * @property {import('./timecontrol.js').ClockSpec | null} clock
 * @property {boolean} rated
 * @property {{min: number, max: number} | null} rating_range
 * @property {number | null} seat the owner's preferred seat
 * @property {number} players
 * @property {{name: string, rating: number | null}} owner
 * @property {number} accepted how many have accepted (seeks for 3-5 players)
 * @property {number} created_at
 *
 * @typedef {Object} PairingPool  A quick-pairing pool.
 * @property {string} id
 * @property {string} game
 * @property {Record<string, string>} options
 * @property {import('./timecontrol.js').ClockSpec | null} clock
 * @property {string} label
 *
 * @typedef {Object} PoolRating  A player's rating in one pool.
 * @property {number} rating
 * @property {number} deviation
 * @property {number} games
 * @property {boolean} provisional
 *
 * @typedef {Object} RatingPoint  A rating at a time (the history).
 * @property {number | string} at unix seconds (or an ISO date)
 * @property {number} rating
 * @property {number} deviation
 * @property {string} [table] the game after which it was
 *
 * @typedef {Object} FinishedGame  A finished game on a profile.
 * @property {string} table
 * @property {string} game
 * @property {number | string} finished_at
 * @property {string[]} opponents
 * @property {number} place 1 for the winner
 * @property {number} players
 * @property {string | null} [pool] the rating pool (null: unrated)
 * @property {number | null} [rating_change]
 *
 * @typedef {Object} Profile  A player's public profile; the lists are there
 *   where the server gives them.
 * @property {string} name
 * @property {number} created_at unix seconds
 * @property {Record<string, PoolRating>} [ratings] by pool
 * @property {Record<string, RatingPoint[]>} [history] by pool
 * @property {FinishedGame[]} [games]
 * @property {{table: string, game: string}[]} [playing]
 *
 * @typedef {Object} Pool  A rating pool (a leaderboard).
 * @property {string} pool
 * @property {string} game
 * @property {string} [description]
 * @property {number} players
 *
 * @typedef {Object} LeaderRow  A player on a leaderboard.
 * @property {number} [rank] (the provisional ones have none)
 * @property {string} name
 * @property {number} rating
 * @property {number} deviation
 * @property {number} games
 * @property {number | string | null} [last_played]
 *
 * @typedef {Object} Leaderboard  A pool's ranked and provisional players.
 * @property {string} pool
 * @property {LeaderRow[]} players
 * @property {LeaderRow[]} provisional
 */
export {};
