//! Agent tests: each agent on a position with a known answer, honesty with
//! hidden cards, determinism for a seed, the cube, hints and the bridge.

use spelbord_ai::arena::play_game;
use spelbord_ai::spec::{AlphaBetaConfig, ExpectimaxConfig};
use spelbord_ai::{
    AlphaBetaAgent, Budget, ExpectimaxAgent, GreedyAgent, IsmctsAgent, MctsAgent, MctsConfig,
    choose_action, hints, make_agent_for,
};
use spelbord_engine::lager::{Lager, LagerConfig, LagerState, Stone};

use spelbord_ai::Agent;
use spelbord_engine::rng::seeded;
use spelbord_engine::stortok::{Stortok, StortokState};
use spelbord_engine::tables::{TablesAction, TablesOptions, TablesState};
use spelbord_engine::tawla::{Tawla, TawlaBoard, TawlaRules, TawlaState};
use spelbord_engine::{Game, GameState, Notation, Options, Turn, Viewer, games};

fn tawla_position(pts: [i8; 24], off: [u8; 2], dice: [u8; 2], cube: bool) -> TawlaState {
    let options = TablesOptions { cube, match_to: 0 };
    TablesState::with_position(
        TawlaRules { mother: true },
        options,
        TawlaBoard::from_parts(pts, &[], off),
        0,
    )
    .with_dice(dice)
}

/// The mover bears off his last two checkers from points 1 and 2 with 2-1
/// (2/off 1/off wins); 2/1 1/off leaves one behind.
fn last_two_checkers() -> TawlaState {
    let mut pts = [0i8; 24];
    pts[0] = 1;
    pts[1] = 1;
    pts[12] = -15;
    tawla_position(pts, [13, 0], [2, 1], false)
}

fn wins_now(state: &TawlaState, action: TablesAction) -> bool {
    let mut s = *state;
    s.apply(action);
    s.turn() == Turn::Over && s.returns().get(0) > 0.0
}

/// HG-5: the opening winner of three-player High-O Gammon chooses his
/// colour by his estimates: `ai:medium` (the heuristic) takes Yellow, whose
/// goal points start free of opposing bands.
#[test]
fn the_ai_chooses_its_colour_in_high_gammon_by_its_estimates() {
    let game = spelbord_engine::high_gammon::HighGammon::from_options(
        &Options::parse(
            "high-gammon",
            spelbord_engine::high_gammon::HighGammon::option_specs(),
            &["players=3".to_string()],
        )
        .unwrap(),
    )
    .unwrap();
    let mut state = game.initial_state();
    let open = state.parse_action("open B2 R6 Y3").unwrap();
    state.try_apply(open).unwrap();
    let mut agent =
        make_agent_for::<spelbord_engine::high_gammon::HighGammon>("ai:medium", 3, 7).unwrap();
    let choice = agent.choose(&state);
    assert_eq!(state.format_action(choice), "choose Yellow");
}

#[test]
fn expectimax_picks_the_winning_bear_off() {
    let state = last_two_checkers();
    let mut actions = Vec::new();
    state.legal_actions(&mut actions);
    assert!(actions.len() > 1, "a real choice");
    assert!(actions.iter().any(|&a| !wins_now(&state, a)));
    for depth in 1..=3 {
        let config = ExpectimaxConfig {
            depth,
            ..ExpectimaxConfig::default()
        };
        let a = ExpectimaxAgent::new(config, 3).choose(&state);
        assert!(
            wins_now(&state, a),
            "depth {depth} chose {}",
            state.format_action(a)
        );
    }
}

#[test]
fn greedy_and_mcts_pick_the_winning_bear_off() {
    let state = last_two_checkers();
    let a = GreedyAgent::<TawlaState>::new(0.0, 1).choose(&state);
    assert!(wins_now(&state, a));
    let config = MctsConfig {
        budget: Budget::Iterations(300),
        ..MctsConfig::default()
    };
    let a = MctsAgent::<TawlaState>::new(config, 1).choose(&state);
    assert!(wins_now(&state, a));
}

