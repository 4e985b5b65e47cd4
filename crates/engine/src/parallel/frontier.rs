//! The workers' shared frontier: the subtrees given away and not yet
//! taken, and the stop.
//!
//! One mutex guards the list, taken only to give or take a subtree (one
//! per `Config::subtree_runs` runs of a subtree at most), so contention
//! stays low. The search is over when the list is empty and no
//! worker holds a subtree: the last worker to finish one wakes the
//! waiting ones.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

use crate::search::shared::{Frontier, WorkItem};
use crate::suite::StopReason;

#[derive(Default)]
struct State {
    items: Vec<WorkItem>,
    /// Workers holding a subtree.
    busy: usize,
}

/// See the module doc.
#[derive(Default)]
pub(super) struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    stop: AtomicBool,
    /// Why a worker stopped the search (its time limit), if one did.
    why: Mutex<Option<StopReason>>,
}

impl Shared {
    pub fn with_root() -> Shared {
        let shared = Shared::default();
        shared.lock().items.push(WorkItem::root());
        shared
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A worker that panicked left the list whole (each change is one
        // push or one removal).
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The shallowest open subtree, once there is one; `None` when the
    /// search is over or stopped. The caller holds it until
    /// [`Shared::finished`].
    pub fn take(&self) -> Option<WorkItem> {
        let mut state = self.lock();
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return None;
            }
            if let Some(at) = (0..state.items.len()).min_by_key(|&i| state.items[i].depth) {
                let item = state.items.swap_remove(at);
                state.busy += 1;
                return Some(item);
            }
            if state.busy == 0 {
                return None;
            }
            state = self.wake.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// The subtree taken last by a worker is explored.
    pub fn finished(&self) {
        let mut state = self.lock();
        state.busy -= 1;
        if state.busy == 0 && state.items.is_empty() {
            self.wake.notify_all();
        }
    }

    /// Stop every worker because one stopped for `why` (the first reason
    /// given is kept).
    pub fn stop_because(&self, why: StopReason) {
        self.why.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(why);
        self.stop();
    }

    /// Why a worker stopped the search, if one did.
    pub fn why(&self) -> Option<StopReason> {
        self.why.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Stop every worker at its next step.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        let _state = self.lock();
        self.wake.notify_all();
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
}

impl Frontier for Shared {
    fn give(&self, item: WorkItem) {
        let mut state = self.lock();
        state.items.push(item);
        drop(state);
        self.wake.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_ends_when_nothing_is_open_and_nobody_works() {
        let shared = Shared::with_root();
        let root = shared.take().expect("the root");
        assert!(root.inputs.is_none());
        let gift =
            |depth| WorkItem { inputs: Some(Default::default()), done: vec![true; 3], depth, ..WorkItem::root() };
        shared.give(gift(2));
        shared.give(gift(1));
        // The shallowest first.
        assert_eq!(shared.take().map(|i| i.depth), Some(1));
        shared.finished();
        assert_eq!(shared.take().map(|i| i.depth), Some(2));
        shared.finished();
        shared.finished();
        assert!(shared.take().is_none());
    }

    #[test]
    fn a_waiting_worker_gets_a_gift_or_the_end() {
        let shared = Shared::with_root();
        let _root = shared.take();
        std::thread::scope(|s| {
            let waiter = s.spawn(|| shared.take().map(|i| i.depth));
            // Time for the waiter to block (it gets the same answer if not).
            std::thread::sleep(std::time::Duration::from_millis(50));
            shared.give(WorkItem { inputs: Some(Default::default()), done: vec![false], depth: 0, ..WorkItem::root() });
            assert_eq!(waiter.join().unwrap(), Some(0));
        });
        shared.finished();
        std::thread::scope(|s| {
            let waiter = s.spawn(|| shared.take());
            // Time for the waiter to block (it gets the same answer if not).
            std::thread::sleep(std::time::Duration::from_millis(50));
            shared.finished();
            assert!(waiter.join().unwrap().is_none());
        });
    }
}
