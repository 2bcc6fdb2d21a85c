//! The calls of a decoded extrinsic: a call value's parts, and the calls
//! nested in its arguments (found by shape, so every wrapper call —
//! utility, proxy, multisig, sudo, scheduler, XCM … — is seen). Shared by
//! the generic `calls` table and the typed call tables.

use ferroscale_dynamic::document::Kind;
use ferroscale_dynamic::ValueRef;

/// A call value's pallet, name and arguments, when `v` is a call.
pub(crate) fn call_parts<'d, 'g>(
    v: ValueRef<'d, 'g>,
) -> Option<(&'d str, &'d str, ValueRef<'d, 'g>)> {
    if v.kind() != Kind::Dict {
        return None;
    }
    Some((
        v.get("call_module")?.as_str()?,
        v.get("call_function")?.as_str()?,
        v.get("call_args")?,
    ))
}

/// Calls `f` on each outermost call value inside `v`.
pub(crate) fn nested_calls<'d, 'g>(v: ValueRef<'d, 'g>, f: &mut dyn FnMut(ValueRef<'d, 'g>)) {
    if call_parts(v).is_some() {
        return f(v);
    }
    // Plain loops over `items()` / `entries()`: this walks every node of
    // the arguments (a tenth of the rows stage's time in a profile of block
    // 18468942), and an `into_iter().flatten()` adapter is state copied
    // around at every node.
    if let Some(items) = v.items() {
        for item in items {
            if is_container(item) {
                nested_calls(item, f);
            }
        }
    } else if let Some(entries) = v.entries() {
        for (_, item) in entries {
            if is_container(item) {
                nested_calls(item, f);
            }
        }
    }
}

/// Whether `v` may hold a call (scalars never do; most nodes are scalars,
/// so they are not visited at all).
fn is_container(v: ValueRef<'_, '_>) -> bool {
    matches!(v.kind(), Kind::List | Kind::Tuple | Kind::Dict)
}
