//! `MetadataVersioned`: the magic and `{"V<n>": metadata}`, decoded with
//! the process's metadata definitions, which have their own graph.

use std::ops::DerefMut;

use crate::context::Context;
use crate::graph::TypeIdx;
use crate::sink::Sink;

use crate::decode::{Decoder, Fail};

impl<'c, 'a: 'c, S: Sink<'a>, B: DerefMut<Target = S>> Decoder<'c, 'a, S, B> {
    /// `MetadataVersioned`: the magic number as hex and `{"V<n>": metadata}`,
    /// the metadata decoded with the process's metadata definitions
    /// ([`crate::metadata_value`]), which have their own graph.
    #[inline(never)]
    pub(in crate::decode) fn metadata_versioned(&mut self, ty: TypeIdx) -> Result<S::Out, Fail> {
        let types = (self.ctx.metadata_types)()?;
        let magic = self.take(4, ty)?;
        let at = self.pos;
        let version = self.byte(ty)?;
        let Some((inner_ty, name)) = types.version(version) else {
            return Err(self.invalid(
                ty,
                at,
                format!("metadata version {version} is not supported (only V9 to V16)"),
            ));
        };
        let mut ctx = Context::new(types.graph());
        ctx.max_depth = self.ctx.max_depth;
        ctx.stack_budget = self.ctx.stack_budget;
        let (data, pos) = (self.data, self.pos);
        let mut sub = self.nested(&ctx, data, pos);
        let inner = sub.node(inner_ty);
        let (pos, zero_sized_left) = (sub.pos, sub.zero_sized_left);
        self.pos = pos;
        self.zero_sized_left = zero_sized_left;
        let inner = inner?;
        let mut t = self.sink.seq_begin(2);
        let m = self.sink.hex(magic);
        self.sink.seq_push(&mut t, m);
        let v = self.sink.single_entry(name, inner);
        self.sink.seq_push(&mut t, v);
        Ok(self.sink.tuple_end(t))
    }
}
