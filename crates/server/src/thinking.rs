//! Fair scheduling of thinking: AI moves and hints. Each piece of thinking
//! waits for a slot of its lane. Cheap agents (`random`, `ai:easy`,
//! `ai:medium`: microseconds to a few milliseconds) have a lane of their
//! own, so they never wait behind searches; every other agent, and every
//! hint search, takes a slot of the expensive lane. Within a lane the free
//! slots go round robin across owners (the address that created the table
//! or asked for the hint), and within an owner round robin across its
//! tables; no owner holds more than its bound of a lane's slots at once.
//! Waiting is cancellation-safe: a request that goes away leaves the queue.

use crate::limits::{Counter, Full, Held};
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

/// Which pool of slots a piece of thinking takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lane {
    /// Agents that answer in microseconds to a few milliseconds.
    Cheap,
    /// Searches and networks: up to seconds a move.
    Expensive,
}

impl Lane {
    /// The lane of an agent as the server names it (`random`, `ai:easy`,
    /// `ai:medium`, `ai:hard`, `ai:expert`, or a hint analyser's spec).
    pub fn of_agent(agent: &str) -> Lane {
        match agent {
            "random" | "ai:random" | "ai:easy" | "ai:medium" => Lane::Cheap,
            _ => Lane::Expensive,
        }
    }

    fn index(self) -> usize {
        match self {
            Lane::Cheap => 0,
            Lane::Expensive => 1,
        }
    }
}

/// Whose thinking it is, for fairness.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    /// The address that created the table, or asked for the hint.
    Address(IpAddr),
    /// A table whose creator's address is not known (reloaded from the
    /// store): it counts as an owner of its own.
    Table(Arc<str>),
}

/// The slots of each lane and the bound per owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workers {
    /// Slots of the expensive lane (`--ai-workers`).
    pub expensive: usize,
    /// Slots of the cheap lane.
    pub cheap: usize,
    /// The most expensive slots one owner holds at once.
    pub per_owner: usize,
    /// Hint requests one address may have waiting or running at once.
    pub hints_per_address: usize,
}

impl Workers {
    /// `workers` expensive slots, as many cheap ones, at most half of them
    /// (rounded up) per owner, and 4 hints per address.
    pub fn new(workers: usize) -> Workers {
        let workers = workers.max(1);
        Workers {
            expensive: workers,
            cheap: workers,
            per_owner: workers.div_ceil(2),
            hints_per_address: 4,
        }
    }
}

/// Hint requests waiting or running on the whole server, whatever the address.
const MAX_HINTS_QUEUED: usize = 1024;

/// The scheduler of a hub.
pub struct Thinking {
    lanes: Mutex<[LaneState; 2]>,
    next_id: std::sync::atomic::AtomicU64,
    hints: Arc<Counter<IpAddr>>,
}

/// Why a place for thinking was not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The address has as many hint requests waiting or running as allowed.
    AddressFull,
    /// The server has as many hint requests waiting as allowed.
    ServerFull,
    /// The scheduler is gone (a poisoned lock).
    Closed,
}

struct Waiter {
    id: u64,
    grant: oneshot::Sender<()>,
}

struct TableQueue {
    table: Arc<str>,
    waiting: VecDeque<Waiter>,
}

#[derive(Default)]
struct OwnerState {
    running: usize,
    tables: VecDeque<TableQueue>,
}

struct LaneState {
    slots: usize,
    per_owner: usize,
    running: usize,
    owners: HashMap<Owner, OwnerState>,
    /// Owners with waiting work, the next to be served first.
    ring: VecDeque<Owner>,
}

impl LaneState {
    fn new(slots: usize, per_owner: usize) -> Self {
        LaneState {
            slots: slots.max(1),
            per_owner: per_owner.clamp(1, slots.max(1)),
            running: 0,
            owners: HashMap::new(),
            ring: VecDeque::new(),
        }
    }

    fn push(&mut self, owner: &Owner, table: &Arc<str>, waiter: Waiter) {
        let state = self.owners.entry(owner.clone()).or_default();
        if state.tables.is_empty() {
            self.ring.push_back(owner.clone());
        }
        match state.tables.iter_mut().find(|q| q.table == *table) {
            Some(queue) => queue.waiting.push_back(waiter),
            None => state.tables.push_back(TableQueue {
                table: table.clone(),
                waiting: VecDeque::from([waiter]),
            }),
        }
    }

    /// Gives free slots to waiting work: the first owner in the ring under
    /// its bound, its first table's first waiter; both go to the back.
    fn dispatch(&mut self) {
        while self.running < self.slots {
            let owners = &self.owners;
            let per_owner = self.per_owner;
            let Some(pos) = self
                .ring
                .iter()
                .position(|o| owners.get(o).is_some_and(|s| s.running < per_owner))
            else {
                return;
            };
            let Some(owner) = self.ring.remove(pos) else {
                return;
            };
            let Some(state) = self.owners.get_mut(&owner) else {
                continue;
            };
            if let Some(mut queue) = state.tables.pop_front() {
                if let Some(waiter) = queue.waiting.pop_front()
                    && waiter.grant.send(()).is_ok()
                {
                    state.running += 1;
                    self.running += 1;
                }
                if !queue.waiting.is_empty() {
                    state.tables.push_back(queue);
                }
            }
            if !state.tables.is_empty() {
                self.ring.push_back(owner);
            } else if state.running == 0 {
                self.owners.remove(&owner);
            }
        }
    }

