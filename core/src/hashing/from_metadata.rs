//! [`StorageHasher`] from each `frame-metadata` version's own hasher enum.
//! V15 and V16 reuse V14's; V9 and V10 have no `Identity`.

use frame_metadata::{v10, v11, v12, v13, v14, v9};

use super::hasher::StorageHasher;

/// One `From` impl per frame-metadata hasher enum, variant by variant (so a
/// reordering upstream is a compile error here, not a silent mix-up).
macro_rules! from_frame_metadata {
    ($module:ident: $($variant:ident),+) => {
        impl From<&$module::StorageHasher> for StorageHasher {
            fn from(h: &$module::StorageHasher) -> Self {
                match h {
                    $($module::StorageHasher::$variant => StorageHasher::$variant,)+
                }
            }
        }

        impl From<$module::StorageHasher> for StorageHasher {
            fn from(h: $module::StorageHasher) -> Self {
                StorageHasher::from(&h)
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
            assert_eq!(StorageHasher::from(&h).encode(), h.encode());
        }
        let v9 = v9::StorageHasher::Twox64Concat;
        assert_eq!(StorageHasher::from(&v9).encode(), v9.encode());
    }
}
