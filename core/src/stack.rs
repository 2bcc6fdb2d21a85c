//! A stack budget for recursive decoders and encoders (the dynamic walks,
//! the generated types' `decode_all`). A nesting limit counts levels, but
//! what a level costs on the stack depends on the build (a debug build's
//! frames are several times a release build's) and on the types; a hostile
//! value nested to the limit could still overflow the 2 MiB stack of a
//! spawned thread, which aborts the process. So they also stop, with an
//! error, once they have used a budget of bytes below where they started.

/// Stack a decode or encode may use below its entry point by default: half
/// of the 2 MiB that Rust gives spawned threads (rayon's workers, test
/// threads), so the caller keeps the other half.
pub const DEFAULT_STACK_BUDGET: usize = 1 << 20;

/// Where a decode or encode started on the stack.
#[derive(Clone, Copy, Debug)]
pub struct StackBase(usize);

impl StackBase {
    /// The current position.
    #[inline(always)]
    pub fn here() -> Self {
        StackBase(approximate_stack_pointer())
    }

    /// Whether more than `budget` bytes of stack have been used since `self`.
    /// Stacks grow downwards on every target we build for; were one to grow
    /// upwards, the difference saturates to zero and only the nesting limit
    /// applies.
    #[inline(always)]
    pub fn exhausted(self, budget: usize) -> bool {
        self.0.saturating_sub(approximate_stack_pointer()) > budget
    }
}

/// The address of a local: within a frame of the stack pointer.
#[inline(always)]
fn approximate_stack_pointer() -> usize {
    let marker = 0u8;
    std::hint::black_box(std::ptr::addr_of!(marker)) as usize
}
