//! The set of positions reached during one generation: keys in a small
//! open-addressed table cleared by zeroing only the slots in use.
/// The first slots of the key set's table each generation (a power of two).
const MIN_SLOTS: usize = 64;

/// The keys of the positions reached so far, in the order found, with an
/// open-addressed table of their indices.
#[derive(Debug)]
pub(super) struct KeySet {
    /// Index + 1 into `keys`, 0 for an empty slot; only `..=mask` is in use.
    slots: Vec<u32>,
    keys: Vec<u128>,
    mask: usize,
}

impl Default for KeySet {
    fn default() -> Self {
        KeySet {
            slots: vec![0; 1 << 12],
            keys: Vec::with_capacity(1 << 11),
            mask: MIN_SLOTS - 1,
        }
    }
}

impl KeySet {
    #[inline]
    pub(super) fn clear(&mut self) {
        if self.keys.is_empty() {
            return;
        }
        self.slots[..=self.mask].fill(0);
        self.keys.clear();
        self.mask = MIN_SLOTS - 1;
    }

    #[inline]
    fn slot_of(key: u128, mask: usize) -> usize {
        let h = (key as u64 ^ (key >> 64) as u64 ^ (key >> 40) as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 40) as usize & mask
    }

    /// Adds `key`; false if it was there already.
    #[inline(always)]
    pub(super) fn insert(&mut self, key: u128) -> bool {
        if self.keys.len() * 2 >= self.mask {
            self.grow();
        }
        let mut i = Self::slot_of(key, self.mask);
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                self.keys.push(key);
                self.slots[i] = self.keys.len() as u32;
                return true;
            }
            if self.keys[slot as usize - 1] == key {
                return false;
            }
            i = (i + 1) & self.mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        self.slots[..=self.mask].fill(0);
        self.mask = self.mask * 2 + 1;
        if self.slots.len() <= self.mask {
            self.slots.resize(self.mask + 1, 0);
        }
        for (n, &key) in self.keys.iter().enumerate() {
            let mut i = Self::slot_of(key, self.mask);
            while self.slots[i] != 0 {
                i = (i + 1) & self.mask;
            }
            self.slots[i] = n as u32 + 1;
        }
    }
}
