//! One game's state behind a small object-safe trait, with OpenSpiel's
//! integer actions: at a decision the index into the legal actions, at a
//! chance node the index into the chance outcomes.

use rand::{Rng, RngCore};
use spelbord_ai::{Agent, make_agent_for};
use spelbord_engine::dynamic::StateOf;
use spelbord_engine::tensor::{ObservationTensor, observation_tensor};
use spelbord_engine::{
    DynState, Error, Game, GameState, GameVisitor, Notation, Options, Player, Resignation, Turn,
    Viewer, visit_game,
};
use std::any::Any;

/// A state with integer actions; the legal actions are computed once per state.
pub trait Core: Send + Sync {
    /// The state behind the engine's object-safe layer.
    fn dyn_state(&self) -> &dyn DynState;
    /// Whose turn it is.
    fn turn(&self) -> Turn;
    /// Number of players.
    fn num_players(&self) -> usize;
    /// How many actions (or chance outcomes) there are now; 0 when over.
    fn num_actions(&mut self) -> usize;
    /// The probabilities of the chance outcomes (empty unless chance acts).
    fn chance_probabilities(&mut self) -> Vec<f64>;
    /// The action with this id in notation.
    fn action_text(&mut self, id: usize) -> Option<String>;
    /// Every action's notation, in id order.
    fn action_texts(&mut self) -> Vec<String>;
    /// The id of an action written in notation.
    fn text_to_id(&mut self, text: &str) -> Result<usize, Error>;
    /// Applies the action with this id; on error nothing changes.
    fn apply_id(&mut self, id: usize) -> Result<(), Error>;
    /// `seat` gives up `kind` ([`GameState::resign`]); on error nothing changes.
    fn resign(&mut self, seat: Player, kind: Resignation) -> Result<(), Error>;
    /// Draws a chance outcome's id with the right probabilities.
    fn sample_chance_id(&mut self, rng: &mut dyn RngCore) -> usize;
    /// Returns per player (zeros before the end).
    fn returns(&self) -> Vec<f64>;
    /// Writes `viewer`'s observation tensor into `out` (cleared first).
    fn observation_tensor(&self, viewer: Viewer, out: &mut Vec<f32>);
    /// The length of every observation tensor of this game and options.
    fn observation_tensor_len(&self) -> usize;
    /// A copy.
    fn clone_core(&self) -> Box<dyn Core>;
    /// The concrete type, for agents.
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// An agent for this game, by name.
    fn make_agent(&self, name: &str, seed: u64) -> Result<Box<dyn CoreAgent>, String>;
}

/// An agent that chooses action ids for [`Core`] states of its game.
pub trait CoreAgent: Send {
    /// The agent's name.
    fn name(&self) -> String;
    /// The id of the action it chooses for the player to move.
    fn choose(&mut self, state: &mut dyn Core) -> Result<usize, String>;
}

/// A game's state with its cached action lists.
#[derive(Clone)]
pub struct CoreOf<G: Game> {
    state: StateOf<G>,
    actions: Vec<<G::State as GameState>::Action>,
    chance: Vec<(<G::State as GameState>::Action, f64)>,
    fresh: bool,
}

impl<G: Game> CoreOf<G> {
    fn new(state: G::State) -> Self {
        CoreOf {
            state: StateOf(state),
            actions: Vec::new(),
            chance: Vec::new(),
            fresh: false,
        }
    }

    fn refresh(&mut self) {
        if !self.fresh {
            self.state.0.legal_actions(&mut self.actions);
            self.state.0.chance_outcomes(&mut self.chance);
            self.fresh = true;
        }
    }

    fn action(&mut self, id: usize) -> Option<<G::State as GameState>::Action> {
        self.refresh();
        match self.state.0.turn() {
            Turn::Chance => self.chance.get(id).map(|c| c.0),
            Turn::Player(_) => self.actions.get(id).copied(),
            Turn::Over => None,
        }
    }

    fn id_of(&mut self, action: <G::State as GameState>::Action) -> Option<usize> {
        self.refresh();
        match self.state.0.turn() {
            Turn::Chance => self.chance.iter().position(|c| c.0 == action),
            Turn::Player(_) => self.actions.iter().position(|&a| a == action),
            Turn::Over => None,
        }
    }
}