    /// Takes a waiter out of the queue; false if it is not there (granted).
    fn cancel(&mut self, owner: &Owner, id: u64) -> bool {
        let Some(state) = self.owners.get_mut(owner) else {
            return false;
        };
        let mut found = false;
        for queue in state.tables.iter_mut() {
            if let Some(i) = queue.waiting.iter().position(|w| w.id == id) {
                queue.waiting.remove(i);
                found = true;
                break;
            }
        }
        if found {
            state.tables.retain(|q| !q.waiting.is_empty());
            if state.tables.is_empty() {
                self.ring.retain(|o| o != owner);
                if state.running == 0 {
                    self.owners.remove(owner);
                }
            }
        }
        found
    }

    fn release(&mut self, owner: &Owner) {
        self.running = self.running.saturating_sub(1);
        if let Some(state) = self.owners.get_mut(owner) {
            state.running = state.running.saturating_sub(1);
            if state.running == 0 && state.tables.is_empty() {
                self.owners.remove(owner);
            }
        }
        self.dispatch();
    }
}

impl Thinking {
    /// A scheduler with these slots.
    pub fn new(workers: Workers) -> Arc<Self> {
        let cheap_bound = workers.cheap.div_ceil(2);
        Arc::new(Thinking {
            lanes: Mutex::new([
                LaneState::new(workers.cheap, cheap_bound),
                LaneState::new(workers.expensive, workers.per_owner),
            ]),
            next_id: std::sync::atomic::AtomicU64::new(0),
            hints: Counter::new(workers.hints_per_address, MAX_HINTS_QUEUED),
        })
    }

    /// Queues a piece of thinking of `owner` for `table` in `lane`; the
    /// answer is granted a slot when its turn comes (perhaps at once).
    pub fn enqueue(self: &Arc<Self>, lane: Lane, owner: Owner, table: Arc<str>) -> Pending {
        let id = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (grant, granted) = oneshot::channel();
        if let Ok(mut lanes) = self.lanes.lock() {
            let state = &mut lanes[lane.index()];
            state.push(&owner, &table, Waiter { id, grant });
            state.dispatch();
        }
        Pending {
            thinking: self.clone(),
            lane,
            owner: Some(owner),
            id,
            granted,
        }
    }

    /// A place for one more hint request of `client` (waiting or running),
    /// held until dropped.
    pub fn hint_place(&self, client: IpAddr) -> Result<Held<IpAddr>, Refused> {
        self.hints.take(client).map_err(|full| match full {
            Full::Key => Refused::AddressFull,
            Full::Total => Refused::ServerFull,
        })
    }

    /// Slots taken and pieces waiting in `lane`.
    pub fn load(&self, lane: Lane) -> (usize, usize) {
        self.lanes
            .lock()
            .map(|lanes| {
                let state = &lanes[lane.index()];
                let waiting = state
                    .owners
                    .values()
                    .flat_map(|o| o.tables.iter())
                    .map(|q| q.waiting.len())
                    .sum();
                (state.running, waiting)
            })
            .unwrap_or((0, 0))
    }

    fn release(&self, lane: Lane, owner: &Owner) {
        if let Ok(mut lanes) = self.lanes.lock() {
            lanes[lane.index()].release(owner);
        }
    }

    fn cancel(&self, lane: Lane, owner: &Owner, id: u64) {
        if let Ok(mut lanes) = self.lanes.lock() {
            let state = &mut lanes[lane.index()];
            if !state.cancel(owner, id) {
                // Granted as it went away: give the slot on.
                state.release(owner);
            }
        }
    }
}

/// A piece of thinking in the queue (it leaves the queue when dropped).
pub struct Pending {
    thinking: Arc<Thinking>,
    lane: Lane,
    owner: Option<Owner>,
    id: u64,
    granted: oneshot::Receiver<()>,
}

impl Pending {
    /// Waits for the slot.
    pub async fn slot(mut self) -> Result<Slot, Refused> {
        match (&mut self.granted).await {
            Ok(()) => Ok(self.into_slot()),
            Err(_) => Err(Refused::Closed),
        }
    }

    /// The slot, if it was granted already.
    pub fn try_slot(&mut self) -> Option<Slot> {
        match self.granted.try_recv() {
            Ok(()) => {
                let slot = Slot {
                    thinking: self.thinking.clone(),
                    lane: self.lane,
                    owner: self.owner.take()?,
                };
                Some(slot)
            }
            Err(_) => None,
        }
    }

    fn into_slot(mut self) -> Slot {
        Slot {
            thinking: self.thinking.clone(),
            lane: self.lane,
            // Taken here only: `slot` consumes the pending once.
            owner: self.owner.take().unwrap_or(Owner::Table(Arc::from(""))),
        }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(owner) = self.owner.take() {
            self.thinking.cancel(self.lane, &owner, self.id);
        }
    }
}

/// A slot of a lane, given back when dropped.
pub struct Slot {
    thinking: Arc<Thinking>,
    lane: Lane,
    owner: Owner,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.thinking.release(self.lane, &self.owner);
    }
}

/// Failed attempts at an AI move, and the pause before the next.
#[derive(Debug)]
pub struct Attempts {
    failures: u32,
    max: u32,
    first_pause: Duration,
}

impl Attempts {
    /// At most `max` failures, pausing `first_pause` after the first and
    /// twice as long after each next one.
    pub fn new(max: u32, first_pause: Duration) -> Self {
        Attempts {
            failures: 0,
            max: max.max(1),
            first_pause,
        }
    }

    /// Counts a failure: the pause before trying again, or `None` when
    /// this was the last attempt allowed.
    pub fn failed(&mut self) -> Option<Duration> {
        self.failures += 1;
        if self.failures >= self.max {
            return None;
        }
        Some(self.first_pause * 2u32.saturating_pow(self.failures - 1))
    }

    /// The failures counted so far.
    pub fn failures(&self) -> u32 {
        self.failures
    }
}

#[cfg(test)]
mod tests;
