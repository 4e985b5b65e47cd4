//! `<stdio.h>` input: reading the `FILE *` parameters of the function
//! under test ([`pathwise_ir::Shape::Stream`]), as glibc reads a file.
//!
//! A stream's content is an input array of bytes whose length is the
//! file's size, so the search chooses both what the file holds and where
//! it ends. Each read past what the path has read so far asks whether the
//! file has one more byte (`pos < len`): a decision of the path, whose
//! false side is end-of-file. `fgetc`, `getc`, `fgets`, `fread`, `ungetc`,
//! `feof`, `ferror`, `clearerr` and `fclose` are modelled (with their
//! `_unlocked` forms); the tests pass the content through `tmpfile()`, so
//! the code reads a real `FILE`.
//!
//! glibc's behaviour, which the models follow:
//! - end-of-file is sticky (glibc 2.28 and later): once a read has seen
//!   it, every read returns `EOF` until `clearerr` or `ungetc`;
//! - `fgets` stops after a newline or `n - 1` bytes, returns NULL when it
//!   read nothing (the buffer unchanged), and `fgets(s, 1, f)` stores an
//!   empty string;
//! - `fread` of `size * n` bytes copies what the file still holds and
//!   returns the whole items among them;
//! - `ungetc` pushes back one byte (a second push-back before a read is
//!   reported unsupported) and clears end-of-file; `ungetc(EOF, f)` does
//!   nothing;
//! - `fseek` and `rewind` drop a pushed-back byte and clear end-of-file;
//!   a position past the end is allowed (reads there find the end), one
//!   before the start is `EINVAL` (see [`fseek`]); the position is a
//!   number of the run, not a symbolic one, so `SEEK_END` decides the
//!   file's size among 0, 1, 2, ... (a path for each).
//!
//! Reads never fail (`ferror` is 0). The bytes a line or a short `fread`
//! reads are a loop that only the data ends, bounded by k like `strlen`'s;
//! `fgetc` alone is a single decision, bounded by the program's own loop.
//! A `FILE *` that is no parameter of the function under test (a field of
//! an input structure, `stdin`, the result of `fopen`) is reported as
//! unsupported.

use pathwise_expr::BvCmp;
use pathwise_ir::Type;

use super::{at, ByteLoop, Call, Int, LibcHost, Outcome};
use crate::path::End;
use crate::suite::ErrorKind;
use crate::value::{Pointer, Value};

pub(super) const NAMES: &[&str] = &[
    "fgetc",
    "getc",
    "getchar",
    "getchar_unlocked",
    "fgetc_unlocked",
    "getc_unlocked",
    "fgets",
    "fgets_unlocked",
    "fread",
    "fread_unlocked",
    "ungetc",
    "feof",
    "feof_unlocked",
    "ferror",
    "ferror_unlocked",
    "clearerr",
    "clearerr_unlocked",
    "fclose",
    "getline",
    "getdelim",
    "fseek",
    "fseeko",
    "ftell",
    "ftello",
    "rewind",
    "fgetpos",
    "fsetpos",
];

/// `EOF` as the 32-bit `int` the functions return.
const EOF: u64 = 0xFFFF_FFFF;

/// A `FILE *` parameter of the function under test, as the host finds it.
#[derive(Clone, Copy)]
pub(crate) struct InputStream {
    /// The parameter's index.
    pub param: usize,
    /// The first byte of its content.
    pub data: Pointer,
    /// The content's length: the file's size (its expression is the input
    /// array's length variable).
    pub len: Int,
}

/// The end-of-file indicator is set.
const EOF_SEEN: u64 = 1;
/// `fclose` closed the stream.
const CLOSED: u64 = 2;
/// The path has decided that the file ends at `pos`: later reads need
/// no decision.
const AT_END: u64 = 4;
/// The path has used the stream (see [`was_used`]).
const USED: u64 = 8;

