//! The settling rules ([`Settle`]), one walk each: what the driver reads,
//! and the records as attached where the walk reaches them. End to end,
//! where comments go is tested in tests/fmt.rs.

use alloc::vec::Vec;

use super::{Settle, Step};
use crate::scan::Trivia::{self, BlankLine, Comment, DocumentFoot, LineComment};

/// One thing met on a walk: an item, or a record at its slot.
enum Met {
    Item(Step),
    Record(usize, Trivia<'static>),
}
use Met::{Item, Record};

fn settled(empty: bool, walk: &[Met]) -> Vec<(usize, Trivia<'static>)> {
    let mut settle = Settle::new(walk.len());
    settle.document(empty);
    for met in walk {
        match *met {
            Item(step) => settle.item(step),
            Record(slot, trivia) => settle.record(slot, trivia),
        }
    }
    settle.out
}

#[test]
fn a_blank_line_between_two_items_is_kept_once() {
    let walk = [
        Item(Step::Open),
        Item(Step::Key),
        Item(Step::Scalar),
        Record(3, BlankLine),
        Record(3, BlankLine),
        Item(Step::Key),
    ];
    assert_eq!(settled(false, &walk), [(3, BlankLine)]);
}

#[test]
fn no_blank_line_before_a_closing_bracket_or_at_the_end() {
    let before_close = [
        Item(Step::Open),
        Item(Step::Scalar),
        Record(2, BlankLine),
        Item(Step::Close),
    ];
    assert_eq!(settled(false, &before_close), []);
    let at_end = [Item(Step::Scalar), Record(1, BlankLine)];
    assert_eq!(settled(false, &at_end), []);
}

#[test]
fn no_blank_line_right_after_an_opening_bracket() {
    let walk = [
        Item(Step::Open),
        Record(1, BlankLine),
        Record(1, Comment(" c")),
        Item(Step::Key),
    ];
    assert_eq!(settled(false, &walk), [(1, Comment(" c"))]);
    // After a comment inside the brackets, it separates two things.
    let walk = [
        Item(Step::Open),
        Record(1, Comment(" c")),
        Record(1, BlankLine),
        Item(Step::Key),
    ];
    assert_eq!(settled(false, &walk), [(1, Comment(" c")), (1, BlankLine)]);
}

#[test]
fn a_line_comment_stays_one_only_right_after_its_value() {
    let walk = [
        Item(Step::Open),
        Item(Step::Key),
        Item(Step::Scalar),
        Record(3, LineComment(" a")),
        Item(Step::Key),
        Record(4, LineComment(" b")),
        Item(Step::Scalar),
        Record(5, Comment(" c")),
        Record(5, LineComment(" d")),
        Item(Step::Close),
        Record(6, LineComment(" e")),
    ];
    assert_eq!(
        settled(false, &walk),
        [
            (3, LineComment(" a")),
            (4, Comment(" b")),
            (5, Comment(" c")),
            (5, Comment(" d")),
            (6, LineComment(" e")),
        ]
    );
    // A blank line between the value and it puts it on a line of its own.
    let walk = [
        Item(Step::Open),
        Item(Step::Scalar),
        Record(2, BlankLine),
        Record(2, LineComment(" a")),
        Item(Step::Close),
    ];
    assert_eq!(settled(false, &walk), [(2, BlankLine), (2, Comment(" a"))]);
}

#[test]
fn a_document_foot_without_a_root_is_an_own_line_comment() {
    assert_eq!(
        settled(true, &[Record(0, DocumentFoot(" f"))]),
        [(0, Comment(" f"))]
    );
    let walk = [
        Item(Step::Open),
        Item(Step::Close),
        Record(2, DocumentFoot(" f")),
    ];
    assert_eq!(settled(false, &walk), [(2, DocumentFoot(" f"))]);
}

#[test]
fn each_document_starts_afresh() {
    let mut settle = Settle::new(2);
    settle.document(false);
    settle.item(Step::Scalar);
    settle.record(1, BlankLine);
    assert!(settle.holds_blank());
    settle.document(false);
    assert!(!settle.holds_blank());
    settle.record(0, LineComment(" x"));
    assert_eq!(settle.out, [(0, Comment(" x"))]);
}
