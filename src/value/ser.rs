//! The `serde::Serializer` that drives the emitter: each call of a value's
//! `Serialize` is one emitter event, written at once into a [`TextBuf`]
//! (the bytes of a `String`).
//!
//! It makes the checks the two-step route (serde_json's text, then the
//! JSON reader) makes, in the same places: serde_json's (map keys that
//! are not strings, numbers, booleans or unit variants; non-finite float
//! keys) fail at once, as serde_json does; the reader's (a key twice in one
//! map, containers nested past the depth limit) are noted, writing stops,
//! and they are reported only if the rest of the value serializes, as the
//! reader only ever sees a value serde_json wrote completely.
//!
//! A list is cuddled (`[{`…`}, {`…`}]`) only if every element is a
//! container, which only its end shows, and a `Serialize` cannot be read
//! twice from a saved place as input text can. So the first pass bets
//! that a list that starts with a container holds only containers, and
//! notes each list (by its number in document order, as
//! `plan::ListNumbers` numbers them) that loses the bet; if any did, the
//! output is taken back and a second pass writes with those verdicts,
//! which are then exact. Nearly all values never need the second pass.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use serde::ser::{self, Impossible, Serialize};

use super::error::Error;
use super::number::{f32_text, f64_text, integer_text, push_display, Spelling};
use crate::emit::{Emitter, Room, TextBuf};
use crate::error::ErrorKind;
use crate::options::Options;
use crate::scan::{KeyId, Text};

/// `serialize_i8` to `_i32` and `serialize_u8` to `_u32` of a
/// `Serializer` through its 64-bit kin: serde_json writes them alike.
macro_rules! narrow_integers_as_64_bit {
    () => {
        narrow_integers_as_64_bit!(
            serialize_i8: i8, serialize_i16: i16, serialize_i32: i32 => serialize_i64;
            serialize_u8: u8, serialize_u16: u16, serialize_u32: u32 => serialize_u64
        );
    };
    ($($($narrow:ident: $t:ty),* => $wide:ident);*) => {$($(
        fn $narrow(self, v: $t) -> Result<(), Error> {
            self.$wide(v.into())
        }
    )*)*};
}

/// `Some(value)` and a newtype struct, of a `Serializer`, as the value
/// inside: serde_json writes them so.
macro_rules! wrappers_as_their_value {
    () => {
        fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
            value.serialize(self)
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            value: &T,
        ) -> Result<(), Error> {
            value.serialize(self)
        }
    };
}

/// `Serializer` methods that fail with [`not_a_key`]: the values
/// serde_json refuses as map keys.
macro_rules! refused_as_keys {
    ($(fn $name:ident$(<$t:ident>)?($($arg:ty),*) -> $ok:ty;)*) => {$(
        fn $name$(<$t: Serialize + ?Sized>)?(self $(, _: $arg)*) -> Result<$ok, Error> {
            Err(not_a_key())
        }
    )*};
}

/// The lists (by number) that the first pass found to hold a scalar after
/// a container: the second pass writes them uncuddled.
#[derive(Default)]
pub(super) struct Verdicts {
    /// One bit per list number.
    scalar_lists: Vec<u64>,
}

impl Verdicts {
    fn set(&mut self, n: usize) {
        let word = n / 64;
        if self.scalar_lists.len() <= word {
            self.scalar_lists.resize(word + 1, 0);
        }
        self.scalar_lists[word] |= 1 << (n % 64);
    }

    fn holds_scalar(&self, n: usize) -> bool {
        self.scalar_lists
            .get(n / 64)
            .is_some_and(|w| w & (1 << (n % 64)) != 0)
    }

    /// Whether any list lost its bet.
    pub(super) fn any(&self) -> bool {
        !self.scalar_lists.is_empty()
    }
}

/// An open container.
enum OpenContainer {
    /// A map, with where its keys start in [`Writer::keys`] and
    /// [`Writer::key_ends`].
    Map { first_key: usize, text_start: usize },
    /// A list and its number, if it starts with a container.
    List { number: Option<usize> },
}

/// Writes one value through an [`Emitter`] into a [`TextBuf`].
pub(super) struct Writer<'e, 'v> {
    emitter: Emitter<'e, &'e mut TextBuf>,
    frames: Vec<OpenContainer>,
    /// A list has opened and its `[` waits for its first element (or its
    /// end), which decides whether it is cuddled.
    pending_list: bool,
    max_depth: usize,
    compact: bool,
    /// The number the next list that starts with a container gets.
    next_list: usize,
    verdicts: &'v mut Verdicts,
    /// First pass: lists bet on being cuddled, and `verdicts` collects the
    /// lost bets. Second pass: `verdicts` decides.
    betting: bool,
    /// The texts of the keys of the open maps, one after another.
    keys: String,
    /// Where each of those keys ends in `keys`, and its hash (from its
    /// [`KeyId`]), which is compared first.
    key_ends: Vec<(usize, u64)>,
    /// Room to sort the keys of a large map by hash.
    by_hash: Vec<(u64, usize)>,
    /// Room for the text of a 128-bit integer.
    digits: String,
    /// The reader's error the two-step route would report, once the value
    /// has serialized; nothing more is written after it.
    fault: Option<Error>,
}

