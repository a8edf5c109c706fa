//! A game under way at the terminal: who sits where, each turn's action
//! (chance, an agent's or a person's), what it tells the table, and the
//! record kept.

use super::turn::{TurnSettings, human_turn};
use super::{PlayArgs, outcome_line, read_line};
use anyhow::Result;
use spelbord_ai::{Agent, default_hint_budget, hints_for, make_agent_for};
use spelbord_engine::rng::{SeededRng, seeded};
use spelbord_engine::{Game, GameState, Notation, Options, Record, Viewer};
use std::io::{BufRead, Write};

/// Who plays a seat.
enum Seat<S: GameState> {
    Human,
    Agent(Box<dyn Agent<S>>),
}

/// A game under way: its state, its seats, and the record of its actions.
pub(super) struct Table<G: Game> {
    pub(super) state: G::State,
    seats: Vec<Seat<G::State>>,
    names: Vec<String>,
    /// The seats people play.
    humans: Vec<usize>,
    /// Whose eyes the table is told through: the one person, or a spectator.
    viewer: Viewer,
    color: bool,
    seed: u64,
    rng: SeededRng,
    pub(super) record: Record,
    /// The person who played last (to pass the screen between people).
    last_human: Option<usize>,
}

impl<G: Game> Table<G> {
    /// Seats the players `args` names (the first a person, the others
    /// `ai:medium`, by default) at `state`, with dice and agents from `seed`.
    pub(super) fn seat(
        args: &PlayArgs,
        options: Options,
        state: G::State,
        seed: u64,
    ) -> Result<Self> {
        let players = state.num_players();
        let mut seats: Vec<Seat<G::State>> = Vec::new();
        let mut names = Vec::new();
        for p in 0..players {
            let who = args.seats.get(p).cloned().unwrap_or_else(|| {
                if p == 0 {
                    "human".into()
                } else {
                    "ai:medium".into()
                }
            });
            if who == "human" {
                seats.push(Seat::Human);
            } else {
                let agent = make_agent_for::<G>(&who, players, seed.wrapping_add(1 + p as u64))?;
                seats.push(Seat::Agent(agent));
            }
            names.push(who);
        }
        let humans: Vec<usize> = (0..players)
            .filter(|&p| matches!(seats[p], Seat::Human))
            .collect();
        let mut record = Record::new(G::ID, options, names.clone());
        // The seed recomputes every die, deal and stock: shown only after the
        // game (STO-5).
        record.seed = Some(seed);
        let viewer = match humans.as_slice() {
            [one] => Viewer::Player(*one),
            _ => Viewer::Spectator,
        };
        Ok(Table {
            state,
            seats,
            names,
            humans,
            viewer,
            color: super::color_wanted(args.no_color),
            seed,
            rng: seeded(seed),
            record,
            last_human: None,
        })
    }

    /// The names of the seats' players, in seat order.
    pub(super) fn names(&self) -> &[String] {
        &self.names
    }

    /// Chance's action, told unless it is secret.
    pub(super) fn chance(
        &mut self,
        out: &mut dyn Write,
    ) -> Result<<G::State as GameState>::Action> {
        let a = self.state.sample_chance(&mut self.rng);
        // Dealt and drawn cards are secret: the drawing shows each
        // player what he may see.
        if !G::HIDDEN_INFORMATION {
            writeln!(out, "  chance: {}", self.state.format_action(a))?;
        }
        Ok(a)
    }

    /// Seat `p`'s action: his agent's, or the person's typed at the prompt
    /// (`None`: he quit or the input ended).
    pub(super) fn player_action(
        &mut self,
        p: usize,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> Result<Option<<G::State as GameState>::Action>> {
        let Seat::Agent(agent) = &mut self.seats[p] else {
            return self.human_action(p, input, out);
        };
        let a = agent.choose(&self.state);
        // Told from the side of the person at the table.
        writeln!(
            out,
            "  seat {p} ({}) plays {}",
            agent.name(),
            self.state.describe_action(a, self.viewer)
        )?;
        Ok(Some(a))
    }

    /// The person at seat `p` chooses, after the screen is passed to him
    /// where several people share it and cards are secret.
    fn human_action(
        &mut self,
        p: usize,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> Result<Option<<G::State as GameState>::Action>> {
        if G::HIDDEN_INFORMATION && self.humans.len() > 1 && self.last_human != Some(p) {
            // Clear the screen and its scrollback: the last
            // player's hand must not be a scroll away.
            write!(
                out,
                "\x1b[H\x1b[2J\x1b[3JPass the screen to seat {p}, then press Enter. "
            )?;
            out.flush()?;
            if read_line(input)?.is_none() {
                return Ok(None);
            }
        }
        self.last_human = Some(p);
        let hint_seed = self.seed ^ self.record.actions.len() as u64;
        let hint = |s: &G::State| hints_for::<G>(s, 3, default_hint_budget(G::ID), hint_seed);
        // STO-5: with hidden information a forced action is
        // not played for the player, or others could tell.
        let how = TurnSettings {
            game: G::ID,
            color: self.color,
            auto_forced: !G::HIDDEN_INFORMATION,
        };
        let Some(a) = human_turn(&self.state, p, &how, &hint, input, out)? else {
            return Ok(None);
        };
        let text = self.state.describe_action(a, Viewer::Player(p));
        writeln!(out, "  seat {p} (you) plays {text}")?;
        Ok(Some(a))
    }

    /// Records and applies `action`, then tells its events: the public ones,
    /// and to each person what he alone may see.
    pub(super) fn apply(
        &mut self,
        action: <G::State as GameState>::Action,
        out: &mut dyn Write,
    ) -> Result<()> {
        self.record.actions.push(self.state.format_action(action));
        // Agents that keep their search between moves follow the game;
        // with hidden cards nobody is told (a drawn card would show).
        if !G::HIDDEN_INFORMATION {
            for seat in self.seats.iter_mut() {
                if let Seat::Agent(agent) = seat {
                    agent.inform(&self.state, action);
                }
            }
        }
        self.state.apply(action);
        for event in self.state.events() {
            writeln!(out, "  *** {event} ***")?;
        }
        // What chance showed one person at the table alone (the card he drew).
        for &h in &self.humans {
            for event in self.state.private_events(Viewer::Player(h)) {
                writeln!(out, "  seat {h}: {event}")?;
            }
        }
        Ok(())
    }

    /// Tells how the game ended (or that it was abandoned, `quit`) and the
    /// seed; a finished game's result goes into the record.
    pub(super) fn finish(&mut self, quit: bool, out: &mut dyn Write) -> Result<()> {
        let seed = self.seed;
        if quit {
            writeln!(out, "Game abandoned. The seed was {seed}.")?;
            return Ok(());
        }
        write!(out, "{}", self.state.render(self.viewer, self.color))?;
        let returns = self.state.returns();
        let outcome = self.state.outcome();
        self.record.finish(returns.as_slice(), outcome);
        writeln!(
            out,
            "Game over: {}",
            outcome_line(outcome, returns.as_slice(), &self.names)
        )?;
        writeln!(out, "The seed was {seed}.")?;
        Ok(())
    }
}
