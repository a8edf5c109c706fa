//! The legal actions: the threats (LAG-6), the move generator, and the
//! rules checked one by one to say why an action is not legal.

use super::{LagerAction, LagerState, MAX_ON_BOARD, Piece, on_board};
use crate::game::Player;
use crate::lager::geometry::{Square, Stone};
use crate::lager::zobrist::{OUT, UNPLAYED};

impl LagerState {
    /// The squares each of `player`'s stones threatens (LAG-6), by stone.
    #[inline]
    fn attacks(&self, player: Player) -> [u128; 4] {
        let mut a = [0u128; 4];
        for (k, &loc) in self.stones[player].iter().enumerate() {
            if on_board(loc) {
                a[k] = self.masks().threats(Stone::ALL[k], 1u128 << loc, player);
            }
        }
        a
    }

    #[inline]
    fn doubly(a: &[u128; 4]) -> u128 {
        (a[0] & (a[1] | a[2] | a[3])) | (a[1] & (a[2] | a[3])) | (a[2] & a[3])
    }

    /// The squares `player` threatens: each has two of his stones that could
    /// step onto it (LAG-6).
    pub fn threatened(&self, player: Player) -> u128 {
        Self::doubly(&self.attacks(player))
    }

    /// The pieces `player` could knock out if they stood on a threatened
    /// square: the opponent's stones outside `player`'s camp (LAG-8) and both
    /// blockades (LAG-7).
    pub fn capturable(&self, player: Player) -> u128 {
        let mut m = 0u128;
        for &l in &self.stones[1 - player] {
            if on_board(l) {
                m |= 1u128 << l;
            }
        }
        m &= !self.masks().camp[player];
        for &l in &self.blockades {
            if on_board(l) {
                m |= 1u128 << l;
            }
        }
        m
    }

    /// Lists the legal actions of the player to move: moves, captures,
    /// stone placements, then blockade placements.
    pub(in crate::lager) fn generate(&self, out: &mut Vec<LagerAction>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let (attacks, on_board) = self.push_moves(out);
        self.push_captures(&attacks, out);
        if on_board < MAX_ON_BOARD {
            self.push_stone_placements(out);
        }
        self.push_blockade_placements(out);
    }

    /// Pushes the mover's moves onto free squares (LAG-2, LAG-3); gives the
    /// squares each stone threatens and how many stones are on the board.
    fn push_moves(&self, out: &mut Vec<LagerAction>) -> ([u128; 4], usize) {
        let g = self.geometry();
        let p = self.side as usize;
        let m = self.masks();
        let free = !self.occupied & m.board;
        let mut attacks = [0u128; 4];
        let mut count = 0;
        for (k, attack) in attacks.iter_mut().enumerate() {
            let loc = self.stones[p][k];
            if !on_board(loc) {
                continue;
            }
            count += 1;
            let stone = Stone::ALL[k];
            let b = 1u128 << loc;
            *attack = m.threats(stone, b, p);
            let mut dest = m.destinations(stone, b, p, free);
            let from = g.square(loc);
            while dest != 0 {
                let t = dest.trailing_zeros() as u8;
                dest &= dest - 1;
                out.push(LagerAction::Move {
                    from,
                    to: g.square(t),
                });
            }
        }
        (attacks, count)
    }

    /// Pushes the mover's captures (LAG-6, LAG-7, LAG-8): each stone of his
    /// onto each capturable square that two of his stones threaten.
    fn push_captures(&self, attacks: &[u128; 4], out: &mut Vec<LagerAction>) {
        let g = self.geometry();
        let p = self.side as usize;
        let mut targets = Self::doubly(attacks) & self.capturable(p);
        while targets != 0 {
            let t = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            for (k, attack) in attacks.iter().enumerate() {
                if attack >> t & 1 == 1 {
                    out.push(LagerAction::Move {
                        from: g.square(self.stones[p][k]),
                        to: g.square(t),
                    });
                }
            }
        }
    }

    /// Pushes the placements of the mover's unplayed stones on the free
    /// squares of his camp (LAG-4.1, LAG-5).
    fn push_stone_placements(&self, out: &mut Vec<LagerAction>) {
        let g = self.geometry();
        let p = self.side as usize;
        let m = self.masks();
        let camp_free = m.camp[p] & !self.occupied & m.board;
        if camp_free == 0 {
            return;
        }
        let row = g.camp_row(p);
        for k in 0..4 {
            if self.stones[p][k] != UNPLAYED {
                continue;
            }
            let base = row * g.columns;
            for col in 0..g.columns {
                if camp_free >> (base + col) & 1 == 1 {
                    out.push(LagerAction::Place {
                        stone: Stone::ALL[k],
                        to: Square::new(col, row),
                    });
                }
            }
        }
    }

    /// Pushes the placements of the mover's blockade on any free square, if
    /// he still has it and may place it now (LAG-4.3).
    fn push_blockade_placements(&self, out: &mut Vec<LagerAction>) {
        let p = self.side as usize;
        if self.blockades[p] != UNPLAYED || self.opening_turn() {
            return;
        }
        let g = self.geometry();
        let free = !self.occupied & self.masks().board;
        let mut i = 0u8;
        for row in 0..g.rows {
            for col in 0..g.columns {
                if free >> i & 1 == 1 {
                    out.push(LagerAction::Blockade {
                        to: Square::new(col, row),
                    });
                }
                i += 1;
            }
        }
    }

    /// Whether the player to move must place a stone because it is his first
    /// turn and the opening option asks for it.
    #[inline]
    fn opening_turn(&self) -> bool {
        self.config.stone_first && self.plies < 2
    }