/// Läger, 5×7: the first player's white stands in the far camp; his yellow
/// two moves away can jump to the middle of the second row from the camp,
/// from where it threatens two camp squares; one blockade stops only one.
fn lager_forced_win() -> LagerState {
    let diagram = "
        W....
        .....
        .....
        Y....
        .....
        ....k
        .....";
    LagerState::from_diagram(
        LagerConfig::default(),
        diagram,
        0,
        &[(1, Stone::Blue), (1, Stone::Yellow), (1, Stone::White)],
    )
    .expect("a valid diagram")
}

/// Plain minimax: whether `player` (to move or not) can force a win within
/// `plies` plies.
fn forced_win(state: &LagerState, player: usize, plies: u32) -> bool {
    match state.turn() {
        Turn::Over => state.returns().get(player) > 0.0,
        _ if plies == 0 => false,
        Turn::Player(p) => {
            let mut actions = Vec::new();
            state.legal_actions(&mut actions);
            let mut results = actions.iter().map(|&a| {
                let mut next = *state;
                next.apply(a);
                forced_win(&next, player, plies - 1)
            });
            if p == player {
                results.any(|w| w)
            } else {
                results.all(|w| w)
            }
        }
        Turn::Chance => unreachable!("Läger has no chance"),
    }
}

#[test]
fn alphabeta_finds_the_forced_win_in_lager() {
    let state = lager_forced_win();
    assert!(!forced_win(&state, 0, 1), "no win in one");
    assert!(forced_win(&state, 0, 3), "a forced win in three plies");
    let config = AlphaBetaConfig {
        depth: 5,
        budget: None,
        table_bits: 14,
    };
    let mut agent = AlphaBetaAgent::<LagerState>::new(config, 9);
    let a = agent.choose(&state);
    let mut next = state;
    next.apply(a);
    assert!(
        forced_win(&next, 0, 2),
        "alphabeta played {}",
        state.format_action(a)
    );
    // Its analysis knows the result for sure.
    let best = &agent.analyse(&state)[0];
    assert_eq!(best.score, 1.0);
    assert_eq!(best.margin, Some(0.0));
}

#[test]
fn alphabeta_defends_against_a_win_in_one() {
    // The second player to move: the first threatens to bring his blue
    // into the camp; every move that does not stop it loses at once.
    let state = lager_forced_win();
    let mut s = state;
    // the first player makes his double threat
    let mut actions = Vec::new();
    s.legal_actions(&mut actions);
    let threat = actions
        .iter()
        .copied()
        .find(|&a| {
            let mut n = s;
            n.apply(a);
            forced_win(&n, 0, 2)
        })
        .expect("a winning move");
    s.apply(threat);
    // Whatever the defender does, the win follows: alphabeta sees it lost.
    let config = AlphaBetaConfig {
        depth: 3,
        budget: None,
        table_bits: 14,
    };
    let mut agent = AlphaBetaAgent::<LagerState>::new(config, 2);
    let best = &agent.analyse(&s)[0];
    assert_eq!(best.score, 0.0, "a proven loss");
}

fn stortok_decision(players: &str, seed: u64) -> StortokState {
    let options = Options::parse(
        Stortok::ID,
        Stortok::option_specs(),
        &[format!("players={players}")],
    )
    .unwrap();
    let game = Stortok::from_options(&options).unwrap();
    let mut state = game.initial_state();
    let mut rng = seeded(seed);
    // Deal and play a few random turns so that hands are partly known.
    let mut random = spelbord_ai::RandomAgent::new(seed);
    let mut decisions = 0;
    loop {
        match state.turn() {
            Turn::Chance => {
                let a = state.sample_chance(&mut rng);
                state.apply(a);
            }
            Turn::Player(_) if decisions >= 6 => return state,
            Turn::Player(_) => {
                decisions += 1;
                let a = random.choose(&state);
                state.apply(a);
            }
            Turn::Over => panic!("the game ended early"),
        }
    }
}

/// A 1858 Stortok position after `turns` random turns, a player to move.
fn stortok_1858_after(players: usize, turns: u32, seed: u64) -> StortokState {
    let options = Options::parse(
        Stortok::ID,
        Stortok::option_specs(),
        &[format!("players={players}"), "version=1858".into()],
    )
    .unwrap();
    let mut state = Stortok::from_options(&options).unwrap().initial_state();
    let mut rng = seeded(seed);
    let mut random = spelbord_ai::RandomAgent::new(seed);
    loop {
        let a = match state.turn() {
            Turn::Chance => state.sample_chance(&mut rng),
            Turn::Player(_) if state.plies() >= turns => return state,
            Turn::Player(_) => random.choose(&state),
            Turn::Over => panic!("random 1858 play ended before {turns} turns"),
        };
        state.apply(a);
    }
}