/// The state of a stream in this run, kept in a library static object
/// (`STATE_CELLS` cells per parameter) so that callees see what their
/// callers read.
struct State {
    pos: u64,
    flags: u64,
    /// The byte `ungetc` pushed back, if any.
    unget: Option<Int>,
}

const STATE_CELLS: u64 = 4;
/// The name of the library's object holding the streams' states.
const STATE_OBJECT: &str = "pathwise.streams";
/// Parameters beyond this one keep no state (no C function has so many
/// `FILE *` parameters).
const MAX_PARAMS: u64 = 64;

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    let base = c.name.strip_suffix("_unlocked").unwrap_or(c.name);
    let file = match base {
        "getchar" => match stdin(h, c.name) {
            Ok(f) => return Some(run(h, c, "fgetc", f)),
            Err(end) => return Some(Err(end)),
        },
        "fgets" | "getline" => c.ptr(2),
        "fread" | "getdelim" => c.ptr(3),
        "ungetc" => c.ptr(1),
        _ => c.ptr(0),
    };
    Some(run(h, c, base, file))
}

/// The name under which the run keeps `stdin`'s content among the
/// library's objects (see `run::build_memory`).
pub(crate) const STDIN_OBJECT: &str = "pathwise.stdin";
/// The object `stdout` points to (see `run::give_std_streams`).
pub(crate) const STDOUT_OBJECT: &str = "pathwise.stdout";

/// `stdin` for `name` (`getchar`, `scanf`), which reads it without naming
/// it: the standard input is an input of the function under test only.
pub(super) fn stdin(h: &mut dyn LibcHost, name: &str) -> Result<Pointer, End> {
    h.stdin().ok_or_else(|| {
        h.error(
            ErrorKind::Unsupported,
            format!("`{name}` reads the standard input, an input of `gen` only (not of a whole program's run)"),
        )
    })
}

/// Whether the run read (or looked at) stream `param` (`mem` holds the
/// library's `objects`): a test passes `stdin` only when its path did.
pub(crate) fn was_used(
    mem: &crate::memory::Memory,
    objects: &rustc_hash::FxHashMap<String, crate::value::ObjId>,
    param: usize,
) -> bool {
    let Some(&id) = objects.get(STATE_OBJECT) else { return false };
    let flags = mem.read_conc(id, (param as u64 * STATE_CELLS + 1) * 8, Type::I64).unwrap_or(0);
    flags & USED != 0
}

/// A stream read byte by byte with one byte of look-ahead, as `fscanf`
/// reads (see [`super::scan`]): [`open`] it, then [`close`] it to keep
/// its state; a byte looked at and not consumed stays pushed back.
pub(super) struct Cursor {
    s: InputStream,
    st: State,
}

/// The input stream `f` (the `FILE *` argument of `name`) as a cursor.
pub(super) fn open(h: &mut dyn LibcHost, f: Pointer, name: &str) -> Result<Cursor, End> {
    let (s, st) = open_state(h, f, name)?;
    Ok(Cursor { s, st })
}

/// Keep the cursor's position, flags and look-ahead in the stream.
pub(super) fn close(h: &mut dyn LibcHost, c: Cursor) -> Result<(), End> {
    store_state(h, c.s.param, &c.st)
}

impl Cursor {
    /// The next byte, not consumed; `None` at end-of-file (a decision).
    pub(super) fn peek(&mut self, h: &mut dyn LibcHost) -> Result<Option<Int>, End> {
        if let Some(b) = self.st.unget {
            return Ok(Some(b));
        }
        let b = next_byte(h, &self.s, &mut self.st, None)?;
        self.st.unget = b;
        Ok(b)
    }

    /// Consume the byte [`Self::peek`] returned.
    pub(super) fn advance(&mut self) {
        self.st.unget = None;
    }
}

/// Stream `f`'s parameter and state; a closed stream is an error.
fn open_state(h: &mut dyn LibcHost, f: Pointer, name: &str) -> Result<(InputStream, State), End> {
    let s = stream(h, f, name)?;
    let st = load_state(h, s.param)?;
    if st.flags & CLOSED != 0 {
        return Err(h.error(ErrorKind::UseAfterFree, format!("`{name}` on a stream after `fclose`")));
    }
    Ok((s, st))
}