/// Writes `value` through a [`Writer`]: `Ok`, or the error (the value's own first).
pub(super) fn write<T: Serialize + ?Sized>(
    value: &T,
    opts: Options,
    out: &mut TextBuf,
    verdicts: &mut Verdicts,
    betting: bool,
) -> Result<(), Error> {
    let mut room = Room::default();
    let mut writer = Writer {
        emitter: Emitter::new(out, opts, &mut room),
        // Room for small values at once, not grown step by step.
        frames: Vec::with_capacity(8),
        pending_list: false,
        max_depth: opts.depth_limit(),
        compact: opts.compact_layout(),
        next_list: 0,
        verdicts,
        betting,
        keys: String::with_capacity(128),
        key_ends: Vec::with_capacity(16),
        by_hash: Vec::new(),
        digits: String::new(),
        fault: None,
    };
    writer.emitter.begin_document().map_err(sink_failed)?;
    value.serialize(&mut writer)?;
    if let Some(fault) = writer.fault {
        return Err(fault);
    }
    writer.emitter.end_document(false).map_err(sink_failed)
}

fn sink_failed(_: fmt::Error) -> Error {
    Error::new(ErrorKind::Write, "the output sink failed")
}

impl Writer<'_, '_> {
    /// Whether a fault has stopped the writing.
    #[inline(always)]
    fn stopped(&self) -> bool {
        self.fault.is_some()
    }

    /// Before a value: opens a list that waited for its first element, and
    /// in the first pass notes a list that bet on containers and got a
    /// scalar.
    #[inline(always)]
    fn element(&mut self, container: bool) -> fmt::Result {
        if self.pending_list {
            self.pending_list = false;
            let number = (container && !self.compact).then(|| {
                self.next_list += 1;
                self.next_list - 1
            });
            if let Some(OpenContainer::List { number: n }) = self.frames.last_mut() {
                *n = number;
            }
            let cuddled = number.is_some_and(|n| self.betting || !self.verdicts.holds_scalar(n));
            if !self.stopped() {
                self.emitter.list_start(cuddled)?;
            }
        } else if !container && self.betting {
            if let Some(&OpenContainer::List { number: Some(n) }) = self.frames.last() {
                self.verdicts.set(n);
            }
        }
        Ok(())
    }

    /// Opens a map or a list (whose `[` waits for its first element).
    fn open(&mut self, list: bool) -> Result<(), Error> {
        self.element(true).map_err(sink_failed)?;
        if self.frames.len() >= self.max_depth && !self.stopped() {
            self.fault = Some(Error::new(ErrorKind::TooDeep, "fewer nested containers"));
        }
        if list {
            self.frames.push(OpenContainer::List { number: None });
            self.pending_list = true;
            return Ok(());
        }
        self.frames.push(OpenContainer::Map {
            first_key: self.key_ends.len(),
            text_start: self.keys.len(),
        });
        if !self.stopped() {
            self.emitter.map_start().map_err(sink_failed)?;
        }
        Ok(())
    }

    /// Closes the innermost container; a map's keys are checked for
    /// duplicates first.
    fn close(&mut self) -> Result<(), Error> {
        if self.pending_list {
            // An empty list.
            self.pending_list = false;
            if !self.stopped() {
                self.emitter.list_start(false).map_err(sink_failed)?;
            }
        }
        if let Some(OpenContainer::Map {
            first_key,
            text_start,
        }) = self.frames.pop()
        {
            if !self.stopped() {
                self.check_keys(first_key, text_start);
            }
            self.keys.truncate(text_start);
            self.key_ends.truncate(first_key);
        }
        if self.stopped() {
            return Ok(());
        }
        self.emitter.end().map_err(sink_failed)
    }

