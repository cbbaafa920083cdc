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
        stack.pop();
        assert_eq!(*stack.current(), 11);
        stack.pop();
        stack.pop();
        assert_eq!((*stack.current(), stack.ply()), (10, 0));
    }
}