    /// Whether `player` has any action (LAG-10).
    pub fn has_action(&self, player: Player) -> bool {
        let free = !self.occupied & self.masks().board;
        if self.blockades[player] == UNPLAYED && free != 0 && !self.opening_turn() {
            return true;
        }
        let count = self.stones_on_board(player);
        if count < MAX_ON_BOARD
            && self.masks().camp[player] & free != 0
            && self.stones[player].contains(&UNPLAYED)
        {
            return true;
        }
        let attacks = self.attacks(player);
        if attacks.iter().any(|&a| a & free != 0) {
            return true;
        }
        Self::doubly(&attacks) & self.capturable(player) != 0
    }

    /// Why `action` is not legal now, or `None` if it is. Checks the rules
    /// directly, independently of the move generator.
    pub fn illegal_reason(&self, action: LagerAction) -> Option<String> {
        if self.is_over() {
            return Some("the game is over".into());
        }
        match action {
            LagerAction::Place { stone, to } => self.illegal_placement(stone, to),
            LagerAction::Blockade { to } => self.illegal_blockade(to),
            LagerAction::Move { from, to } => self.illegal_move(from, to),
        }
    }

    /// Whether `sq` is on the board and empty.
    fn is_free(&self, sq: Square) -> bool {
        self.geometry().contains(sq) && self.piece_at(sq).is_none()
    }

    /// Why placing the mover's `stone` on `to` is not legal (LAG-4, LAG-5).
    fn illegal_placement(&self, stone: Stone, to: Square) -> Option<String> {
        let g = self.geometry();
        let p = self.side as usize;
        let loc = self.stones[p][stone.index()];
        if loc == OUT {
            return Some(format!("your {} stone is out of the game", stone.name()));
        }
        if loc != UNPLAYED {
            return Some(format!(
                "your {} stone is already on the board",
                stone.name()
            ));
        }
        if self.stones_on_board(p) >= MAX_ON_BOARD {
            return Some("you already have 3 stones on the board (LAG-5)".into());
        }
        if !g.contains(to) || to.row != g.camp_row(p) {
            return Some(format!(
                "stones are placed in your own camp, row {} (LAG-4)",
                g.camp_row(p) + 1
            ));
        }
        if !self.is_free(to) {
            return Some(format!("{to} is not free"));
        }
        None
    }

    /// Why placing the mover's blockade on `to` is not legal (LAG-2, LAG-4).
    fn illegal_blockade(&self, to: Square) -> Option<String> {
        if self.blockades[self.side as usize] != UNPLAYED {
            return Some("your blockade has already been placed (LAG-2)".into());
        }
        if self.opening_turn() {
            return Some("each player's first action is placing a stone (opening=stone)".into());
        }
        if !self.is_free(to) {
            return Some(format!("{to} is not a free square of the board"));
        }
        None
    }

    /// Why moving the mover's stone from `from` to `to` is not legal: its
    /// step (LAG-2), a jump (LAG-3), or a capture's conditions.
    fn illegal_move(&self, from: Square, to: Square) -> Option<String> {
        let p = self.side as usize;
        let stone = match self.piece_at(from) {
            Some((o, Piece::Stone(s))) if o == p => s,
            _ => return Some(format!("you have no stone on {from}")),
        };
        if !self.geometry().contains(to) {
            return Some(format!("{to} is not on the board"));
        }
        let dc = to.col as i8 - from.col as i8;
        let mut dr = to.row as i8 - from.row as i8;
        if p == 1 {
            dr = -dr;
        }
        let one = stone.steps().contains(&(dc, dr));
        let two = stone.double_step()
            && dc % 2 == 0
            && dr % 2 == 0
            && stone.steps().contains(&(dc / 2, dr / 2));
        if !one && !two {
            let how = match stone {
                Stone::Blue => "1 or 2 squares straight forward",
                Stone::Yellow => "1 or 2 squares diagonally forward",
                Stone::Black => "1 square diagonally",
                Stone::White => "1 square in any direction",
            };
            return Some(format!("the {} stone moves {how} (LAG-2)", stone.name()));
        }
        if two {
            let mid = Square::new((from.col + to.col) / 2, (from.row + to.row) / 2);
            if !self.is_free(mid) {
                return Some(format!("it cannot jump over {mid} (LAG-3)"));
            }
            if !self.is_free(to) {
                return Some(format!("{to} is occupied (LAG-3)"));
            }
            return None;
        }
        let (owner, piece) = self.piece_at(to)?;
        self.illegal_capture(stone, to, owner, piece)
    }

    /// Why the mover's `stone` cannot knock out `owner`'s `piece` on `to`
    /// (LAG-6, LAG-7, LAG-8).
    fn illegal_capture(
        &self,
        stone: Stone,
        to: Square,
        owner: Player,
        piece: Piece,
    ) -> Option<String> {
        let g = self.geometry();
        let p = self.side as usize;
        if owner == p && piece != Piece::Blockade {
            return Some(format!("{to} is occupied by your own stone (LAG-3)"));
        }
        if piece != Piece::Blockade && to.row == g.camp_row(p) {
            return Some(format!(
                "the stone on {to} is in your camp, where it is safe (LAG-8)"
            ));
        }
        // Checked square by square, apart from the generator's masks.
        let helpers = (0..4)
            .filter(|&k| {
                let loc = self.stones[p][k];
                if Stone::ALL[k] == stone || !on_board(loc) {
                    return false;
                }
                let at = g.square(loc);
                let dc = to.col as i8 - at.col as i8;
                let dr = (to.row as i8 - at.row as i8) * if p == 0 { 1 } else { -1 };
                Stone::ALL[k].steps().contains(&(dc, dr))
            })
            .count();
        if helpers == 0 {
            return Some(format!(
                "{to} is occupied; to knock out a piece two of your stones must \
                 threaten its square (LAG-6, LAG-7)"
            ));
        }
        None
    }
}