#[test]
fn every_level_settles_on_shedding_in_a_game_gone_round_in_circles() {
    // STO-11: after SETTLE_AFTER turns every Stortok level plays the
    // playout rule (shed the weakest playable card), which ends the game.
    use spelbord_engine::Heuristic;
    use spelbord_engine::stortok::SETTLE_AFTER;
    for (players, seed) in [(2, 1), (3, 2), (4, 3), (5, 4)] {
        let state = stortok_1858_after(players, SETTLE_AFTER, seed);
        for name in ["ai:easy", "ai:medium", "ai:hard", "ai:expert"] {
            let mut agent = make_agent_for::<Stortok>(name, players, seed).unwrap();
            assert_eq!(
                Some(agent.choose(&state)),
                state.playout_action(),
                "{name}, {players} players"
            );
        }
    }
}

/// Two states that share the mover's observation but not the hidden cards.
fn same_view_other_cards(seed: u64) -> (StortokState, StortokState) {
    let state = stortok_decision("3", seed);
    let Turn::Player(me) = state.turn() else {
        unreachable!()
    };
    let view = state.observation(Viewer::Player(me));
    let mut rng = seeded(seed + 100);
    let other = (0..50)
        .filter_map(|_| view.sample_state(&mut rng))
        .find(|s| s != &state)
        .expect("another deal fits the view");
    assert_eq!(other.observation(Viewer::Player(me)), view);
    (state, other)
}

#[test]
fn ismcts_decides_from_its_own_observation_only() {
    for seed in 1..4 {
        let (a, b) = same_view_other_cards(seed);
        let config = MctsConfig {
            budget: Budget::Iterations(300),
            cutoff: 30,
            reuse: false,
            ..MctsConfig::default()
        };
        let x = IsmctsAgent::<StortokState>::new(config, 5).choose(&a);
        let y = IsmctsAgent::<StortokState>::new(config, 5).choose(&b);
        assert_eq!(x, y, "seed {seed}");
        assert!(a.is_legal(x));
    }
}

/// Whether two agents made alike choose alike in states that share the
/// mover's observation but not the hidden cards, over a few deals.
fn blind_to_hidden_cards(make: impl Fn() -> Box<dyn Agent<StortokState>>) -> bool {
    (1..4).all(|seed| {
        let (a, b) = same_view_other_cards(seed);
        make().choose(&a) == make().choose(&b)
    })
}

#[test]
fn every_agent_is_honest_with_hidden_cards() {
    // Agents made for perfect information decide on a world sampled from
    // the mover's observation, so they too cannot tell the two apart.
    for name in [
        "greedy",
        "ai:easy",
        "ai:hard",
        "mcts:iters=200,cutoff=20",
        "expectimax:depth=1",
        "rollout:n=16,width=3,cutoff=20",
    ] {
        assert!(
            blind_to_hidden_cards(|| make_agent_for::<Stortok>(name, 3, 11).unwrap()),
            "{name} reads hidden cards"
        );
    }
    // The control: the same MCTS searching the true state, cards and all,
    // is caught.
    let config = MctsConfig {
        budget: Budget::Iterations(200),
        cutoff: 20,
        ..MctsConfig::default()
    };
    assert!(!blind_to_hidden_cards(|| Box::new(
        MctsAgent::<StortokState>::new(config, 11)
    )));
}

fn record_of<G: Game>(names: &[&str], seed: u64, max_plies: usize) -> Vec<String> {
    let game = G::from_options(&Options::parse(G::ID, G::option_specs(), &[] as &[&str]).unwrap())
        .unwrap();
    let mut state = game.initial_state();
    let n = state.num_players();
    let mut agents: Vec<_> = (0..n)
        .map(|p| make_agent_for::<G>(names[p % names.len()], n, seed + p as u64).unwrap())
        .collect();
    let mut rng = seeded(seed);
    let mut out = Vec::new();
    while out.len() < max_plies {
        let a = match state.turn() {
            Turn::Over => break,
            Turn::Chance => state.sample_chance(&mut rng),
            Turn::Player(p) => agents[p].choose(&state),
        };
        if !G::HIDDEN_INFORMATION {
            for agent in agents.iter_mut() {
                agent.inform(&state, a);
            }
        }
        out.push(state.format_action(a));
        state.apply(a);
    }
    out
}

