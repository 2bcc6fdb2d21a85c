//! [`StorageHasher`] from each `frame-metadata` version's own hasher enum.
//! V15 and V16 reuse V14's; V9 and V10 have no `Identity`.

use ferroscale_core::hashing::StorageHasher;
use frame_metadata::{v10, v11, v12, v13, v14, v9};

/// A `frame-metadata` hasher enum that maps onto ours (a local trait: the
/// orphan rule forbids `From` between two foreign types).
pub(crate) trait FrameHasher {
    /// The same hasher as ours (same SCALE index).
    fn to_ours(&self) -> StorageHasher;
}

macro_rules! from_frame_metadata {
    ($module:ident: $($variant:ident),+) => {
        impl FrameHasher for $module::StorageHasher {
            fn to_ours(&self) -> StorageHasher {
                match self {
                    $($module::StorageHasher::$variant => StorageHasher::$variant,)+
                }
            }
        }
    };
}

from_frame_metadata!(v9: Blake2_128, Blake2_256, Blake2_128Concat, Twox128, Twox256, Twox64Concat);
from_frame_metadata!(v10: Blake2_128, Blake2_256, Blake2_128Concat, Twox128, Twox256, Twox64Concat);
from_frame_metadata!(v11: Blake2_128, Blake2_256, Blake2_128Concat, Twox128, Twox256, Twox64Concat, Identity);
from_frame_metadata!(v12: Blake2_128, Blake2_256, Blake2_128Concat, Twox128, Twox256, Twox64Concat, Identity);
from_frame_metadata!(v13: Blake2_128, Blake2_256, Blake2_128Concat, Twox128, Twox256, Twox64Concat, Identity);
from_frame_metadata!(v14: Blake2_128, Blake2_256, Blake2_128Concat, Twox128, Twox256, Twox64Concat, Identity);

#[cfg(test)]
mod tests {
    use super::*;
    use parity_scale_codec::Encode;

    #[test]
    fn conversions_keep_the_scale_index() {
        let v14_all = [
            v14::StorageHasher::Blake2_128,
            v14::StorageHasher::Blake2_256,
            v14::StorageHasher::Blake2_128Concat,
            v14::StorageHasher::Twox128,
            v14::StorageHasher::Twox256,
            v14::StorageHasher::Twox64Concat,
            v14::StorageHasher::Identity,
        ];
        for h in v14_all {
            assert_eq!(h.to_ours().encode(), h.encode());
        }
        let v9 = v9::StorageHasher::Twox64Concat;
        assert_eq!(v9.to_ours().encode(), v9.encode());
    }
}
