//! One value per ply from the search's root, pushed as a move is made and
//! popped as it is taken back: how the incremental parts of the evaluation
//! (the network's accumulators, the hand-crafted material sums) follow the
//! search.

/// A stack of per-ply values, allocated once (keep one per search thread);
/// pushing allocates only past its capacity.
#[derive(Clone, Debug)]
pub struct PlyStack<T> {
    slots: Vec<T>,
    top: usize,
}

impl<T: Clone + Default> PlyStack<T> {
    /// A stack for searches up to `plies` deep (deeper still works: it grows).
    pub fn new(plies: usize) -> PlyStack<T> {
        PlyStack {
            slots: vec![T::default(); plies.max(1)],
            top: 0,
        }
    }

    /// Back to the root, whose value `root` writes.
    pub fn reset(&mut self, root: impl FnOnce(&mut T)) {
        self.top = 0;
        root(&mut self.slots[0]);
    }

    /// One ply deeper: `child` writes the new value from its parent's.
    #[inline]
    pub fn push(&mut self, child: impl FnOnce(&T, &mut T)) {
        if self.top + 1 == self.slots.len() {
            self.slots.push(T::default());
        }
        let (done, next) = self.slots.split_at_mut(self.top + 1);
        child(&done[self.top], &mut next[0]);
        self.top += 1;
    }

    /// Back to the parent ply. Popping the root does nothing.
    #[inline]
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// The current ply's value.
    #[inline]
    pub fn current(&self) -> &T {
        &self.slots[self.top]
    }

    /// The current ply's value, to change.
    #[inline]
    pub fn current_mut(&mut self) -> &mut T {
        &mut self.slots[self.top]
    }

    /// The value at `ply` (0 is the root; at most [`PlyStack::ply`]).
    #[inline]
    pub fn get(&self, ply: usize) -> &T {
        &self.slots[ply]
    }

    /// The value at `ply` (at least 1, at most [`PlyStack::ply`]), to
    /// write, with its parent's, to read.
    #[inline]
    pub fn parent_and_child(&mut self, ply: usize) -> (&T, &mut T) {
        let (done, next) = self.slots.split_at_mut(ply);
        (&done[ply - 1], &mut next[0])
    }

    /// How many plies it holds without growing.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Plies above the root.
    pub fn ply(&self) -> usize {
        self.top
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_pop_and_grow() {
        let mut stack: PlyStack<u32> = PlyStack::new(1);
        stack.reset(|root| *root = 10);
        stack.push(|parent, child| *child = parent + 1);
        stack.push(|parent, child| *child = parent * 2);
        assert_eq!((*stack.current(), stack.ply()), (22, 2));
        assert!(stack.capacity() >= 3);
        assert_eq!((*stack.get(0), *stack.get(1)), (10, 11));
        let (parent, child) = stack.parent_and_child(2);
        *child = parent * 3;
        assert_eq!(*stack.current(), 33);
        stack.pop();
        assert_eq!(*stack.current(), 11);
        stack.pop();
        stack.pop();
        assert_eq!((*stack.current(), stack.ply()), (10, 0));
    }
}