#[test]
fn agents_are_deterministic_for_a_seed() {
    let pairs: &[&[&str]] = &[
        &["mcts:iters=100", "greedy:temp=0.05"],
        &["expectimax:depth=2,root=3", "random"],
    ];
    for names in pairs {
        assert_eq!(
            record_of::<Tawla>(names, 4, 60),
            record_of::<Tawla>(names, 4, 60)
        );
    }
    let names: &[&str] = &["alphabeta:nodes=2000", "mcts:iters=100,cutoff=10"];
    assert_eq!(
        record_of::<Lager>(names, 2, 40),
        record_of::<Lager>(names, 2, 40)
    );
    let names: &[&str] = &[
        "ismcts:iters=100,cutoff=20",
        "greedy:temp=0.05",
        "mcts:iters=50",
    ];
    assert_eq!(
        record_of::<Stortok>(names, 3, 80),
        record_of::<Stortok>(names, 3, 80)
    );
    // Another seed, another game.
    assert_ne!(
        record_of::<Tawla>(&["greedy:temp=0.05"], 4, 60),
        record_of::<Tawla>(&["greedy:temp=0.05"], 5, 60)
    );
}

#[test]
fn mcts_keeps_its_tree_between_moves_and_plays_the_same() {
    // With reuse the agent follows the game; the record stays reproducible
    // and every move legal.
    let moves = record_of::<Tawla>(&["mcts:iters=200,reuse=on"], 8, 80);
    assert_eq!(
        moves,
        record_of::<Tawla>(&["mcts:iters=200,reuse=on"], 8, 80)
    );
    assert!(moves.len() >= 40);
}

#[test]
fn mcts_searches_afresh_at_a_position_it_did_not_follow() {
    // The kept tree belongs to the position the agent chose in; asked about
    // another position it has not followed, it must not answer from it.
    let config = MctsConfig {
        budget: Budget::Iterations(200),
        reuse: true,
        ..MctsConfig::default()
    };
    let mut agent = MctsAgent::<TawlaState>::new(config, 3);
    let bearing_off = last_two_checkers();
    assert!(bearing_off.is_legal(agent.choose(&bearing_off)));
    let start = TablesState::with_position(
        TawlaRules { mother: true },
        TablesOptions::default(),
        TawlaBoard::start(),
        0,
    )
    .with_dice([6, 5]);
    let a = agent.choose(&start);
    assert!(start.is_legal(a), "{a:?}");
}

#[test]
fn cube_thresholds_follow_the_money_game_theory() {
    let decide = |probability: f64| {
        spelbord_ai::cube::decide(&cube_decision_state(), |_, _| probability).map(|c| c.action)
    };
    assert_eq!(decide(0.75), Some(TablesAction::Double));
    assert_eq!(decide(0.55), Some(TablesAction::Roll));
    assert_eq!(decide(0.97), Some(TablesAction::Roll), "too good to double");
    let respond = |probability: f64| {
        spelbord_ai::cube::decide(&cube_response_state(), |_, _| probability).map(|c| c.action)
    };
    assert_eq!(respond(0.3), Some(TablesAction::Take));
    assert_eq!(respond(0.1), Some(TablesAction::Drop));
    // Not a cube decision: nothing to decide.
    assert_eq!(
        spelbord_ai::cube::decide(&last_two_checkers(), |_, _| 0.5).map(|c| c.action),
        None
    );
}

/// A fresh cube game at the first player's cube decision.
fn cube_decision_state() -> TawlaState {
    let options = Options::parse("tawla", Tawla::option_specs(), &["cube=on"]).unwrap();
    let mut s = Tawla::from_options(&options).unwrap().initial_state();
    let mut rng = seeded(1);
    while !matches!(s.turn(), Turn::Player(_)) {
        let a = s.sample_chance(&mut rng);
        s.apply(a);
    }
    // The opening roll only decides who starts: he may double first.
    assert_eq!(
        {
            let mut v = Vec::new();
            s.legal_actions(&mut v);
            v
        },
        vec![TablesAction::Roll, TablesAction::Double]
    );
    s
}

