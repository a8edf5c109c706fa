//! The net agents' cube equities at every cube decision of backgammon
//! records, for `measure/cube_offline.py`.
//!
//! `ls games/*.json | cargo run --release -p spelbord-ai --example cube_probe
//! -- SPEC [SPEC..]` (net specs such as `net:ply=2` or
//! `net:ply=2,cube_depth=0`): one line per decision, the record, the action's
//! index, the seat on roll, GNU Backgammon's IDs and the action taken, then
//! per agent its cubeless winning chance and its no double, double/take and
//! double/drop equities. With `probs` instead of specs it reads lines of
//! `W WG WB LG LB CUBE HOLDER` (holder c, r or o) and prints Janowski's
//! equities of those money probabilities.
use spelbord_ai::AgentSpec;
use spelbord_ai::net::NetAgent;
use spelbord_engine::backgammon::Backgammon;
use spelbord_engine::backgammon::{BackgammonRules, BackgammonState};
use spelbord_engine::dynamic::StateOf;
use spelbord_engine::record::Record;
use std::io::BufRead;

fn main() {
    let specs: Vec<String> = std::env::args().skip(1).collect();
    if specs.first().map(String::as_str) == Some("probs") {
        // lines: w wg wb lg lb cube holder(c/r/o)
        for line in std::io::stdin().lock().lines() {
            let line = line.unwrap();
            let f: Vec<&str> = line.split_whitespace().collect();
            let p: Vec<f32> = f[..5].iter().map(|x| x.parse().unwrap()).collect();
            let holder = match f[6] {
                "c" => spelbord_ai::net::cube::Holder::Centre,
                "r" => spelbord_ai::net::cube::Holder::Roller,
                _ => spelbord_ai::net::cube::Holder::Opponent,
            };
            let e = spelbord_ai::net::cube::cube_equities(&spelbord_ai::net::cube::CubeSituation {
                probs: [p[0], p[1], p[2], p[3], p[4]],
                cube: f[5].parse().unwrap(),
                holder,
                score: None,
            });
            println!("{line} | nd={:.3} dt={:.3}", e.no_double, e.double_take);
        }
        return;
    }
    let agents: Vec<NetAgent<BackgammonRules>> = specs
        .iter()
        .map(|s| match AgentSpec::parse(s).unwrap() {
            AgentSpec::Net(c) => NetAgent::new(c).unwrap(),
            _ => panic!("net only"),
        })
        .collect();
    for path in std::io::stdin().lock().lines() {
        let path = path.unwrap();
        if !path.ends_with(".json") {
            // A GNU Backgammon ID: the one decision.
            // With a trailing `+`, after the double.
            let id = path.trim().trim_end_matches('+');
            let mut state: BackgammonState = id.parse().unwrap();
            if path.trim().ends_with('+') {
                spelbord_engine::GameState::apply(
                    &mut state,
                    spelbord_engine::tables::TablesAction::Double,
                );
            }
            println!("{path}{}", equities(&agents, &state));
            continue;
        }
        let rec = Record::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut state = rec.start_state().unwrap();
        for (i, action) in rec.actions.iter().enumerate() {
            let bg: &BackgammonState = &state
                .as_any()
                .downcast_ref::<StateOf<Backgammon>>()
                .unwrap()
                .0;
            if agents[0].cube_equities(bg).is_some() {
                println!(
                    "{path} {i} seat={} id={} act={action}{}",
                    bg.mover(),
                    bg.gnubg_id(),
                    equities(&agents, bg)
                );
            }
            state.apply_recorded(action).unwrap();
        }
    }
}

/// Each agent's `| w= nd= dt= dp=` part at `state`'s cube decision.
fn equities(agents: &[NetAgent<BackgammonRules>], state: &BackgammonState) -> String {
    agents
        .iter()
        .filter_map(|a| a.cube_equities(state))
        .map(|e| {
            format!(
                " | w={:.3} nd={:.3} dt={:.3} dp={:.3}",
                e.win, e.no_double, e.double_take, e.double_drop
            )
        })
        .collect()
}