impl<G: Game> Core for CoreOf<G> {
    fn dyn_state(&self) -> &dyn DynState {
        &self.state
    }
    fn turn(&self) -> Turn {
        self.state.0.turn()
    }
    fn num_players(&self) -> usize {
        self.state.0.num_players()
    }
    fn num_actions(&mut self) -> usize {
        self.refresh();
        match self.state.0.turn() {
            Turn::Chance => self.chance.len(),
            Turn::Player(_) => self.actions.len(),
            Turn::Over => 0,
        }
    }
    fn chance_probabilities(&mut self) -> Vec<f64> {
        self.refresh();
        self.chance.iter().map(|c| c.1).collect()
    }
    fn action_text(&mut self, id: usize) -> Option<String> {
        let action = self.action(id)?;
        Some(self.state.0.format_action(action))
    }
    fn action_texts(&mut self) -> Vec<String> {
        (0..self.num_actions())
            .filter_map(|id| self.action_text(id))
            .collect()
    }
    fn text_to_id(&mut self, text: &str) -> Result<usize, Error> {
        if self.turn() == Turn::Over {
            return Err(Error::GameOver);
        }
        let action = self.state.0.parse_action(text)?;
        self.id_of(action).ok_or_else(|| Error::IllegalAction {
            action: self.state.0.format_action(action),
            reason: self.state.0.explain_illegal(action),
        })
    }
    fn apply_id(&mut self, id: usize) -> Result<(), Error> {
        if self.turn() == Turn::Over {
            return Err(Error::GameOver);
        }
        let count = self.num_actions();
        let action = self.action(id).ok_or_else(|| Error::IllegalAction {
            action: id.to_string(),
            reason: format!("action ids here are 0 to {}", count.saturating_sub(1)),
        })?;
        self.state.0.apply(action);
        self.fresh = false;
        Ok(())
    }
    fn resign(&mut self, seat: Player, kind: Resignation) -> Result<(), Error> {
        self.state.0.resign(seat, kind)?;
        self.fresh = false;
        Ok(())
    }
    fn sample_chance_id(&mut self, rng: &mut dyn RngCore) -> usize {
        self.refresh();
        let mut x: f64 = rng.random();
        for (i, &(_, p)) in self.chance.iter().enumerate() {
            if x < p {
                return i;
            }
            x -= p;
        }
        self.chance.len().saturating_sub(1)
    }
    fn returns(&self) -> Vec<f64> {
        self.state.0.returns().as_slice().to_vec()
    }
    fn observation_tensor(&self, viewer: Viewer, out: &mut Vec<f32>) {
        observation_tensor(&self.state.0, viewer, out);
    }
    fn observation_tensor_len(&self) -> usize {
        self.state.0.observation_tensor_len()
    }
    fn clone_core(&self) -> Box<dyn Core> {
        Box::new(self.clone())
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn make_agent(&self, name: &str, seed: u64) -> Result<Box<dyn CoreAgent>, String> {
        let inner = make_agent_for::<G>(name, self.num_players(), seed).map_err(|e| e.0)?;
        Ok(Box::new(AgentOf::<G> { inner }))
    }
}

struct AgentOf<G: Game> {
    inner: Box<dyn Agent<G::State>>,
}

impl<G: Game> CoreAgent for AgentOf<G> {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn choose(&mut self, state: &mut dyn Core) -> Result<usize, String> {
        let core = state
            .as_any_mut()
            .downcast_mut::<CoreOf<G>>()
            .ok_or_else(|| format!("this agent plays {}, not this game", G::ID))?;
        if !matches!(core.turn(), Turn::Player(_)) {
            return Err("it is not a player's turn".into());
        }
        let action = self.inner.choose(&core.state.0);
        core.id_of(action)
            .ok_or_else(|| "the agent chose an action that is not legal".into())
    }
}

struct NewCore<'a>(&'a Options);

impl GameVisitor for NewCore<'_> {
    type Output = Result<Box<dyn Core>, Error>;
    fn visit<G: Game>(self) -> Self::Output {
        let game = G::from_options(self.0)?;
        Ok(Box::new(CoreOf::<G>::new(game.initial_state())))
    }
}

/// The initial state of game `id` with these (checked) options.
pub fn new_core(id: &str, options: &Options) -> Result<Box<dyn Core>, Error> {
    visit_game(id, NewCore(options))?
}