fn cube_response_state() -> TawlaState {
    let mut s = cube_decision_state();
    s.apply(TablesAction::Double);
    s
}

#[test]
fn cube_decisions_come_from_the_agents_estimates() {
    // Two strong agents at a cube decision in an even position: no double.
    let s = cube_decision_state();
    for name in ["greedy", "ai:hard", "mcts:iters=200,cutoff=4"] {
        let mut agent = make_agent_for::<Tawla>(name, 2, 1).unwrap();
        assert_eq!(agent.choose(&s), TablesAction::Roll, "{name}");
        // And an early double is taken.
        let mut agent = make_agent_for::<Tawla>(name, 2, 1).unwrap();
        assert_eq!(
            agent.choose(&cube_response_state()),
            TablesAction::Take,
            "{name}"
        );
    }
}

#[test]
fn hints_rank_the_winning_play_first() {
    let state = last_two_checkers();
    let hints = spelbord_ai::hints_for::<Tawla>(&state, 3, Budget::Iterations(400), 1);
    assert!(!hints.is_empty());
    assert!(hints[0].estimate > 0.99, "{hints:?}");
    let a = state.parse_action(&hints[0].text).unwrap();
    assert!(wins_now(&state, a));
    for h in &hints {
        assert!((0.0..=1.0).contains(&h.estimate) && (0.0..=1.0).contains(&h.confidence));
    }
}

#[test]
fn every_game_and_level_answers_through_the_bridge() {
    for game in games() {
        let options = game.parse_options(&[]).unwrap();
        let mut state = game.new_state(&options).unwrap();
        let mut rng = seeded(3);
        while !matches!(state.turn(), Turn::Player(_)) {
            let a = state.sample_chance(&mut rng);
            state.apply_json(&a.json).unwrap();
        }
        for name in [
            "random",
            "greedy",
            "ai:easy",
            "ai:medium",
            "expectimax:depth=1",
            "mcts:iters=50",
            "ismcts:iters=50",
            "alphabeta:nodes=500",
        ] {
            let a = choose_action(state.as_ref(), name, 1)
                .unwrap_or_else(|e| panic!("{}: {name}: {e}", game.id()));
            let mut copy = state.clone();
            copy.apply_json(&a.json)
                .unwrap_or_else(|e| panic!("{}: {name} chose {}: {e}", game.id(), a.text));
        }
        let h = hints(state.as_ref(), 2, Budget::Iterations(100), 1).unwrap();
        assert!(!h.is_empty() && h.len() <= 2, "{}", game.id());
        assert!(choose_action(state.as_ref(), "nobody", 1).is_err());
    }
}

#[test]
fn a_short_arena_game_is_reproducible() {
    let game = Tawla::from_options(
        &Options::parse("tawla", Tawla::option_specs(), &[] as &[&str]).unwrap(),
    )
    .unwrap();
    let run = || {
        let mut agents = vec![
            make_agent_for::<Tawla>("greedy", 2, 1).unwrap(),
            make_agent_for::<Tawla>("random", 2, 2).unwrap(),
        ];
        play_game(&game, &mut agents, 5)
    };
    let (a, b) = (run(), run());
    assert_eq!(a.returns, b.returns);
    assert_eq!(a.plies, b.plies);
}

/// `net:rollout=` resolves for every game with a network (the seat games'
/// net-guided rollouts of issue 13, backgammon's and Tawla's since the
/// review's judge rolls out); a game without a network refuses `net`
/// with a typed error.
#[test]
fn net_rollouts_resolve_for_every_game_with_a_network() {
    use spelbord_ai::resolve;
    use spelbord_engine::backgammon::Backgammon;
    use spelbord_engine::high_gammon::HighGammon;
    use spelbord_engine::lager::Lager;
    let spec = "net:rollout=8,turns=2,width=2";
    assert!(resolve::<Tawla>(spec, 2).is_ok());
    assert!(resolve::<Backgammon>(spec, 2).is_ok());
    assert!(resolve::<HighGammon>(spec, 3).is_ok());
    let refused = resolve::<Lager>(spec, 2).unwrap_err().to_string();
    assert!(refused.contains("net"), "{refused}");
}
