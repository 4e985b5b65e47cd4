//! String functions whose destination is an array member of a structure
//! write within that member (see the front end's `member_room`: C's array
//! ends there, and `_FORTIFY_SOURCE=2` aborts a call that writes past
//! it). The front end calls `__pathwise_member_room(bytes)` right before
//! such a call; the model keeps the figure in a library static object, and
//! the dispatcher hands it to the host as a limit on the next limited
//! function's writes through its destination ([`LibcHost::limit_writes`]).

use pathwise_ir::Type;

use super::{Call, LibcHost, Outcome};
use crate::value::Value;

pub(super) const NAMES: &[&str] = &[pathwise_ir::MEMBER_ROOM_MODEL];

/// The static object holding the pending room plus one (0: none).
const OBJECT: &str = "pathwise.member_room";

pub(super) fn call(h: &mut dyn LibcHost, c: &Call<'_>) -> Option<Outcome> {
    if c.name != NAMES[0] {
        return None;
    }
    let room = c.int(h.pool(), 0, 64).conc;
    let cell = h.static_object(OBJECT, Type::I64, &|| vec![Value::int(0)]);
    Some(h.store(cell, Type::I64, Value::int(room.saturating_add(1))).map(|()| None))
}

/// Before the model of `c`: a pending room becomes the limit of its
/// writes through its first argument (and is used up).
pub(super) fn apply(h: &mut dyn LibcHost, c: &Call<'_>) -> Result<(), crate::path::End> {
    if !pathwise_ir::MEMBER_ROOM_LIMITED.contains(&c.name) {
        return Ok(());
    }
    let cell = h.static_object(OBJECT, Type::I64, &|| vec![Value::int(0)]);
    let pending = h.load(cell, Type::I64)?.conc();
    if pending != 0 {
        h.store(cell, Type::I64, Value::int(0))?;
        h.limit_writes(c.ptr(0), pending - 1);
    }
    Ok(())
}