fn run(h: &mut dyn LibcHost, c: &Call<'_>, base: &str, file: Pointer) -> Outcome {
    let (s, mut st) = open_state(h, file, c.name)?;
    let int = |v: u64| Ok(Some(Value::int(v)));
    let out = match base {
        "fgetc" | "getc" => match next_byte(h, &s, &mut st, None)? {
            Some(b) => Ok(Some(b.zext(h.pool(), 32).value())),
            None => int(EOF),
        },
        "fgets" => fgets(h, c, &s, &mut st),
        "getline" | "getdelim" => {
            let delim = match base {
                "getdelim" => c.int(h.pool(), 2, 32).trunc(h.pool(), 8),
                _ => Int::konst(u64::from(b'\n'), 8),
            };
            getdelim(h, c, delim, (&s, &mut st))
        }
        "fread" => fread(h, c, &s, &mut st),
        "ungetc" => ungetc(h, c, &mut st),
        "feof" => int(u64::from(st.flags & EOF_SEEN != 0)),
        "ferror" => int(0),
        "clearerr" => {
            st.flags &= !EOF_SEEN;
            Ok(None)
        }
        "fclose" => {
            st.flags |= CLOSED;
            int(0)
        }
        "fseek" | "fseeko" => fseek(h, c, &s, &mut st),
        "ftell" | "ftello" => ftell(h, &st),
        "rewind" => {
            seek_to(&mut st, 0);
            Ok(None)
        }
        "fgetpos" => fgetpos(h, c, &st),
        "fsetpos" => {
            let off = position_type(h);
            let pos = h.load(c.ptr(1), off)?;
            let pos = Int::of(h.pool(), pos, off.bits());
            let pos = h.concretise(pos);
            seek_to(&mut st, pos);
            int(0)
        }
        _ => unreachable!("not a stream function: {base}"),
    }?;
    store_state(h, s.param, &st)?;
    Ok(out)
}

/// The input stream `f` points to, or the run's end: a null stream is a
/// null dereference (as the program's own, so that a pointer the inputs
/// make null is a decision), any other stream is unsupported.
fn stream(h: &mut dyn LibcHost, f: Pointer, name: &str) -> Result<InputStream, End> {
    match h.input_stream(f) {
        Some(s) if s.param < MAX_PARAMS as usize => Ok(s),
        _ => {
            h.load(f, Type::I8)?;
            Err(h.error(
                ErrorKind::Unsupported,
                format!(
                    "`{name}` reads a stream that is neither the standard input nor a `FILE *` parameter \
                     of the function under test (a `FILE *` field or variable): pass it as a parameter"
                ),
            ))
        }
    }
}

/// The static object holding every stream's state.
fn state_object(h: &mut dyn LibcHost) -> Pointer {
    h.static_object(STATE_OBJECT, Type::I64, &|| vec![Value::int(0); (STATE_CELLS * MAX_PARAMS) as usize])
}

fn cell(h: &mut dyn LibcHost, param: usize, i: u64) -> Pointer {
    at(state_object(h), (param as u64 * STATE_CELLS + i) * 8)
}

fn load_state(h: &mut dyn LibcHost, param: usize) -> Result<State, End> {
    let get = |h: &mut dyn LibcHost, i| {
        let p = cell(h, param, i);
        h.load(p, Type::I64)
    };
    let pos = get(h, 0)?.conc();
    let flags = get(h, 1)?.conc();
    let has_unget = get(h, 2)?.conc() != 0;
    let unget = get(h, 3)?;
    let unget = has_unget.then(|| Int::of(h.pool(), unget, 8));
    Ok(State { pos, flags, unget })
}

