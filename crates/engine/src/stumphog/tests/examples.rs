//! The seed's worked examples, one test each.

use super::*;

/// "Jag slår en trea och en femma": three stones five steps ("Tre-Fem") or
/// five stones three steps ("Fem-Tre").
#[test]
fn example_roll_3_and_5_tre_fem_or_fem_tre() {
    let mut b = set_up_board();
    b.rows[1][1] = 8; // Bortom 2
    let s = acting(b, 0, [5, 3]);
    let from_b2: Vec<String> = texts(&s)
        .into_iter()
        .filter(|a| a.ends_with("Bortom 2"))
        .collect();
    assert_eq!(
        from_b2,
        [
            "5 stones 3 steps from Bortom 2",
            "3 stones 5 steps from Bortom 2"
        ]
    );
    // Said the Swedish way.
    let mut tre_fem = s;
    play(&mut tre_fem, "Tre-Fem från Bortom 2");
    assert_eq!(tre_fem.board().rows[1][1], 5);
    assert_eq!(tre_fem.board().rows[1][6], 4); // Bortom 7
    let mut fem_tre = s;
    play(&mut fem_tre, "Fem-Tre från Bortom 2");
    assert_eq!(fem_tre.board().rows[1][1], 3);
    assert_eq!(fem_tre.board().rows[1][4], 6); // Bortom 5
}

/// "Jag slår en etta och en fyra": "Fyra-Ett" moves four stones one step,
/// also in Hemma; "Ett-Fyra" moves one stone four steps, only in Borta.
#[test]
fn example_roll_1_and_4_fyra_ett_in_hemma_ett_fyra_only_borta() {
    let mut b = set_up_board();
    b.rows[0][5] = 5; // Hitom 6, Hemma
    b.rows[0][2] = 5; // Hitom 3, Borta
    let s = acting(b, 0, [4, 1]);
    assert!(legal(&s, "Fyra-Ett från Hitom 6"));
    assert!(!legal(&s, "Ett-Fyra från Hitom 6"));
    assert!(legal(&s, "Fyra-Ett från Hitom 3"));
    assert!(legal(&s, "Ett-Fyra från Hitom 3"));
    let mut t = s;
    play(&mut t, "4 stones 1 step from Hitom 6");
    assert_eq!((t.board().rows[0][5], t.board().rows[0][4]), (1, 5));
    let why = s.explain_illegal(s.parse_action("1 stone 4 steps from Hitom 6").unwrap());
    assert!(why.contains("Hemma"), "{why}");
}

/// "Sex-Fem" with only three stones in the Hög: the two more come from the
/// opponent's Ute; five stones go to the own Port.
#[test]
fn example_sex_fem_with_three_in_hog_takes_two_from_opponents_ute() {
    let mut b = set_up_board();
    b.hog = [3, 20];
    b.ute = [4, 6];
    let mut s = acting(b, 0, [6, 5]);
    play(&mut s, "bat in 5");
    assert_eq!(s.board().hog, [0, 20]);
    assert_eq!(s.board().ute, [4, 4]);
    assert_eq!(s.board().rows[0][0], 1 + 5); // the own Port, Hitom 1
    assert_eq!(
        s.events(),
        ["Slå in: 5 stones to Player 0's Port (3 from own Hög, 2 from Player 1's Ute)"]
    );
}

/// "Tre-Fem" bringing three stones into Stumpen: one is batted out at once,
/// two stay.
#[test]
fn example_tre_fem_into_stumpen_one_out_two_stay() {
    let mut b = set_up_board();
    b.rows[1][2] = 4; // Bortom 3: five steps to Stumpen
    b.stumpen = 6;
    let mut s = acting(b, 0, [5, 3]);
    play(&mut s, "Tre-Fem från Bortom 3");
    assert_eq!(s.board().ute[0], 1);
    assert_eq!(s.board().stumpen, 6 + 2);
    assert_eq!(s.board().rows[1][2], 1);
}

/// "Fyra-lika" (4-4) with three stones in Stumpen: two from Stumpen (one
/// stays) and six from the Hög, eight to Ute.
#[test]
fn example_fyra_lika_with_three_in_stumpen_two_out_and_six_from_hog() {
    let mut b = set_up_board();
    b.stumpen = 3;
    b.hog[0] = 20;
    let mut s = acting(b, 0, [4, 4]);
    assert!(texts(&s).contains(&"bat out 8".to_string()));
    play(&mut s, "bat out 8");
    assert_eq!(s.board().stumpen, 1);
    assert_eq!(s.board().hog[0], 14);
    assert_eq!(s.board().ute[0], 8);
}
