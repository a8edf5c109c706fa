//! The observation tensor of Läger ([`lager_tensor_len`] floats, by board
//! size), after the common head ([`crate::tensor::HEAD_LEN`]):
//! - 10 planes over the board's squares (row 1 first, each row from column
//!   1): one per piece, South's blue, yellow, black and white stones and
//!   blockade, then North's (1 where it stands);
//! - 2: each player's stones in the other's camp `/ 4`;
//! - 1: plies played, as a share of the ply cap;
//! - 1: how often this position has occurred `/ 3`.

use super::geometry::{Geometry, Stone};
use super::state::{LagerState, Piece};
use super::view::{LagerView, piece_letter};
use crate::game::Viewer;
use crate::tensor::{Features, HEAD_LEN, ObservationTensor};

/// Pieces per player, each a plane: the four stones, then the blockade.
const PIECES: [Piece; 5] = [
    Piece::Stone(Stone::Blue),
    Piece::Stone(Stone::Yellow),
    Piece::Stone(Stone::Black),
    Piece::Stone(Stone::White),
    Piece::Blockade,
];

/// The length of every Läger observation tensor on a board of this size.
pub fn lager_tensor_len(geometry: Geometry) -> usize {
    let squares = usize::from(geometry.columns) * usize::from(geometry.rows);
    HEAD_LEN + 2 * PIECES.len() * squares + 4
}

impl ObservationTensor for LagerState {
    fn observation_tensor_len(&self) -> usize {
        lager_tensor_len(self.geometry())
    }

    fn encode_observation(view: &LagerView, viewer: Viewer, f: &mut Features) {
        f.turn_and_viewer(view.turn, viewer);
        let squares = squares(view);
        for player in 0..2 {
            for piece in PIECES {
                let letter = piece_letter(player, piece);
                for &square in &squares {
                    f.flag(square == letter);
                }
            }
        }
        for player in &view.players {
            f.scaled(player.in_opponent_camp as f64, 4.0);
        }
        f.scaled(view.plies, f64::from(view.max_plies.max(1)));
        f.scaled(view.occurrences as f64, 3.0);
    }
}

/// The board's letters, row 1 first, exactly `columns × rows` of them
/// (`.` for an empty square).
fn squares(view: &LagerView) -> Vec<char> {
    let (columns, rows) = (usize::from(view.columns), usize::from(view.rows));
    let mut squares = vec!['.'; columns * rows];
    for (row, line) in view.board.iter().rev().take(rows).enumerate() {
        for (column, letter) in line.chars().take(columns).enumerate() {
            squares[row * columns + column] = letter;
        }
    }
    squares
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameState, Turn};
    use crate::lager::Lager;
    use crate::tensor::tests::{Change, assert_each_change_shows, check_tensor_lengths, mid_game};

    #[test]
    fn every_observation_has_the_documented_length() {
        let default = Geometry {
            columns: 5,
            rows: 7,
        };
        assert_eq!(lager_tensor_len(default), 12 + 350 + 4);
        let n = check_tensor_lengths::<Lager>(&[], 3, 1, lager_tensor_len(default));
        assert!(n > 100);
        let small = Geometry {
            columns: 4,
            rows: 5,
        };
        let options = ["columns=4", "rows=5", "captured=return", "opening=any"];
        let n = check_tensor_lengths::<Lager>(&options, 3, 2, lager_tensor_len(small));
        assert!(n > 100);
    }

    #[test]
    fn each_piece_has_its_plane() {
        let state = mid_game::<Lager>(&[], 4, |_| true);
        let view = state.observation(Viewer::Spectator);
        let tensor = crate::tensor::tests::encode::<LagerState>(&view, Viewer::Spectator);
        let squares = squares(&view);
        let planes = &tensor[HEAD_LEN..HEAD_LEN + 10 * squares.len()];
        for (i, &letter) in squares.iter().enumerate() {
            let on: Vec<usize> = (0..10)
                .filter(|plane| planes[plane * squares.len() + i] == 1.0)
                .collect();
            let expected = "BYKWRbykwr".find(letter);
            assert_eq!(on, expected.into_iter().collect::<Vec<_>>(), "{letter}");
        }
    }

    const CHANGES: &[Change<LagerView>] = &[
        ("turn", |v| v.turn = Turn::Over),
        ("board", |v| v.board[0] = v.board[0].replace('.', "r")),
        ("board, row 1", |v| {
            let last = v.board.len() - 1;
            v.board[last] = v.board[last].replace('.', "W");
        }),
        ("players.in_opponent_camp", |v| {
            v.players[1].in_opponent_camp += 1
        }),
        ("plies", |v| v.plies += 1),
        ("max_plies", |v| v.max_plies += 1),
        ("occurrences", |v| v.occurrences += 1),
    ];

    #[test]
    fn every_field_shows_in_the_tensor() {
        let state = mid_game::<Lager>(&[], 6, |s| s.turn() != Turn::Over);
        let view = state.observation(Viewer::Player(0));
        assert!(view.board.first().is_some_and(|row| row.contains('.')));
        assert!(view.board.last().is_some_and(|row| row.contains('.')));
        assert_each_change_shows::<LagerState>(&view, CHANGES);
    }
}
