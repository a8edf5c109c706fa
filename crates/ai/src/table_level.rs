//! A level (`ai:hard`) that plays the agent the level table gives for the
//! table it actually sits at: the number of players and the rules variant
//! are read from each state, so Stortok's levels follow the version played
//! wherever the agent was made (arena, terminal, server, Python).

use crate::spec::Level;
use crate::{ActionEstimate, Agent, build, levels, resolve_at};
use spelbord_engine::{Game, GameState, Heuristic, Player};

/// The agent of a level, rebuilt when the table's players or variant call
/// for another spec.
pub(crate) struct TableLevel<G: Game> {
    level: Level,
    /// The spec text the inner agent was built from.
    spec: &'static str,
    inner: Box<dyn Agent<G::State>>,
    seed: u64,
}

impl<G: Game> TableLevel<G> {
    /// `inner`, built for `players` players at the game's default variant.
    pub(crate) fn new(
        level: Level,
        inner: Box<dyn Agent<G::State>>,
        players: usize,
        seed: u64,
    ) -> Self {
        TableLevel {
            level,
            spec: levels::level_agent(G::ID, players, None, level),
            inner,
            seed,
        }
    }

    /// Rebuilds the inner agent if `state`'s table has another spec; keeps
    /// the old one if the new spec cannot be built here.
    fn follow(&mut self, state: &G::State) {
        let players = state.num_players();
        let variant = state.level_variant();
        let spec = levels::level_agent(G::ID, players, variant, self.level);
        if spec == self.spec {
            return;
        }
        if let Ok(resolved) = resolve_at::<G>(self.level.name(), players, variant) {
            self.inner = build::<G::State>(&resolved, G::HIDDEN_INFORMATION, self.seed);
            self.spec = spec;
        }
    }
}

impl<G: Game> Agent<G::State> for TableLevel<G> {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn choose(&mut self, state: &G::State) -> <G::State as GameState>::Action {
        self.follow(state);
        self.inner.choose(state)
    }
    fn inform(&mut self, state: &G::State, action: <G::State as GameState>::Action) {
        self.follow(state);
        self.inner.inform(state, action);
    }
    fn estimate(&mut self, state: &G::State, player: Player) -> Option<f64> {
        self.follow(state);
        self.inner.estimate(state, player)
    }
    fn analyse(
        &mut self,
        state: &G::State,
    ) -> Vec<ActionEstimate<<G::State as GameState>::Action>> {
        self.follow(state);
        self.inner.analyse(state)
    }
    fn rate(
        &mut self,
        state: &G::State,
        action: <G::State as GameState>::Action,
    ) -> Option<ActionEstimate<<G::State as GameState>::Action>> {
        self.follow(state);
        self.inner.rate(state, action)
    }
    fn cube_choice(&mut self, state: &G::State) -> Option<<G::State as GameState>::Action> {
        self.follow(state);
        self.inner.cube_choice(state)
    }
}
