//! What every reader produces and what the plan and the writer consume:
//! [`Event`]s (with [`Trivia`] for comments and blank lines), the
//! [`Source`] trait a reader implements, and the [`Shapes`] a skim
//! reports. Shared by the JSON tokenizer, the YAML reader and everything
//! downstream, so it sits in a file of its own below them.

use super::text::Text;
use crate::error::Fault;

/// One step of a document, in document order. `T` is what the source
/// keeps besides data ([`Trivia`] for a YAML reader); the JSON reader has
/// none, so its `T` is uninhabited and the `Trivia` case costs nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Event<'a, T = Trivia<'a>> {
    /// A map opens: the members follow as `Key` then value, until `MapEnd`.
    MapStart,
    MapEnd,
    /// A list opens: the elements follow until `ListEnd`.
    ListStart,
    ListEnd,
    /// A map key, always a string, as it is spelled in the input.
    Key(Text<'a>),
    /// A string value, as it is spelled in the input.
    Str(Text<'a>),
    /// A number, as text in JSON's number grammar (RFC 8259 §6), which the
    /// source has checked (a dialect with other spellings, such as YAML's
    /// `0x1F` or `.5`, normalises them first), and whether it has an
    /// exponent part.
    Number {
        text: &'a str,
        exponent: bool,
    },
    Bool(bool),
    Null,
    /// Not data: a comment or a blank line, where the source placed it
    /// (the JSON source never produces it).
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))] // The YAML reader needs alloc.
    Trivia(T),
}

/// What a source may keep besides data, as [`Event::Trivia`], placed by
/// the source (SPEC-YAML.md §3): the emitter writes each where it comes.
/// Never produced by JSON. A list that holds any directly (not inside an
/// element's brackets) is not cuddled.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(not(feature = "alloc"), allow(dead_code))] // The YAML reader needs alloc.
pub(crate) enum Trivia<'a> {
    /// A comment on its own line, before what comes next: a member, an
    /// element or a closing bracket (at its items' indentation), or the
    /// document's root. The text is what follows `#`.
    Comment(&'a str),
    /// A comment after the document's root, on its own line.
    DocumentFoot(&'a str),
    /// A comment at the end of the line of the value just written (after
    /// its comma).
    LineComment(&'a str),
    /// A blank line before what comes next.
    BlankLine,
}

impl From<core::convert::Infallible> for Trivia<'_> {
    fn from(never: core::convert::Infallible) -> Self {
        match never {}
    }
}

/// A reader of one input dialect, as the plan and the writing loop see it.
///
/// A source is a cursor: cloning it saves a place that reading can go back
/// to ([`Source::at`] starts afresh at a byte offset). Positions are byte
/// offsets into the input; errors carry them.
///
/// Events are lent: the texts of an event from [`Source::next_event`]
/// (keys, strings, numbers) borrow the source and are valid until the
/// next call that moves it. A source may so decode a text (a folded or
/// escaped YAML scalar, a converted key, a normalised number) into a
/// scratch buffer of its own, reused for the next event, and need no store
/// that lives as long as the input; the JSON [`Tokenizer`](super::Tokenizer)
/// just lends its input spans. A caller that keeps a text across events
/// copies it. Comments ([`Source::Trivia`]) are spans of the input in every
/// dialect, so they keep the input's `'a`. While an event is alive the
/// source cannot be asked anything: a caller that needs
/// [`Source::token_start`] or [`Source::depth`] with a text asks after it
/// is done with the text (the writing loop and the plan do).
pub(crate) trait Source<'a>: Clone {
    /// What [`Event::Trivia`] carries: [`Trivia`], or for a dialect
    /// without comments an uninhabited type.
    type Trivia: Copy + Into<Trivia<'a>>;

    /// A key read again by [`Source::key_at`]: something that holds the
    /// key's [`Text`] as long as it lives, so that the duplicate check can
    /// hold two at once and compare them. The JSON tokenizer's is a
    /// `Text<'a>` of its input; a source that decodes keys into a scratch
    /// buffer may return one that owns its decoded text.
    type KeyText: AsText;

    /// Moves past anything between documents and says whether another
    /// document follows; if so, the next events are its.
    fn next_document(&mut self) -> Result<bool, Fault>;

    /// Where the next document would start, and whether there is one,
    /// without moving.
    fn peek_document(&self) -> Result<(usize, bool), Fault>;

    /// The next event of the current document, checked, or `None` once the
    /// document is complete.
    fn next_event(&mut self) -> Result<Option<Event<'_, Self::Trivia>>, Fault>;

    /// A reader of the same input at `pos`, before a value there: to read a
    /// document again from where it started.
    fn at(&self, pos: usize) -> Self;

    /// The byte offset just past the last event.
    fn pos(&self) -> usize;

    /// The byte offset where the last event starts (a key's errors point
    /// there).
    fn token_start(&self) -> usize;

    /// How many containers are open.
    fn depth(&self) -> usize;

    /// Asked right after a [`Event::ListStart`]: whether the list's first
    /// element is a container (so that it may be cuddled).
    fn list_starts_with_container(&self) -> bool;

    /// Asked right after a [`Event::ListStart`]: looks over that list to its
    /// end without checking it (the input may be invalid; the shapes are
    /// then exact up to the first error), telling `shapes` what it holds.
    fn skim_list(&self, shapes: &mut impl Shapes);

    /// Goes back to `mark`, a clone of this source saved just after a
    /// [`Event::ListStart`] earlier in the current document (a lost bet),
    /// and skims that list as [`Source::skim_list`] does. A source may keep
    /// what the skim reads, so that reading on from `mark` replays it
    /// rather than reading the input again.
    fn rewind_and_skim(&mut self, mark: Self, shapes: &mut impl Shapes) {
        *self = mark;
        self.skim_list(shapes);
    }

    /// The next comment (or blank line) to write before the current
    /// document's `---` header; after the last document, those of an
    /// input that holds nothing else. Sources without comments have none.
    #[inline(always)]
    fn preamble(&mut self) -> Option<Self::Trivia> {
        None
    }

    /// Whether the current document holds no value (a YAML document that is
    /// empty or only comments): it is written as its header and comments,
    /// not as `null` (SPEC-YAML.md §2). JSON documents always hold one.
    #[inline(always)]
    fn document_is_empty(&self) -> bool {
        false
    }

    /// The key whose [`Event::Key`] started at `pos` (a
    /// [`Source::token_start`] of this input, read before), independent
    /// of the source: it may outlive later events.
    fn key_at(&self, pos: usize) -> Self::KeyText;
}

/// Something that holds a [`Text`]: a [`Source::KeyText`].
pub(crate) trait AsText {
    /// The text held, borrowed for as long as its holder is.
    fn as_text(&self) -> Text<'_>;
}

impl AsText for Text<'_> {
    #[inline(always)]
    fn as_text(&self) -> Text<'_> {
        *self
    }
}

/// What a [`Source::skim_list`] reports, in document order: the containers
/// of a list, and which of its lists hold a scalar element. Depths are
/// those of [`Source::depth`] less one: the outermost container is at 0,
/// the skimmed list at the depth the reader had just after its start.
pub(crate) trait Shapes {
    /// A list opens as the container at `depth`; whether its first
    /// element is a container.
    fn list(&mut self, depth: usize, starts_with_container: bool);
    /// A map opens as the container at `depth`.
    fn map(&mut self, depth: usize);
    /// Whether the open container at `depth` is a list.
    fn is_list(&self, depth: usize) -> bool;
    /// An element after the first of the list at `depth` is a scalar.
    fn scalar_element(&mut self, depth: usize);
}