fn store_state(h: &mut dyn LibcHost, param: usize, st: &State) -> Result<(), End> {
    let cells = [
        Value::int(st.pos),
        Value::int(st.flags | USED),
        Value::int(u64::from(st.unget.is_some())),
        st.unget.map_or(Value::int(0), |b| b.value()),
    ];
    for (i, v) in cells.into_iter().enumerate() {
        let p = cell(h, param, i as u64);
        h.store(p, Type::I64, v)?;
    }
    Ok(())
}

/// The next byte of the stream, or `None` at end-of-file (setting the
/// indicator). Whether the file has a byte at `pos` is a decision; with
/// `lp`, one of a loop that only the data ends.
fn next_byte(
    h: &mut dyn LibcHost,
    s: &InputStream,
    st: &mut State,
    lp: Option<&mut ByteLoop>,
) -> Result<Option<Int>, End> {
    if let Some(b) = st.unget.take() {
        return Ok(Some(b));
    }
    if st.flags & (EOF_SEEN | AT_END) != 0 {
        st.flags |= EOF_SEEN;
        return Ok(None);
    }
    let pool = h.pool();
    let more = Int::konst(st.pos, 64).cmp(pool, BvCmp::Ult, s.len);
    let more = match lp {
        Some(lp) => h.decide_loop(more, lp)?,
        None => h.decide(more)?,
    };
    if !more {
        st.flags |= EOF_SEEN | AT_END;
        return Ok(None);
    }
    let v = h.load(at(s.data, st.pos), Type::I8)?;
    st.pos += 1;
    Ok(Some(Int::of(h.pool(), v, 8)))
}

/// `fgets(buf, n, f)`.
fn fgets(h: &mut dyn LibcHost, c: &Call<'_>, s: &InputStream, st: &mut State) -> Outcome {
    let buf = super::pinned(h, c.ptr(0));
    let n = c.int(h.pool(), 1, 32);
    let n = h.concretise(n) as u32 as i32;
    if n <= 0 {
        return Ok(Some(Value::Ptr(Pointer::NULL)));
    }
    let mut count = 0u64;
    let mut lp = ByteLoop::until_true();
    while count + 1 < n as u64 {
        let Some(b) = next_byte(h, s, st, None)? else { break };
        h.store(at(buf, count), Type::I8, b.value())?;
        count += 1;
        // A full buffer ends the line whatever the byte is.
        if count + 1 >= n as u64 {
            break;
        }
        let newline = b.eqc(h.pool(), u64::from(b'\n'));
        if h.decide_loop(newline, &mut lp)? {
            break;
        }
    }
    if count == 0 && n > 1 {
        return Ok(Some(Value::Ptr(Pointer::NULL)));
    }
    h.store(at(buf, count), Type::I8, Value::int(0))?;
    Ok(Some(Value::Ptr(buf)))
}

/// glibc's first buffer for `getline` (`getdelim.c`).
const GETLINE_FIRST: u64 = 120;

