use super::*;
use std::net::Ipv4Addr;

fn address(last: u8) -> Owner {
    Owner::Address(IpAddr::V4(Ipv4Addr::new(10, 0, 0, last)))
}

fn scheduler(expensive: usize, per_owner: usize) -> Arc<Thinking> {
    Thinking::new(Workers {
        expensive,
        cheap: 2,
        per_owner,
        hints_per_address: 2,
    })
}

/// A piece of expensive thinking of `owner` at `table`.
fn expensive(t: &Arc<Thinking>, owner: &Owner, table: &str) -> Pending {
    t.enqueue(Lane::Expensive, owner.clone(), Arc::from(table))
}

/// The names of the pieces granted a slot now, taking their slots.
fn granted(pending: &mut [(&str, Pending)], slots: &mut Vec<(String, Slot)>) -> Vec<String> {
    let mut names = Vec::new();
    for (name, p) in pending.iter_mut() {
        if let Some(slot) = p.try_slot() {
            names.push(name.to_string());
            slots.push((name.to_string(), slot));
        }
    }
    names
}

/// Gives back the slot of `name`.
fn finish(slots: &mut Vec<(String, Slot)>, name: &str) {
    let i = slots
        .iter()
        .position(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{name} holds no slot"));
    slots.remove(i);
}

#[test]
fn free_slots_go_round_robin_across_addresses_not_first_come() {
    let t = scheduler(1, 1);
    let (a, b, c) = (address(1), address(2), address(3));
    let mut slots = Vec::new();
    let mut pending = vec![
        ("a1", expensive(&t, &a, "a1")),
        ("a2", expensive(&t, &a, "a2")),
        ("a3", expensive(&t, &a, "a3")),
        ("a4", expensive(&t, &a, "a4")),
        ("b1", expensive(&t, &b, "b1")),
        ("b2", expensive(&t, &b, "b2")),
        ("c1", expensive(&t, &c, "c1")),
    ];
    let mut order = granted(&mut pending, &mut slots);
    assert_eq!(order, ["a1"]);
    while let Some(name) = slots.first().map(|(n, _)| n.clone()) {
        finish(&mut slots, &name);
        let next = granted(&mut pending, &mut slots);
        assert!(next.len() <= 1, "one slot: {next:?}");
        order.extend(next);
    }
    // First come first served would be a1 a2 a3 a4 b1 b2 c1.
    assert_eq!(order, ["a1", "a2", "b1", "c1", "a3", "b2", "a4"]);
}

#[test]
fn one_address_turns_round_robin_across_its_tables() {
    let t = scheduler(1, 1);
    let a = address(1);
    let mut slots = Vec::new();
    let mut pending = vec![
        ("x1", expensive(&t, &a, "x")),
        ("x2", expensive(&t, &a, "x")),
        ("x3", expensive(&t, &a, "x")),
        ("y1", expensive(&t, &a, "y")),
        ("z1", expensive(&t, &a, "z")),
    ];
    let mut order = granted(&mut pending, &mut slots);
    while let Some(name) = slots.first().map(|(n, _)| n.clone()) {
        finish(&mut slots, &name);
        order.extend(granted(&mut pending, &mut slots));
    }
    assert_eq!(order, ["x1", "x2", "y1", "z1", "x3"]);
}

#[test]
fn no_address_holds_more_than_its_bound() {
    let t = scheduler(4, 2);
    let (a, b) = (address(1), address(2));
    let mut slots = Vec::new();
    let mut pending: Vec<(&str, Pending)> = ["a1", "a2", "a3", "a4", "a5"]
        .into_iter()
        .map(|n| (n, expensive(&t, &a, n)))
        .collect();
    assert_eq!(granted(&mut pending, &mut slots), ["a1", "a2"]);
    // Two slots stay free for others, however much `a` waits for.
    assert_eq!(t.load(Lane::Expensive), (2, 3));
    pending.push(("b1", expensive(&t, &b, "b1")));
    assert_eq!(granted(&mut pending, &mut slots), ["b1"]);
    finish(&mut slots, "a1");
    assert_eq!(granted(&mut pending, &mut slots), ["a3"]);
    let held_by_a = slots.iter().filter(|(n, _)| n.starts_with('a')).count();
    assert_eq!(held_by_a, 2);
}

#[test]
fn cheap_thinking_never_waits_behind_expensive_thinking() {
    let t = scheduler(1, 1);
    let (a, b) = (address(1), address(2));
    let mut slots = Vec::new();
    let mut pending = vec![
        ("a1", expensive(&t, &a, "a1")),
        ("a2", expensive(&t, &a, "a2")),
        ("b1", expensive(&t, &b, "b1")),
    ];
    assert_eq!(granted(&mut pending, &mut slots), ["a1"]);
    // Every expensive slot is taken and three wait: cheap work goes at once,
    // also the busy address's own.
    pending.push((
        "b-cheap",
        t.enqueue(Lane::Cheap, b.clone(), Arc::from("b9")),
    ));
    pending.push((
        "a-cheap",
        t.enqueue(Lane::Cheap, a.clone(), Arc::from("a9")),
    ));
    assert_eq!(granted(&mut pending, &mut slots), ["b-cheap", "a-cheap"]);
    assert_eq!(t.load(Lane::Expensive), (1, 2));
    assert_eq!(t.load(Lane::Cheap), (2, 0));
}

#[test]
fn lanes_follow_the_agents_cost() {
    for cheap in ["random", "ai:random", "ai:easy", "ai:medium"] {
        assert_eq!(Lane::of_agent(cheap), Lane::Cheap, "{cheap}");
    }
    for expensive in ["ai:hard", "ai:expert", "net:ply=1", "mcts:prior=on"] {
        assert_eq!(Lane::of_agent(expensive), Lane::Expensive, "{expensive}");
    }
}

#[test]
fn waiting_that_goes_away_leaves_the_queue_and_a_slot_given_to_it_is_passed_on() {
    let t = scheduler(1, 1);
    let (a, b, c) = (address(1), address(2), address(3));
    let mut slots = Vec::new();
    let mut pending = vec![("a1", expensive(&t, &a, "a1"))];
    assert_eq!(granted(&mut pending, &mut slots), ["a1"]);
    let gone = expensive(&t, &b, "b1");
    let granted_then_gone = expensive(&t, &c, "c1");
    drop(gone);
    assert_eq!(t.load(Lane::Expensive), (1, 1));
    let mut later = vec![("a2", expensive(&t, &a, "a2"))];
    // c1 is next; it goes away without taking its slot, which passes to a2.
    finish(&mut slots, "a1");
    drop(granted_then_gone);
    assert_eq!(granted(&mut later, &mut slots), ["a2"]);
    assert_eq!(t.load(Lane::Expensive), (1, 0));
    slots.clear();
    drop(later);
    assert_eq!(t.load(Lane::Expensive), (0, 0));
}

#[tokio::test]
async fn a_waiting_piece_gets_its_slot_when_one_is_given_back() {
    let t = scheduler(1, 1);
    let first = expensive(&t, &address(1), "a")
        .slot()
        .await
        .expect("a slot");
    let next = expensive(&t, &address(2), "b");
    let waiting = tokio::spawn(next.slot());
    tokio::task::yield_now().await;
    assert_eq!(t.load(Lane::Expensive), (1, 1));
    drop(first);
    let second = tokio::time::timeout(Duration::from_secs(10), waiting)
        .await
        .expect("granted")
        .expect("the task ran")
        .expect("a slot");
    assert_eq!(t.load(Lane::Expensive), (1, 0));
    drop(second);
    assert_eq!(t.load(Lane::Expensive), (0, 0));
}

#[test]
fn an_address_has_a_bounded_number_of_hint_requests() {
    let t = scheduler(1, 1);
    let me = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
    let other = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2));
    let first = t.hint_place(me).expect("a place");
    let _second = t.hint_place(me).expect("a place");
    assert_eq!(t.hint_place(me).err(), Some(Refused::AddressFull));
    assert!(t.hint_place(other).is_ok());
    drop(first);
    assert!(t.hint_place(me).is_ok());
}

#[test]
fn ai_attempts_back_off_and_end() {
    let mut attempts = Attempts::new(5, Duration::from_millis(500));
    let pauses: Vec<_> = std::iter::from_fn(|| attempts.failed()).collect();
    assert_eq!(
        pauses,
        [500, 1000, 2000, 4000].map(Duration::from_millis).to_vec()
    );
    assert_eq!(attempts.failures(), 5);
}