    /// Notes a duplicate among the keys of the map that is closing.
    fn check_keys(&mut self, first_key: usize, text_start: usize) {
        let ends = &self.key_ends[first_key..];
        let key = |i: usize| {
            let start = if i == 0 { text_start } else { ends[i - 1].0 };
            &self.keys[start..ends[i].0]
        };
        let same = |i: usize, j: usize| ends[i].1 == ends[j].1 && key(i) == key(j);
        let duplicate = if ends.len() <= 16 {
            (1..ends.len()).find_map(|i| (0..i).find(|&j| same(i, j)).map(|_| key(i)))
        } else {
            // Sorted by hash (plain integers): only keys in a run of one
            // hash can be equal.
            let by_hash = &mut self.by_hash;
            by_hash.clear();
            by_hash.extend(ends.iter().enumerate().map(|(i, &(_, hash))| (hash, i)));
            by_hash.sort_unstable();
            by_hash
                .chunk_by(|a, b| a.0 == b.0)
                .filter(|run| run.len() > 1)
                .find_map(|run| {
                    let same_in_run = |&(_, i): &(u64, usize)| {
                        run.iter().any(|&(_, j)| j < i && key(j) == key(i))
                    };
                    run.iter().find(|k| same_in_run(k)).map(|&(_, i)| key(i))
                })
        };
        if let Some(k) = duplicate {
            self.fault = Some(Error::duplicate_key(k));
        }
    }

    /// Writes a map key: `key` as serde_json would write it as one.
    fn key<K: Serialize + ?Sized>(&mut self, key: &K) -> Result<(), Error> {
        let start = self.keys.len();
        key.serialize(KeyWriter(&mut self.keys))?;
        if self.stopped() {
            self.keys.truncate(start);
            return Ok(());
        }
        let text = Text::verbatim(&self.keys[start..]);
        let id = KeyId::of(&text);
        self.key_ends.push((self.keys.len(), id.hash));
        self.emitter.key(&text, &id).map_err(sink_failed)
    }

    /// Writes a string value.
    fn string(&mut self, s: &str) -> Result<(), Error> {
        self.element(false).map_err(sink_failed)?;
        if self.stopped() {
            return Ok(());
        }
        self.emitter.string(&Text::verbatim(s)).map_err(sink_failed)
    }

    /// Writes a number already in KYAML's number form, in one write.
    fn number(&mut self, text: &str) -> Result<(), Error> {
        self.element(false).map_err(sink_failed)?;
        if self.stopped() {
            return Ok(());
        }
        self.emitter.number(text, false).map_err(sink_failed)
    }

    /// A 128-bit integer, through `Display`.
    fn wide_integer(&mut self, n: impl fmt::Display) -> Result<(), Error> {
        let mut digits = core::mem::take(&mut self.digits);
        digits.clear();
        push_display(&mut digits, n);
        let result = self.number(&digits);
        self.digits = digits;
        result
    }

    /// Writes `true`, `false` or `null`.
    fn word(&mut self, word: &str) -> Result<(), Error> {
        self.element(false).map_err(sink_failed)?;
        if self.stopped() {
            return Ok(());
        }
        self.emitter.bool_or_null(word).map_err(sink_failed)
    }

    fn integer(&mut self, negative: bool, n: u64) -> Result<(), Error> {
        self.number(integer_text(negative, n).as_str())
    }
}

/// A compound value being written: a list or map, and whether closing it
/// closes the map of an enum variant around it too.
pub(super) struct Compound<'w, 'e, 'v> {
    writer: &'w mut Writer<'e, 'v>,
    in_variant: bool,
}

impl<'w, 'e, 'v> Compound<'w, 'e, 'v> {
    /// Opens a list or a map, inside `{variant: ` for an enum variant (as
    /// every enum representation serde_json writes).
    fn open(
        writer: &'w mut Writer<'e, 'v>,
        variant: Option<&'static str>,
        list: bool,
    ) -> Result<Self, Error> {
        if let Some(variant) = variant {
            writer.open(false)?;
            writer.key(variant)?;
        }
        writer.open(list)?;
        Ok(Compound {
            writer,
            in_variant: variant.is_some(),
        })
    }

    fn end(self) -> Result<(), Error> {
        self.writer.close()?;
        if self.in_variant {
            self.writer.close()?;
        }
        Ok(())
    }
}