/// `getline(&line, &cap, f)` and `getdelim(&line, &cap, delim, f)`, as
/// glibc's: a null `*line` (or a zero `*cap`) gets a buffer of 120 bytes
/// first, even at the end of the file; the bytes up to the delimiter
/// (included), the end of the file or a full line are stored with a NUL;
/// the result is their number, or -1 when there was none. The buffer is
/// allocated inside glibc, by its own `malloc` (which the tests' wrappers
/// do not see): a heap object the code may free, but no allocation the
/// tests count or make fail, nor a leak they report. A line that would
/// need a larger buffer (more than `*cap - 1` bytes) is unsupported:
/// glibc would `realloc` the buffer where the tests' checks cannot see
/// it.
fn getdelim(h: &mut dyn LibcHost, c: &Call<'_>, delim: Int, (s, st): (&InputStream, &mut State)) -> Outcome {
    let long = h.target().long_bits;
    let (lineptr, capptr) = (c.ptr(0), c.ptr(1));
    if h.is_null(lineptr) || h.is_null(capptr) {
        super::errno::set(h, super::errno::EINVAL)?;
        return Ok(Some(Value::int(u64::MAX)));
    }
    let size_ty = if long == 64 { Type::I64 } else { Type::I32 };
    let mut line = h.load(lineptr, Type::Ptr)?.as_ptr();
    let cap = h.load(capptr, size_ty)?;
    let cap = Int::of(h.pool(), cap, long);
    let mut cap = h.concretise(cap);
    if h.is_null(line) || cap == 0 {
        line = h.allocate_internal(GETLINE_FIRST);
        cap = GETLINE_FIRST;
        h.store(lineptr, Type::Ptr, Value::Ptr(line))?;
        h.store(capptr, size_ty, Value::int(cap))?;
    }
    let mut count = 0u64;
    let mut lp = ByteLoop::until_true();
    while let Some(b) = next_byte(h, s, st, None)? {
        if count + 1 >= cap {
            let what = "`getline` of a line longer than its buffer (glibc would `realloc` it)".to_string();
            return Err(h.error(ErrorKind::Unsupported, what));
        }
        h.store(at(line, count), Type::I8, b.value())?;
        count += 1;
        let end = b.eq(h.pool(), delim);
        if h.decide_loop(end, &mut lp)? {
            break;
        }
    }
    if count == 0 {
        return Ok(Some(Value::int(u64::MAX)));
    }
    h.store(at(line, count), Type::I8, Value::int(0))?;
    Ok(Some(Value::int(count)))
}

/// `fread(buf, size, n, f)`: the whole request when the file holds it (one
/// decision), else the bytes left, counted by a loop the data ends.
fn fread(h: &mut dyn LibcHost, c: &Call<'_>, s: &InputStream, st: &mut State) -> Outcome {
    let long = h.target().long_bits;
    let buf = super::pinned(h, c.ptr(0));
    let size = c.int(h.pool(), 1, long);
    let size = h.concretise(size);
    let items = c.int(h.pool(), 2, long);
    let items = h.concretise(items);
    let Some(want) = size.checked_mul(items).filter(|&w| w > 0) else {
        return Ok(Some(Value::int(0)));
    };
    let mut got = 0u64;
    if let Some(b) = st.unget.take() {
        h.store(buf, Type::I8, b.value())?;
        got = 1;
    }
    let rest = want - got;
    let whole = rest > 0 && st.flags & (EOF_SEEN | AT_END) == 0 && {
        let pool = h.pool();
        let end = Int::konst(st.pos.saturating_add(rest), 64);
        let fits = end.cmp(pool, BvCmp::Ule, s.len);
        h.decide(fits)?
    };
    if whole {
        for i in 0..rest {
            let v = h.load(at(s.data, st.pos + i), Type::I8)?;
            h.store(at(buf, got + i), Type::I8, v)?;
        }
        st.pos += rest;
        got = want;
    } else {
        let mut lp = ByteLoop::while_true();
        while got < want {
            let Some(b) = next_byte(h, s, st, Some(&mut lp))? else { break };
            h.store(at(buf, got), Type::I8, b.value())?;
            got += 1;
        }
    }
    Ok(Some(Value::int(got / size)))
}

/// The position `ftell` gives: a byte pushed back (by `ungetc`, or
/// looked at by `fscanf`) is one before the file's position; at the
/// start, there is no such position (`None`: glibc's -1 and `EINVAL`).
fn tell(st: &State) -> Option<u64> {
    match (st.unget, st.pos) {
        (None, pos) => Some(pos),
        (Some(_), 0) => None,
        (Some(_), pos) => Some(pos - 1),
    }
}

/// `ftell(f)` (and `ftello`).
fn ftell(h: &mut dyn LibcHost, st: &State) -> Outcome {
    match tell(st) {
        Some(pos) => Ok(Some(Value::int(pos))),
        None => {
            super::errno::set(h, super::errno::EINVAL)?;
            Ok(Some(Value::int(u64::MAX)))
        }
    }
}

