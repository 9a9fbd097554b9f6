//! The plan's side of a skim: what a [`Source::skim_list`] reports
//! becomes verdicts, numbered as every other pass numbers lists.
//!
//! [`Source::skim_list`]: crate::scan::Source::skim_list

use super::{ListNumbers, Plan, Store, LIST};
use crate::scan::Shapes;

/// A plan taking in a skim: the lists it reports are numbered from the
/// skimmed list, which is number `base` of the document.
pub(super) struct Skim<'p, 'r, S> {
    pub(super) plan: &'p mut Plan<'r, S>,
    pub(super) lists: ListNumbers,
}

impl<S: Store> Shapes for Skim<'_, '_, S> {
    fn list(&mut self, depth: usize, starts_with_container: bool) {
        let n = self.lists.number(starts_with_container);
        self.plan.open_list(depth, n);
    }

    fn map(&mut self, depth: usize) {
        *self.plan.frames.get_mut(depth) = 0;
    }

    fn is_list(&self, depth: usize) -> bool {
        self.plan.frames.get(depth) & LIST != 0
    }

    fn scalar_element(&mut self, depth: usize) {
        let frame = self.plan.frames.get(depth);
        self.plan.set_verdict((frame & !LIST) as usize, false);
    }
}