impl<'w, 'e, 'v> ser::Serializer for &'w mut Writer<'e, 'v> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'w, 'e, 'v>;
    type SerializeTuple = Compound<'w, 'e, 'v>;
    type SerializeTupleStruct = Compound<'w, 'e, 'v>;
    type SerializeTupleVariant = Compound<'w, 'e, 'v>;
    type SerializeMap = Compound<'w, 'e, 'v>;
    type SerializeStruct = Compound<'w, 'e, 'v>;
    type SerializeStructVariant = Compound<'w, 'e, 'v>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.word(if v { "true" } else { "false" })
    }
    narrow_integers_as_64_bit!();
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.integer(v < 0, v.unsigned_abs())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.wide_integer(v)
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.integer(false, v)
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.wide_integer(v)
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if !v.is_finite() {
            // serde_json writes NaN and the infinities as `null`.
            return self.word("null");
        }
        self.number(f32_text(v, Spelling::Kyaml).as_str())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        if !v.is_finite() {
            return self.word("null");
        }
        self.number(f64_text(v, Spelling::Kyaml).as_str())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.string(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.string(v)
    }
    /// A list of numbers, as serde_json writes bytes.
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.open(true)?;
        for &b in v {
            self.integer(false, b.into())?;
        }
        self.close()
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.word("null")
    }
    wrappers_as_their_value!();
    fn serialize_unit(self) -> Result<(), Error> {
        self.word("null")
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        self.word("null")
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.string(variant)
    }
    /// `{variant: value}`, as every enum representation serde_json writes.
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.open(false)?;
        self.key(variant)?;
        value.serialize(&mut *self)?;
        self.close()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'w, 'e, 'v>, Error> {
        Compound::open(self, None, true)
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'w, 'e, 'v>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        len: usize,
    ) -> Result<Compound<'w, 'e, 'v>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'w, 'e, 'v>, Error> {
        Compound::open(self, Some(variant), true)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'w, 'e, 'v>, Error> {
        Compound::open(self, None, false)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'w, 'e, 'v>, Error> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'w, 'e, 'v>, Error> {
        Compound::open(self, Some(variant), false)
    }
    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<(), Error> {
        let mut text = String::new();
        let _ = write!(text, "{value}");
        self.string(&text)
    }
}

/// The `Serialize*` impls of [`Compound`] for lists: each element is
/// written as it comes.
macro_rules! compound_of_elements {
    ($($trait:ident::$method:ident),*) => {$(
        impl ser::$trait for Compound<'_, '_, '_> {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                value.serialize(&mut *self.writer)
            }
            fn end(self) -> Result<(), Error> {
                Compound::end(self)
            }
        }
    )*};
}

compound_of_elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// The `Serialize*` impls of [`Compound`] for structs: each field is its
/// key and then its value.
macro_rules! compound_of_fields {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Compound<'_, '_, '_> {
            type Ok = ();
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Error> {
                self.writer.key(key)?;
                value.serialize(&mut *self.writer)
            }
            fn end(self) -> Result<(), Error> {
                Compound::end(self)
            }
        }
    )*};
}

compound_of_fields!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.writer.key(key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.writer)
    }
    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

/// Appends a map key's text to a `String`, under serde_json's rules: a
/// string, a `char`, a unit variant (its name), an integer, a finite float
/// or a boolean (their JSON text), or a newtype or `Some` of one.
struct KeyWriter<'k>(&'k mut String);

fn not_a_key() -> Error {
    Error::new(ErrorKind::Data, "key must be a string")
}

impl KeyWriter<'_> {
    fn text(self, s: &str) -> Result<(), Error> {
        self.0.push_str(s);
        Ok(())
    }

    fn finite(finite: bool) -> Result<(), Error> {
        match finite {
            true => Ok(()),
            false => Err(Error::new(
                ErrorKind::Data,
                "float key must be finite (got NaN or +/-inf)",
            )),
        }
    }
}

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.text(if v { "true" } else { "false" })
    }
    narrow_integers_as_64_bit!();
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.0
            .push_str(integer_text(v < 0, v.unsigned_abs()).as_str());
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        push_display(self.0, v);
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.0.push_str(integer_text(false, v).as_str());
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        push_display(self.0, v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        KeyWriter::finite(v.is_finite())?;
        self.0.push_str(f32_text(v, Spelling::Json).as_str());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        KeyWriter::finite(v.is_finite())?;
        self.0.push_str(f64_text(v, Spelling::Json).as_str());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.text(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.text(v)
    }
    wrappers_as_their_value!();
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.text(variant)
    }
    refused_as_keys! {
        fn serialize_bytes(&[u8]) -> ();
        fn serialize_none() -> ();
        fn serialize_unit() -> ();
        fn serialize_unit_struct(&'static str) -> ();
        fn serialize_newtype_variant<T>(&'static str, u32, &'static str, &T) -> ();
        fn serialize_seq(Option<usize>) -> Impossible<(), Error>;
        fn serialize_tuple(usize) -> Impossible<(), Error>;
        fn serialize_tuple_struct(&'static str, usize) -> Impossible<(), Error>;
        fn serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Impossible<(), Error>;
        fn serialize_map(Option<usize>) -> Impossible<(), Error>;
        fn serialize_struct(&'static str, usize) -> Impossible<(), Error>;
        fn serialize_struct_variant(&'static str, u32, &'static str, usize) -> Impossible<(), Error>;
    }
    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<(), Error> {
        let _ = write!(self.0, "{value}");
        Ok(())
    }
}