/// glibc's `fpos_t` starts with the position, an `off_t` (a `long`),
/// then a conversion state.
fn position_type(h: &mut dyn LibcHost) -> Type {
    if h.target().long_bits == 64 {
        Type::I64
    } else {
        Type::I32
    }
}

/// `fgetpos(f, &pos)`: the position `ftell` gives, with a zero conversion
/// state (glibc's `fpos_t` for a byte stream); -1 and `EINVAL` where
/// `ftell` has none.
fn fgetpos(h: &mut dyn LibcHost, c: &Call<'_>, st: &State) -> Outcome {
    let Some(pos) = tell(st) else {
        super::errno::set(h, super::errno::EINVAL)?;
        return Ok(Some(Value::int(u64::MAX)));
    };
    let off = position_type(h);
    let p = c.ptr(1);
    h.store(p, off, Value::int(pos))?;
    // The state: 8 bytes after the position (`__mbstate_t`).
    let state = at(p, u64::from(off.bits() / 8));
    h.store(state, Type::I64, Value::int(0))?;
    Ok(Some(Value::int(0)))
}

/// Move to `pos`, as glibc's `fseek` does: the pushed-back byte goes and
/// end-of-file is cleared (the file may end before `pos`: reads there
/// find its end).
fn seek_to(st: &mut State, pos: u64) {
    st.pos = pos;
    st.unget = None;
    st.flags &= !(EOF_SEEN | AT_END);
}

/// `fseek(f, offset, whence)` (and `fseeko`), as glibc 2.36's: from the
/// start, the position or the end (the file's size decided, see
/// [`size`]). An unknown `whence`, or a position before the start, is -1
/// and `EINVAL`; in the second case, unless the current position itself
/// is before the start, glibc has already dropped the pushed-back byte
/// (checked against glibc: the next read is the file's byte at the
/// position).
fn fseek(h: &mut dyn LibcHost, c: &Call<'_>, s: &InputStream, st: &mut State) -> Outcome {
    let long = h.target().long_bits;
    let off = c.int(h.pool(), 1, long);
    let off = pathwise_expr::ops::to_signed(h.concretise(off), long);
    let whence = c.int(h.pool(), 2, 32);
    let base = match h.concretise(whence) {
        0 => Some(0),
        1 => tell(st),
        2 => Some(size(h, s)?),
        _ => None,
    };
    if let Some(base) = base {
        // From here on glibc has left the pushed-back byte, whether the
        // seek succeeds or not.
        st.unget = None;
        let to = i64::try_from(base).ok().and_then(|b| b.checked_add(off)).filter(|&p| p >= 0);
        if let Some(to) = to {
            seek_to(st, to as u64);
            return Ok(Some(Value::int(0)));
        }
    }
    super::errno::set(h, super::errno::EINVAL)?;
    Ok(Some(Value::int(u64::MAX)))
}

/// The file's size as a number of the run: which of 0, 1, 2, ... it is,
/// each a decision, so that the search gives every size a path (the
/// sizes are bounded by `--max-array-len`).
fn size(h: &mut dyn LibcHost, s: &InputStream) -> Result<u64, End> {
    for v in 0..=s.len.conc {
        let is = s.len.eqc(h.pool(), v);
        if h.decide(is)? {
            return Ok(v);
        }
    }
    unreachable!("the run's size is one of them")
}

/// `ungetc(c, f)`.
fn ungetc(h: &mut dyn LibcHost, c: &Call<'_>, st: &mut State) -> Outcome {
    let v = c.int(h.pool(), 0, 32);
    let is_eof = v.eqc(h.pool(), EOF);
    if h.decide(is_eof)? {
        return Ok(Some(Value::int(EOF)));
    }
    if st.unget.is_some() {
        return Err(h.error(ErrorKind::Unsupported, "a second `ungetc` before a read".to_string()));
    }
    let b = v.trunc(h.pool(), 8);
    st.unget = Some(b);
    st.flags &= !EOF_SEEN;
    Ok(Some(b.zext(h.pool(), 32).value()))
}
