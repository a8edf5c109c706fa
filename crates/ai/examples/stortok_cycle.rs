//! Why do Stortok games reach the cap? Plays games and prints, per game,
//! what happened: turns, pick-ups and their mean size, pick-ups by a player
//! with at most two cards, players out, the smallest hand each seat reached
//! and the pick-ups each agent chose although it could beat.
//!
//! `cargo run --release -p spelbord-ai --example stortok_cycle -- VERSION
//! PLAYERS A[/B..] GAMES [v]`: agents separated by `/` take turns round the
//! seats, rotating each game. Environment: `CAP` (default 5000); with `v`,
//! the pick-ups after turn `FROM` (default 1000) are listed, and with
//! `TRACE=1` too every move of the 30 turns from `FROM` with all hands;
//! with `SERIES=K` every game's hand sizes are printed every K turns.
use spelbord_ai::make_agent_for;
use spelbord_engine::stortok::{Stortok, StortokState, Version};
type StortokAction = <StortokState as GameState>::Action;
use spelbord_engine::{Game, GameState, Turn};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let version = Version::from_name(&args[1]).unwrap();
    let n: usize = args[2].parse().unwrap();
    let agent = &args[3];
    let games: u64 = args[4].parse().unwrap();
    let verbose = args.len() > 5;
    let game = Stortok {
        version,
        players: n as u8,
        cap: std::env::var("CAP")
            .map(|c| c.parse().unwrap())
            .unwrap_or(5000),
    };
    let mut capped = 0;
    let mut tot_plies = 0u64;
    for g in 0..games {
        let mut agents: Vec<_> = (0..n)
            .map(|s| {
                let names: Vec<&str> = agent.split('/').collect();
                let name = names[(s + g as usize) % names.len()];
                make_agent_for::<Stortok>(name, n, g * 100 + s as u64).unwrap()
            })
            .collect();
        let mut rng = spelbord_engine::rng::seeded(g);
        let mut state = game.initial_state();
        let mut pickups = 0u32;
        let mut picked_total = 0u32;
        let mut near_out_pickups = 0u32;
        let mut min_hand = vec![99u32; n];
        let mut outs = 0u32;
        let nagents = agent.split('/').count();
        let mut voluntary = vec![0u32; nagents];
        let mut lines = 0;
        let series: u32 = std::env::var("SERIES")
            .map(|c| c.parse().unwrap())
            .unwrap_or(0);
        let mut sizes = Vec::new();
        loop {
            match state.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    let a = state.sample_chance(&mut rng);
                    state.apply(a);
                }
                Turn::Player(p) => {
                    if series > 0 && state.plies().is_multiple_of(series) {
                        let hands: Vec<u32> = (0..n).map(|q| state.hand(q).count_ones()).collect();
                        sizes.push(format!("{}:{hands:?}", state.plies()));
                    }
                    let a = agents[p].choose(&state);
                    let before = state.hand(p).count_ones();
                    let pile = state.table().len();
                    let could_beat = {
                        let mut v = Vec::new();
                        state.legal_actions(&mut v);
                        v.len() > 1
                    };
                    if a == StortokAction::PickUp {
                        pickups += 1;
                        picked_total += pile as u32;
                        if could_beat {
                            voluntary[(p + g as usize) % nagents] += 1;
                        }
                        if before <= 2 {
                            near_out_pickups += 1;
                        }
                        if verbose
                            && lines < 60
                            && state.plies()
                                > std::env::var("FROM")
                                    .map(|c| c.parse().unwrap())
                                    .unwrap_or(1000)
                        {
                            lines += 1;
                            let hands: Vec<u32> =
                                (0..n).map(|q| state.hand(q).count_ones()).collect();
                            let top = state.top().map(|c| format!("{c:?}")).unwrap_or_default();
                            println!(
                                "ply {} P{p} picks {pile} (could beat: {could_beat}) top {top} hands {hands:?}",
                                state.plies()
                            );
                        }
                    }
                    if verbose
                        && std::env::var("TRACE").is_ok()
                        && state.plies() >= std::env::var("FROM").unwrap().parse::<u32>().unwrap()
                        && state.plies()
                            < std::env::var("FROM").unwrap().parse::<u32>().unwrap() + 30
                    {
                        let hands: Vec<String> = (0..n)
                            .map(|q| {
                                format!(
                                    "{:?}",
                                    spelbord_engine::stortok::Cards(state.hand(q))
                                        .collect::<Vec<_>>()
                                )
                            })
                            .collect();
                        println!(
                            "ply {} P{p} {:?} top {:?} hands {}",
                            state.plies(),
                            a,
                            state.top(),
                            hands.join(" | ")
                        );
                    }
                    state.apply(a);
                    for (q, m) in min_hand.iter_mut().enumerate() {
                        *m = (*m).min(state.hand(q).count_ones());
                    }
                    if matches!(a, StortokAction::Play(_)) && state.hand(p) == 0 {
                        outs += 1;
                    }
                }
            }
        }
        if !sizes.is_empty() {
            println!("hand sizes by turn: {}", sizes.join(" "));
        }
        tot_plies += state.plies() as u64;
        if state.capped() {
            capped += 1;
        }
        println!(
            "game {g}: plies {} capped {} pickups {pickups} mean pick {:.1} near-out pickups {near_out_pickups} outs {outs} min hands {min_hand:?} voluntary pickups by agent {voluntary:?}",
            state.plies(),
            state.capped(),
            picked_total as f64 / pickups.max(1) as f64
        );
    }
    println!(
        "capped {capped}/{games}, mean plies {:.0}",
        tot_plies as f64 / games as f64
    );
}
